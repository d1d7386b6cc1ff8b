"""The commands simulate, play, replay and rules, and the helpers the other commands share.

Every command is a plain ``click.command``; :mod:`._commands` lists them all and adds them to the app.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable
from pathlib import Path

import attrs
import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .._game import PRESETS, BotSpecError, GameState, InvalidRecordError, Move, Rules, RulesError, new_game
from .._io import GameRecord
from .._tournament import check_starts, derive_seed, import_ray
from ..bots import check_spec, kinds_help, make_bot, play_out
from ..render import describe_move
from ..svg import render_svg
from ._options import bots_option, build_rules, parse_bots, players_option, rules_options, seed_option
from ._play import play_session
from ._records import load_record, save_record
from ._show import ending, fit, layout_panel, plural, round_title, score_table

__all__ = ["CONTEXT", "play", "replay", "rules", "simulate"]

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _console(*, stderr: bool = False) -> Console:
    # No emoji codes: a bot named search:100 must not print as a 100 emoji. Markup stays for our
    # own styles; names and other user text are escaped (or passed as Text) wherever they appear.
    return Console(highlight=False, emoji=False, stderr=stderr)


def _check_players(rules: Rules, players: int) -> None:
    try:
        rules.check_players(players)
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint="'--players'") from None


def _check_backend(backend: str, address: str | None) -> None:
    """Refuses ``--address`` without ``--backend ray``, and Ray where it is not installed, before any output."""
    if address is not None and backend != "ray":
        raise click.BadParameter("--address is for --backend ray", param_hint="'--address'")
    if backend == "ray":
        try:  # a missing backend is a usage problem, not a failed run
            import_ray()
        except ImportError as error:
            raise click.ClickException(str(error)) from None


def _games_progress() -> tuple[Progress, Callable[[int, int], None]]:
    """Gets a progress bar of games, and the callback that moves it, ``advance(done, total)``.

    Progress is for a person watching: on stderr, and only when that is a terminal, so
    ``tournament > results.txt`` (or a pipe) holds the results alone. The bar starts with the
    first finished game, so a backend that fails to start (no Ray, a bad ``--address``) prints
    its error alone, not under a progress bar.
    """
    console = _console(stderr=True)
    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("left"))
    progress = Progress(*columns, TimeRemainingColumn(), console=console, disable=not console.is_terminal)
    task = progress.add_task("games", total=None)

    def advance(done: int, total: int) -> None:
        if not progress.live.is_started:
            progress.start()
        progress.update(task, completed=done, total=total)

    return progress, advance


# -- simulate --------------------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
@rules_options
@players_option
@seed_option
@bots_option(
    "greedy",
    f"Bots by seat, comma-separated (one name fills every seat): {kinds_help()}.",
)
@click.option(
    "--svg",
    "svg_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write each round's final layout as DIR/round-NN.svg.",
)
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also save the game record (with the bots' names) to FILE, for `chickenfoot replay`.",
)
@click.option("--verbose", "-v", is_flag=True, help="Also show each round's final layout as a tree, and its scores.")
def simulate(
    preset: str,
    rule_overrides: tuple[str, ...],
    players: int,
    seed: int,
    bots: str,
    svg_dir: Path | None,
    save_path: Path | None,
    verbose: bool,
) -> None:
    """Play a whole game between bots and show it: a row a round in the score table (--verbose: the layouts too)."""
    rules = build_rules(preset, rule_overrides)
    _check_players(rules, players)
    names = parse_bots(bots, players)
    console = _console()
    if svg_dir is not None:
        try:
            svg_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise click.BadParameter(f"cannot create {svg_dir}: {error.strerror}", param_hint="'--svg'") from None
    try:
        seated = [make_bot(name, seed=derive_seed(seed, "simulate", seat)) for seat, name in enumerate(names)]
        check_starts(seated)  # a program that cannot start stops here, not after a game of forfeits
    except BotSpecError as error:
        raise click.ClickException(str(error)) from None
    console.rule(f"Chicken Foot, {preset} rules, {players} players, seed {seed}")
    game = play_out(new_game(rules, players=players, seed=seed), seated)
    for index, result in enumerate(game.results):
        title = f"{round_title(index, rules.rounds)}: {result.double}-{result.double}, {ending(result, names)}"
        if verbose:
            console.print(layout_panel(result.final, title, console.width))
            console.print("scores: " + "  ".join(f"P{seat}={score}" for seat, score in enumerate(result.scores)))
        if svg_dir is not None:
            picture = render_svg(result.final, title=title, numbers=True)
            (svg_dir / f"round-{index + 1:02d}.svg").write_text(picture, encoding="utf-8")
    console.print(score_table(game, names, console.width))
    console.print("totals: " + "  ".join(f"P{seat}={total}" for seat, total in enumerate(game.totals)))
    winners = ", ".join(f"P{seat} {names[seat]}" for seat in game.winners)
    console.print(f"winner{'s' if len(game.winners) > 1 else ''}: {winners}", style="bold", markup=False)
    if svg_dir is not None:
        console.print(f"wrote {plural(len(game.results), 'picture')} to {svg_dir}", markup=False)
    if not verbose:
        console.print("each round's final layout: --verbose", style="dim", markup=False)
    if save_path is not None:
        try:
            save_record(game, save_path, names=names, event="chickenfoot simulate")
        except OSError as error:
            raise click.ClickException(f"cannot write {save_path}: {error.strerror or error}") from None
        console.print(f"saved the game record to {save_path}", markup=False)


# -- play ------------------------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
@rules_options
@players_option
@click.option("--seat", type=click.IntRange(0, 7), default=0, show_default=True, help="Your seat (P0 is the first).")
@click.option("--name", default="human", show_default=True, help="Your name, as the game record keeps it.")
@click.option(
    "--seed", type=int, default=None, help="Seed for the deals and the bots [default: a new one each game, printed]."
)
@bots_option(
    "greedy",
    f"Your opponents, comma-separated in seat order (one name fills every seat): {kinds_help()}.",
)
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also save the game record to FILE when the game ends or you leave (type 'save FILE' to save any time).",
)
@click.option(
    "--load",
    "load_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Resume the game saved in FILE: its rules, players, seed, moves, names and comments (every move checked).",
)
@click.pass_context
def play(
    context: click.Context,
    preset: str,
    rule_overrides: tuple[str, ...],
    players: int,
    seat: int,
    name: str,
    seed: int | None,
    bots: str,
    save_path: Path | None,
    load_path: Path | None,
) -> None:
    """Play against bots in the terminal: pick a numbered move or type one like 9-5@3."""
    if not name.strip():
        raise click.BadParameter("give a name, or leave --name out", param_hint="'--name'")
    console = _console()
    if load_path is not None:
        game, seat, seats, record = _resume(context, load_path, seat, name.strip(), bots)
        resumed = f"resuming {load_path.name} at move {len(game.history) + 1}, seed {game.seed}"
        console.print(resumed, markup=False)
        loaded: tuple[Path, GameRecord] | None = (load_path, record)
    else:
        rules = build_rules(preset, rule_overrides)
        _check_players(rules, players)
        if seat >= players:
            raise click.BadParameter(f"seat {seat} does not exist with {players} players: use 0 to {players - 1}")
        names = list(parse_bots(bots, players - 1))
        seats = [*names[:seat], name.strip(), *names[seat:]]
        if seed is None:
            seed = secrets.randbelow(2**32)
        console.print(f"seed {seed} (play this deal again with --seed {seed})")
        game, loaded = new_game(rules, players=players, seed=seed), None
    code = play_session(console, game, seat, seats, save_path, console.input, loaded)
    raise SystemExit(code)


def _given(context: click.Context, parameter: str) -> bool:
    """Tells whether an option was given on the command line, not left at its default."""
    return context.get_parameter_source(parameter) is click.core.ParameterSource.COMMANDLINE


def _resume(
    context: click.Context, path: Path, seat: int, name: str, bots: str
) -> tuple[GameState, int, list[str], GameRecord]:
    """Reads the game ``play --load`` resumes: the position, the person's seat, every seat's name, the record.

    The record says who sat where: the person is the one seat not named by a bot, unless
    ``--seat`` says otherwise; the bots are the record's, unless ``--bots`` names others. A
    record's ``cmd:`` bot is never run unless ``--bots`` asks for it: a file must not start programs.
    """
    clashing = [option for option in ("preset", "rule_overrides", "players", "seed") if _given(context, option)]
    if clashing:
        given = ", ".join("--rule" if option == "rule_overrides" else f"--{option}" for option in clashing)
        raise click.UsageError(f"--load takes the rules, players and seed from {path}: leave out {given}")
    try:
        record, states = load_record(path)
    except InvalidRecordError as error:
        raise click.ClickException(f"{path}: {error}") from None
    game = states[-1]
    if game.is_over:
        raise click.ClickException(f"{path}: that game is over ({record.result}): see it with `chickenfoot replay`")
    names = list(record.names) or ["human" if player == seat else "greedy" for player in range(game.players)]
    if _given(context, "seat"):
        if seat >= game.players:
            valid = f"use 0 to {game.players - 1}"
            raise click.BadParameter(f"seat {seat} does not exist in a {game.players}-player game: {valid}")
    elif record.names:
        people = [player for player, who in enumerate(names) if not _is_bot(who)]
        if len(people) != 1:
            raise click.UsageError(f"{path} does not say which seat is yours: give --seat (0 to {game.players - 1})")
        seat = people[0]
    if _given(context, "name") or not record.names:
        names[seat] = name
    if _given(context, "bots"):  # the person names the opponents: any kind, as a new game takes
        others = list(parse_bots(bots, game.players - 1))
        return game, seat, [*others[:seat], names[seat], *others[seat:]], record
    for player, who in enumerate(names):
        # A record's cmd: or py: bot would run a program or code named by a file: never without --bots.
        kind = check_spec(who).kind if _is_bot(who) else None
        if player != seat and kind in (None, "cmd", "py"):
            what = {"cmd": "runs a program", "py": "runs Python code", None: "is not a bot"}[kind]
            raise click.UsageError(f"seat {player} of {path} ({who!r}) {what}: name the opponents with --bots")
    return game, seat, names, record


def _is_bot(name: str) -> bool:
    try:
        check_spec(name)
    except BotSpecError:
        return False
    return True


def _write(target: str, text: str, console: Console) -> None:
    if target == "-":
        click.echo(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {target}: {error.strerror or error}") from None
    console.print(f"wrote {target}", markup=False)


# -- replay ----------------------------------------------------------------------------------


@click.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--by",
    type=click.Choice(["round", "move"]),
    default="round",
    show_default=True,
    help="Step round by round (final layouts and scores) or move by move.",
)
@click.option("--pause/--no-pause", default=False, help="Wait for Enter between steps (q then Enter stops).")
def replay(file: Path, by: str, pause: bool) -> None:
    """Step through a saved game record (from `chickenfoot play`), checking every move, with its comments."""
    try:
        record, states = load_record(file)
    except InvalidRecordError as error:
        raise click.ClickException(f"{file}: {error}") from None
    console = _console()
    first = states[0]
    names = list(record.names) or ["?"] * first.players
    console.rule(Text(f"{file.name}: {first.players} players, seed {first.seed}, {plural(len(states) - 1, 'move')}"))
    for line in _record_headers(record, names, console.width):
        console.print(line, markup=False)
    rounds = first.rules.rounds

    def wait() -> bool:
        if not pause:
            return True
        try:
            return console.input("[dim]Enter for more, q to stop> [/]").strip().lower() != "q"
        except EOFError:
            return False

    def note(text: str) -> None:
        console.print(Text(text, style="italic"), markup=False)

    # Moves and rounds are numbered from 1, as the record's comments and the readers' messages number them.
    turns = [
        (number, before.round_index, before.round.current_player, after.history[-1][1])
        for number, (before, after) in enumerate(itertools.pairwise(states), start=1)
    ]
    last = states[-1]
    if by == "move":
        for number, index, player, move in turns:
            if index + 1 in record.round_comments and (number == 1 or turns[number - 2][1] != index):
                note(f"{round_title(index, rounds)}: {record.round_comments[index + 1]}")  # as the round starts
            said = f"move {number}, round {index + 1}: P{player} {names[player]} {describe_move(move)}"
            console.print(said, markup=False)
            if number in record.comments:
                note(f"  {record.comments[number]}")
            if len(states[number].results) > len(states[number - 1].results):
                result = states[number].results[-1]
                title = f"{round_title(index, rounds)} over: {ending(result, names)}"
                console.print(layout_panel(result.final, title, console.width))
            if not wait():
                return
    else:
        for index, result in enumerate(last.results):
            title = f"{round_title(index, rounds)}: {ending(result, names)}"
            console.print(layout_panel(result.final, title, console.width))
            console.print("scores: " + "  ".join(f"P{seat}={score}" for seat, score in enumerate(result.scores)))
            _round_notes(record, turns, index, names, note)
            if not wait():
                return
        if not last.is_over:
            round_ = last.round
            title = f"{round_title(last.round_index, rounds)} (unfinished, P{round_.current_player} to move)"
            console.print(layout_panel(round_, title, console.width))
            _round_notes(record, turns, last.round_index, names, note)
    if last.results:
        console.print(score_table(last, names, console.width))


def _record_headers(record: GameRecord, names: list[str], width: int) -> list[str]:
    """Writes a record's headers as ``replay`` shows them: the players, event, date, result and tags."""
    seated = [f"P{seat} {name}" + ("," if seat < len(names) - 1 else "") for seat, name in enumerate(names)]
    headers = fit("players: ", seated, width, separator=" ") if record.names else []
    headers += [f"{key}: {value}" for key, value in (("event", record.event), ("date", record.date)) if value]
    if record.result is not None:
        headers.append(f"result: {record.result}")
    headers += [f"{tag}: {value}" for tag, value in record.tags.items()]
    return headers


def _round_notes(
    record: GameRecord,
    turns: list[tuple[int, int, int, Move]],
    index: int,
    names: list[str],
    note: Callable[[str], None],
) -> None:
    """Writes the comments on round ``index`` and on its moves, each move named as ``replay --by move`` names it."""
    if index + 1 in record.round_comments:
        note(record.round_comments[index + 1])
    for number, round_index, player, move in turns:
        if round_index == index and number in record.comments:
            note(f"move {number} (P{player} {names[player]} {describe_move(move)}): {record.comments[number]}")


# -- rules -----------------------------------------------------------------------------------

_SUMMARY = {
    "trains": (
        "Each round starts from a double, 9-9 down to 0-0. The round's double is set aside as the center; "
        "each player is dealt a hand (11 each with 4 players on double-9) and the rest is the yard. "
        "Whoever drew the double in the draw for it starts. The center takes one arm per player before "
        "anything else. A double played anywhere else is a chicken foot: it takes three toes before play "
        "goes on. With no play you draw one tile and must play it if you can, else pass. The last tile "
        "(two with two players) stays in the yard."
    ),
    "cross": (
        "Each round starts from a double, 9-9 down to 0-0. Everyone is dealt 7 tiles; whoever holds the "
        "round's double places it as the center (if nobody does, players draw in turn until someone does) "
        "and the next player starts. The center takes 4 arms before anything else. A double played "
        "anywhere else is a chicken foot: three toes before play goes on. With no play you draw one tile "
        "and may play it or pass. 0-0 left in hand is worth 50; ties go to most zero-score rounds."
    ),
}

_OPTION_WORDS = {
    "max_pip": "highest pip of the set (double-N); also the first round's double",
    "deal": "how rounds are dealt: trains (double set aside, starter drawn) or cross (7 each, holder places it)",
    "hand_size": "tiles dealt to each player (None: the preset's table for the player count)",
    "center_arms": "arms the center takes before play opens (None: one per player in trains, 4 in cross)",
    "drawn_tile": "a playable drawn tile must be played (must_play) or may be (may_play)",
    "draw_until_playable": "keep drawing within one turn until a playable tile turns up",
    "reserve": "tiles that stay in the yard and may never be drawn (None: 2 with two players else 1; cross 0)",
    "double_blank_value": "what 0-0 scores left in hand (None: its pips, 0)",
    "blank_value": "what each blank half scores left in hand (None: 0)",
    "center_fallback": "cross deal, nobody holds the double: draw for it, or start with the highest double held",
    "unfillable_foot_ends_round": "a chicken foot that can never get its three toes ends the round at once",
    "double_out_penalty": "points for going out with a double as your last tile",
    "tie_break": "tie on the lowest total: share the win, or most zero-score rounds (zero_rounds)",
}


@click.command(context_settings=CONTEXT)
@click.argument("preset", type=click.Choice(PRESETS), default="trains", required=False)
@click.option("--players", type=click.IntRange(2, 8), default=4, show_default=True, help="Player count for figures.")
def rules(preset: str, players: int) -> None:
    """Print the rules of a preset (trains or cross) and every option in plain words."""
    chosen = Rules.preset(preset)
    console = _console()
    console.rule(f"{preset} rules")
    console.print(_SUMMARY[preset])
    try:
        chosen.check_players(players)
        facts = (
            f"With {players} players: {chosen.hand_size_for(players)} tiles each, center takes "
            f"{chosen.arms_for(players)} arms, {plural(chosen.reserve_for(players), 'tile')} kept in the yard, "
            f"{chosen.rounds} rounds on a {chosen.set_size}-tile double-{chosen.max_pip} set. Lowest total wins."
        )
    except RulesError as error:
        facts = f"With {players} players this preset cannot be dealt: {error}"
    console.print(facts)
    table = Table(title="Options (override with --rule NAME=VALUE)", title_justify="left")
    table.add_column("option")
    table.add_column("value")
    table.add_column("meaning")
    for field in attrs.fields(Rules):
        table.add_row(field.name, repr(getattr(chosen, field.name)), _OPTION_WORDS.get(field.name, ""))
    console.print(table)
