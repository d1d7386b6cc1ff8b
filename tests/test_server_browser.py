"""The pages of ``chickenfoot serve``, played in two separate headless Chromium instances and a bot.

Runs the real server (``chickenfoot serve``, in a subprocess of its own, on 127.0.0.1 with a
SQLite file in a temporary folder) and two Chromium instances with separate profiles, as two
people on two machines would be. One creates the game on the create page (the *trains* rules on
a double-6 set, seats 0 and 1 people, seat 2 the greedy bot); each opens its seat's link; the
second also watches from the spectator's page. They play by clicks to the end of the game, and
on the way:

- an illegal click shows the server's reason and rule ID, word for word the engine's for the same
  position (replayed here from the game's record);
- a reload of a seat's page, and a ``kill -9`` of the server and a restart on the same file,
  each come back to the same view, on every page;
- the spectator's page has no hand, and no tile of a hand shows in the round in play;
- the final scores on the page are :func:`chickenfoot.score_round`'s of the record's rounds.

A seat's page that cannot join (its seat taken, no invitation, no such game) says why and stops.

Needs the ``server``, ``cli`` and ``browser`` extras and Debian's ``chromium`` and
``chromium-driver``; it skips without them (which CI turns into a failure). Set
``CHICKENFOOT_SERVER_SCREENSHOTS=DIR`` to keep a picture of each page.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf

pytest.importorskip("starlette", reason="the server extra is not installed: pip install 'chickenfoot[server]'")
pytest.importorskip("uvicorn", reason="the server extra is not installed: pip install 'chickenfoot[server]'")
pytest.importorskip("websockets", reason="the server extra is not installed: pip install 'chickenfoot[server]'")
pytest.importorskip("click", reason="the cli extra is not installed: pip install 'chickenfoot[cli]'")
pytest.importorskip(
    "selenium.webdriver", reason="the browser extra is not installed: pip install 'chickenfoot[browser]'"
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser import chromium, wait

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEATS = ("human", "human", "greedy")
# The moments of the game (counted in the people's moves) when the test looks around.
ILLEGAL_CLICK_AT, RELOAD_AT, WATCH_AT, RESTART_AT = 3, 8, 12, 16
STARTUP_SECONDS = 60  # generous: two busy cores may start Python slowly
MOVE_SECONDS = 30  # for a move's round trip, bots included
# A tile as the pages write it ("6-3"), standing alone: not inside a game's id or a number of the SVG.
TILE = re.compile(r"(?<![\w.-])[0-9]+-[0-9]+(?![\w.-])")


class Server:
    """Runs ``chickenfoot serve`` in a subprocess on one port and one SQLite file, and kills it."""

    def __init__(self, database: Path, log: Path) -> None:
        self.database = database
        self.log = log
        with socket.socket() as probe:  # a free port, kept across restarts
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # The package this test imports (the checkout's src, or an installed wheel's), pages and all.
        env = {**os.environ, "PYTHONPATH": str(Path(cf.__file__).resolve().parents[1])}
        with self.log.open("ab") as log:
            port, database = str(self.port), str(self.database)
            command = [
                sys.executable,
                "-m",
                "chickenfoot",
                "serve",
                "--port",
                port,
                "--store",
                database,
                "--bot-delay",
                "0",
                "-q",
            ]
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server stopped at start-up:\n{self.log.read_text(errors='replace')[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/options", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        pytest.fail(f"the server did not answer within {STARTUP_SECONDS} s")

    def kill(self) -> None:
        """Kills the server at once (SIGKILL): nothing is flushed or closed politely."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(30)
            self.process = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.loads(answer.read())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "games.sqlite3", tmp_path / "server.log")
    running.start()
    yield running
    running.kill()


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("chromium-first")) as driver:
        yield driver


@pytest.fixture(scope="module")
def second(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("chromium-second")) as driver:
        yield driver


def _body(driver: Any, name: str) -> str | None:
    value: str | None = driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")
    return value


def _seq(driver: Any) -> int:
    return int(_body(driver, "seq") or -1)


def _connected(driver: Any, seconds: float = MOVE_SECONDS) -> None:
    wait(driver, lambda d: _body(d, "connection") == "open" and _body(d, "seq"), seconds, "the page to connect")


# What a page shows, to compare before and after a reload or a restart.
_SNAPSHOT = """
const texts = (selector) => [...document.querySelectorAll(selector)].map((element) => element.textContent);
return {
  seq: document.body.dataset.seq,
  turn: texts("#turn"),
  board: document.getElementById("board").innerHTML,
  hand: [...document.querySelectorAll("#hand button.tile")].map((b) => b.dataset.tile + " " + b.className),
  ends: texts("#ends button"),
  scores: texts("#scores tr"),
  moves: texts("#history li"),
  others: texts("#others"),
  seats: texts("#seats li"),
};
"""


_ROUND_IN_PLAY = """
const page = document.body.cloneNode(true);
for (const round of page.querySelectorAll("#history details")) {
  if (round.dataset.round !== document.body.dataset.round) round.remove(); // its tiles are dealt again
}
page.querySelector("#scores").remove(); // its rows name each round's double ("1 (6-6)")
return page.outerHTML;
"""


def _snapshot(driver: Any) -> dict[str, Any]:
    snapshot: dict[str, Any] = driver.execute_script(_SNAPSHOT)
    return snapshot


def _create_game(driver: Any, server: Server) -> tuple[list[str], str]:
    """Creates the test's game on the create page; returns the people's seat links and the watch link."""
    driver.get(server.url + "/")
    wait(driver, lambda d: _body(d, "ready") == "1", STARTUP_SECONDS, "the create page to load its options")
    Select(driver.find_element(By.ID, "preset")).select_by_value("trains")
    Select(driver.find_element(By.ID, "set")).select_by_value("6")
    Select(driver.find_element(By.ID, "players")).select_by_visible_text(str(len(SEATS)))
    for seat, kind in enumerate(SEATS):
        Select(driver.find_element(By.ID, f"seat-{seat}")).select_by_value(kind)
    driver.find_element(By.ID, "submit").click()
    wait(driver, lambda d: d.find_element(By.ID, "created").is_displayed(), MOVE_SECONDS, "the game's links")
    links = [link.get_attribute("href") for link in driver.find_elements(By.CSS_SELECTOR, "#links a.seat-link")]
    bots = driver.find_elements(By.CSS_SELECTOR, "#links .bot")
    assert len(links) == SEATS.count("human")
    assert len(bots) == len(SEATS) - len(links)
    for seat, link in enumerate(links):
        assert f"/seat/{seat}#" in link  # the invitation rides after "#": never sent to the server in a request line
    return links, driver.find_element(By.ID, "watch").get_attribute("href")


def _play_a_move(driver: Any) -> None:
    """Plays the first tile ringed playable onto the end it fits, else draws, else passes; waits for the answer."""
    before = _seq(driver)
    playable = driver.find_elements(By.CSS_SELECTOR, "#hand button.tile.playable")
    if playable:
        playable[0].click()
        driver.find_element(By.CSS_SELECTOR, "#ends button.end.fits").click()
    elif driver.find_element(By.ID, "draw").is_displayed():
        driver.find_element(By.ID, "draw").click()
    else:
        driver.find_element(By.ID, "pass").click()
    wait(driver, lambda d: _seq(d) > before, MOVE_SECONDS, "the server to take the move")


def _click_illegal_play(driver: Any) -> tuple[int, str, str, str] | None:
    """Clicks a hand tile, then an open end it does not fit; returns the seq, the move, the reason and the rule."""
    ends = [
        (int(end.get_attribute("data-node")), int(end.get_attribute("data-value")))
        for end in driver.find_elements(By.CSS_SELECTOR, "#ends button.end")
    ]
    for tile_button in driver.find_elements(By.CSS_SELECTOR, "#hand button.tile"):
        tile = cf.Tile.parse(tile_button.get_attribute("data-tile"))
        for node, value in ends:
            if value not in (tile.high, tile.low):
                seq = _seq(driver)
                tile_button.click()
                driver.find_element(By.CSS_SELECTOR, f'#ends button.end[data-node="{node}"]').click()
                wait(driver, lambda d: d.find_element(By.ID, "refusal").is_displayed(), MOVE_SECONDS, "the refusal")
                reason = driver.find_element(By.CSS_SELECTOR, "#refusal .reason").text
                rule = driver.find_element(By.CSS_SELECTOR, "#refusal .rule").text
                assert _seq(driver) == seq  # nothing was played
                driver.find_element(By.CSS_SELECTOR, f'#hand button.tile[data-tile="{tile}"]').click()  # unpick
                return seq, f"{tile}@{node}", reason, rule
    return None


def _hand(driver: Any) -> list[str]:
    return [tile.get_attribute("data-tile") for tile in driver.find_elements(By.CSS_SELECTOR, "#hand button.tile")]


def _check_the_spectator(driver: Any, seq: int, hands: list[str]) -> None:
    """Checks the spectator's page: at ``seq`` like the seats, no hand, and none of ``hands``' tiles anywhere."""
    wait(driver, lambda d: _seq(d) == seq, MOVE_SECONDS, "the spectator to see the same move")
    for absent in ("hand", "ends", "draw", "pass"):
        assert not driver.find_elements(By.ID, absent), f"the spectator's page has #{absent}"
    # The round in play: its board (each tile titled), its moves (none, just after a deal), and the rest
    # of the page around them; the earlier rounds' moves hold tiles that are back in the hands now.
    page = driver.execute_script(_ROUND_IN_PLAY)
    shown = set(TILE.findall(page))
    assert shown, "no tile on the spectator's page at all"
    assert not shown & set(hands), "a hand's tile is on the spectator's page"
    others = driver.find_element(By.ID, "others").text
    for seat in range(len(SEATS)):
        assert f"P{seat} holds " in others  # every hand is counted, none is shown


def _screenshot(driver: Any, name: str) -> None:
    folder = os.environ.get("CHICKENFOOT_SERVER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


def test_two_browsers_and_a_bot_play_a_game_to_the_end(first: Any, second: Any, server: Server) -> None:
    links, watch = _create_game(first, server)
    _screenshot(first, "create")
    seats = [first, second]
    for driver, link in zip(seats, links, strict=True):
        driver.get(link)
    for driver in seats:
        _connected(driver)
        assert "#" not in driver.current_url  # the invitation is spent: out of the address bar
    # The first page knows the second person has taken their seat (from its sync, or a seats frame).
    wait(first, lambda d: "P1 · a person" in d.find_element(By.ID, "seats").text, MOVE_SECONDS, "seat 1 taken")
    # The second person also watches, in a window of its own.
    seat_window = second.current_window_handle
    second.switch_to.new_window("window")
    second.get(watch)
    _connected(second)
    watch_window = second.current_window_handle
    second.switch_to.window(seat_window)

    refused = None
    moves = 0  # the people's
    looked = set()
    while True:
        wait(first, lambda _: any(_body(d, "turn") in ("you", "over") for d in seats), MOVE_SECONDS, "a person's turn")
        if all(_body(d, "turn") == "over" for d in seats):
            break
        mover = next(d for d in seats if _body(d, "turn") == "you")
        if refused is None and moves >= ILLEGAL_CLICK_AT:
            refused = _click_illegal_play(mover)
            _screenshot(mover, "seat-refused")
        if moves >= RELOAD_AT and "reload" not in looked:
            looked.add("reload")
            before = _snapshot(mover)
            mover.refresh()
            _connected(mover)
            assert _snapshot(mover) == before
        if moves >= WATCH_AT and "watch" not in looked:
            looked.add("watch")
            hands = _hand(first) + _hand(second)
            second.switch_to.window(watch_window)
            _check_the_spectator(second, _seq(mover), hands)
            _screenshot(second, "watch")
            second.switch_to.window(seat_window)
        if moves >= RESTART_AT and "restart" not in looked:
            looked.add("restart")
            before = [_snapshot(d) for d in seats]
            server.kill()
            wait(first, lambda d: _body(d, "connection") == "lost", MOVE_SECONDS, "the page to see the server gone")
            server.start()
            for driver in seats:
                _connected(driver)
            assert [_snapshot(d) for d in seats] == before
            hands = _hand(first) + _hand(second)
            second.switch_to.window(watch_window)
            _connected(second)
            _check_the_spectator(second, _seq(mover), hands)
            second.switch_to.window(seat_window)
        _play_a_move(mover)
        moves += 1

    assert refused is not None, "no illegal click was tried: the people had no tile that misses an end"
    assert looked == {"reload", "watch", "restart"}, "the game ended before the test looked around"
    record = cf.from_json(json.dumps(server.get(_record_path(first))), cf.GameRecord)
    states = cf.replay(record)
    final = states[-1]
    assert final.is_over
    assert _seq(first) == _seq(second) == len(record.moves)
    assert record.rules == cf.Rules.trains(max_pip=6)

    # The refusal was the engine's, for the same position, word for word, with its rule ID.
    seq, move, reason, rule = refused
    with pytest.raises(cf.IllegalMoveError) as refusal:
        cf.apply(states[seq], cf.parse_move(move))
    assert (reason, rule) == (str(refusal.value), refusal.value.rule)

    # Every page ends on the game's end: its scores are the library's, round by round.
    second.switch_to.window(watch_window)
    wait(second, lambda d: _body(d, "turn") == "over", MOVE_SECONDS, "the spectator to see the end")
    for driver in (first, second):
        rows = driver.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
        page_rounds = [[int(cell.text) for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]
        assert page_rounds == [list(cf.score_round(result.final)) for result in final.results]
        totals = [int(cell.text) for cell in driver.find_elements(By.CSS_SELECTOR, "#scores tfoot td")]
        assert totals == list(final.totals)
        assert driver.find_element(By.ID, "turn").text.startswith("Game over. Won by ")
        assert driver.find_element(By.ID, "record-link").is_displayed()
    _screenshot(second, "watch-over")
    second.switch_to.window(seat_window)
    _screenshot(second, "seat-over")
    history = first.find_elements(By.CSS_SELECTOR, "#history li")
    assert [item.get_attribute("textContent").split()[-1] for item in history] == [str(move) for move in record.moves]


def _record_path(driver: Any) -> str:
    href: str = driver.find_element(By.ID, "record").get_attribute("href")
    return "/" + href.split("/", 3)[3]


def _create_by_api(server: Server, seats: list[str]) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + "/api/games",
        data=json.dumps({"rules": "trains", "seats": seats}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        created: dict[str, Any] = json.loads(answer.read())
    return created


def _failed(driver: Any) -> str:
    wait(driver, lambda d: _body(d, "connection") == "failed", MOVE_SECONDS, "the page to give up, saying why")
    text: str = driver.find_element(By.ID, "status").text
    return text


def test_a_seat_page_says_why_it_cannot_join(first: Any, second: Any, server: Server) -> None:
    created = _create_by_api(server, ["human", "random"])
    link = server.url + created["seats"][0]["link"]
    first.get(link)
    _connected(first)
    # The same link in another browser: the invitation is spent, and the server says so.
    second.get(link)
    assert "seat 0 is taken" in _failed(second)
    assert not second.find_element(By.ID, "table").is_displayed()
    # The page without its invitation, in a browser that holds no token for the seat.
    second.get(link.partition("#")[0])
    assert "needs its seat's link" in _failed(second)
    # A game this server does not have: the WebSocket is closed with the reason, and the page stops there.
    second.get(server.url + "/games/no-such-game/watch")
    assert "no game 'no-such-game' on this server" in _failed(second)
    _screenshot(second, "watch-no-game")
    # The first browser kept its seat all along, and a reload keeps it still.
    first.refresh()
    _connected(first)
    assert _body(first, "turn") in ("you", "bot")
