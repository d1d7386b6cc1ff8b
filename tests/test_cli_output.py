"""What the commands print: every line fits 80 columns, names print as written, records keep them."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("click")
pytest.importorskip("rich")
from rich.cells import cell_len

import chickenfoot as cf
from chickenfoot._io._extras import install_command
from chickenfoot.cli import main

SMALL = ("--rule", "max_pip=6")


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "stdin", sys.stdin)  # restored after tests that replace it


def _fits(text: str) -> None:
    # Input typed at a prompt ends its line on a terminal; piped in, it echoes nothing.
    text = text.replace("your move> ", "your move> \n")
    wide = [line for line in text.splitlines() if cell_len(line) > 80]
    assert not wide, f"{len(wide)} lines wider than 80 columns, e.g. {wide[0]!r}"


@pytest.mark.slow
def test_every_command_fits_80_columns(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Eight players on double-12 with long bot names: the widest score table and the longest lines.
    bots = "greedy,random,search:3,greedy,random,greedy,search:2,random"
    saved = tmp_path / "g.json"
    code, out, err = run(
        capsys, "simulate", "--players", "8", "--rule", "max_pip=12", "--bots", bots, "--save", str(saved), "-v"
    )
    assert code == 0, err
    _fits(out)
    assert "#0 12-12 center" in out  # --verbose: the trees, wrapped to fit
    assert "P2 search:3" in out  # the seats are named, in a caption if not in the headers
    for by in ("round", "move"):
        code, out, err = run(capsys, "replay", str(saved), "--by", by)
        assert code == 0, err
        _fits(out)
    code, out, err = run(
        capsys, "tournament", "--games", "3", "--bots", "search:2,greedy,random", *SMALL, "--workers", "1"
    )
    assert code == 0, err
    _fits(out + err)
    code, out, err = run(
        capsys, "play", "--players", "8", "--rule", "max_pip=12", "--seed", "2", stdin="board\nquit\nquit\n"
    )
    assert code == 0, err
    _fits(out)
    for preset in ("trains", "cross"):
        code, out, _ = run(capsys, "rules", preset)
        _fits(out)
    for command in ("simulate", "play", "tournament", "replay", "rules"):
        _, out, _ = run(capsys, command, "--help")
        _fits(out)


def test_the_move_menu_is_sorted_grouped_and_never_split_at_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    # Eight players on double-12, well into the round: many open ends, long hands, long seat lists.
    code, out, err = run(
        capsys, "play", "--players", "8", "--rule", "max_pip=12", "--seed", "5", stdin="1\n" * 12 + "quit\nquit\n"
    )
    assert code == 0, err
    _fits(out)
    menus = re.findall(r"^your (?:only move|(\d+) moves):\n((?:  .*\n)+)", out, re.MULTILINE)
    assert menus
    widest = 0
    for count, block in menus:
        entries = re.findall(r"(\d+)\. (\S+)", block)
        assert [int(number) for number, _ in entries] == list(range(1, len(entries) + 1))
        assert len(entries) == (int(count) if count else 1)
        for line in block.splitlines():  # every line is whole entries, and one tile's (a group)
            assert re.fullmatch(r"  ( *\d+\. \S+)( {3} *\d+\. \S+)*", line), line
            tiles = {text.split("@")[0] for text in re.findall(r"\d+\. (\S+)", line)}
            assert len(tiles) == 1, line
        moves = [cf.parse_move(text) for _, text in entries]
        plays = [move for move in moves if isinstance(move, cf.Play)]
        keys = [(-move.tile.high, -move.tile.low, move.onto) for move in plays]
        assert keys == sorted(keys)  # highest tile first, then by node
        assert moves[len(plays) :] == [move for move in moves if not isinstance(move, cf.Play)]  # then draw, pass
        widest = max(widest, len(entries))
    assert widest >= 8  # a menu long enough to wrap was seen
    continued = [line for line in out.splitlines() if re.match(r" {15}\S", line)]  # lines that wrapped
    assert continued
    for line in continued:  # the seats' hands, or the person's: whole entries only
        hands = r" +(P\d greedy \(\d+\)  )*P\d greedy \(\d+\)"
        tiles = r" +(\[\d+-\d+\] )*\[\d+-\d+\]"
        assert re.fullmatch(hands, line) or re.fullmatch(tiles, line), line
    assert "your only move:" in out  # singular, not "choose 1 to 1"
    assert "tile(s)" not in out


def test_names_print_as_written_never_as_markup_or_emoji(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # rich reads :100: as an emoji code and [bold] as markup; the names must come out as typed.
    code, out, err = run(
        capsys, "play", "--players", "2", *SMALL, "--seed", "1", "--bots", "search:100", stdin="quit\nquit\n"
    )
    assert code == 0, err
    assert "P1 search:100 (" in out  # the hand counts: "search:100" then ":" would make ":100:"
    assert "\N{HUNDRED POINTS SYMBOL}" not in out
    path = tmp_path / "marked.json"
    argv = ("play", "--players", "2", *SMALL, "--seed", "1", "--name", "[bold]me[/]", "--save", str(path))
    code, out, err = run(capsys, *argv, stdin="quit\n")
    assert code == 0, err
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "players: P0 [bold]me[/], P1 greedy" in out


def test_play_picks_and_prints_a_seed_and_warns_before_quitting_unsaved(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seeds = set()
    for _ in range(2):
        code, out, _ = run(capsys, "play", "--players", "2", *SMALL, stdin="quit\nquit\n")
        assert code == 0
        found = re.search(r"^seed (\d+) \(play this deal again with --seed \1\)$", out, re.MULTILINE)
        assert found is not None, out
        seeds.add(int(found[1]))
        assert out.count("this game is not saved") == 1  # the first quit warns, the second leaves
    assert len(seeds) == 2
    path = tmp_path / "mine.json"
    code, out, _ = run(capsys, "play", "--players", "2", *SMALL, "--name", "Ada", "--save", str(path), stdin="quit\n")
    assert code == 0
    assert "not saved" not in out  # --save keeps it, so one quit leaves
    seed = int(re.search(r"^seed (\d+)", out, re.MULTILINE)[1])  # type: ignore[index]
    record = cf.from_json(path.read_text(), cf.GameRecord)
    assert (record.seed, record.names[0], record.event) == (seed, "Ada", "chickenfoot play")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "players: P0 Ada, P1 greedy" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"chickenfoot {cf.__version__}"


def test_a_missing_ray_is_reported_before_any_progress(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    code, out, err = run(capsys, "tournament", "--games", "2", "--bots", "greedy,random", "--backend", "ray")
    assert code == 1
    assert install_command("ray") in err
    assert "games" not in out + err.split("Error")[0]  # no progress bar before the error


def test_tournament_csv_is_rounded_with_wilson_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tournament", "--games", "4", "--bots", "greedy,random", *SMALL, "--csv", "-")
    assert code == 0, err
    rows = [line.split(",") for line in out.strip().splitlines()]
    header = rows[0]
    assert header[-2:] == ["win_low95", "win_high95"]
    for row in rows[1:]:
        for cell in row[1:]:
            assert len(cell.partition(".")[2]) <= 4, cell
        low, high, rate = float(row[-2]), float(row[-1]), float(row[header.index("win_rate")])
        assert 0 <= low <= rate <= high <= 1
        assert high - low > 0.2  # four games cannot pin a win rate down


def test_wilson_interval_matches_the_formula() -> None:
    from chickenfoot.tournament import wilson

    # Wilson (1927) for 8 wins in 10 at 95%: the textbook interval is 0.490 to 0.943.
    low, high = wilson(0.8, 10)
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert wilson(0.0, 4)[0] == 0.0
    assert wilson(0.0, 4)[1] > 0.4


def test_piped_tournament_output_holds_the_results_alone(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tournament", "--games", "3", "--bots", "greedy,random", *SMALL)
    assert code == 0, err
    assert "3/3" not in out + err  # no progress bar ("games ━━━ 3/3 0:00:01 left ...") where nobody watches
    assert "greedy" in out  # the standings
    assert err == ""


def test_on_a_terminal_the_progress_goes_to_stderr_not_into_a_redirected_file(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    results = tmp_path / "results.txt"
    src = Path(cf.__file__).resolve().parent.parent
    command = f"{sys.executable} -m chickenfoot tournament --games 3 --bots greedy,random --rule max_pip=6 > {results}"
    child = pexpect.spawn(
        "/bin/sh", ["-c", command], env={**os.environ, "PYTHONPATH": str(src)}, encoding="utf-8", timeout=120
    )
    seen = child.read()  # what the terminal shows: the progress bar, drawn on stderr
    child.close()
    assert child.exitstatus == 0, seen
    assert "3/3" in seen
    written = results.read_text(encoding="utf-8")
    assert "greedy" in written
    assert "3/3" not in written
