"""A table of phones in the browser (docs/formats/tables.md): the host's screen makes a table of
the game it follows, three phones join by its link and take their seats, and each taps its own
decisions; every screen shows every move, a phone's reload keeps its seat, a screen without its
live stream catches up by asking and is told when another move came first, the host takes a move
back; at the end every screen shows the same log, which validates."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from referee.documents.log import read_log
from referee.jobs.check import check_log
from tests import browser as shared
from tests.conftest import ServerProcess
from tests.test_next import steps
from tests.test_page_play import DECIDE, RANDOM, load_log, open_page, rendered, screenshot, settled, tap

pytestmark = shared.IN_THE_BROWSER

START = """ruleset: base
players: [Anna, Ben, Cleo]
setup:
  plantations: [indigo, sugar, corn, coffee]
phases: []
"""


def moves_shown(page: Page) -> int:
    return int(page.locator("#play-game").get_attribute("data-table-moves") or -1)


def seated(browser, address: str, link: str, names: tuple[str, ...], errors: list[str]) -> dict[str, Page]:  # type: ignore[no-untyped-def]
    """A phone (390 px) for each player, each opening the join link and taking that seat; their
    script errors go to `errors`."""
    phones: dict[str, Page] = {}
    for name in names:
        phone, _ = open_page(browser, address, 390)
        phone.on("pageerror", lambda error: errors.append(str(error)))  # into the test's list, as they come
        phone.goto(link)
        phone.click(f'#play-join-seats button[data-seat="{name}"]')
        expect(phone.locator("#play-game")).to_be_visible()
        phones[name] = phone
    return phones


def all_at(screens: list[Page], moves: int) -> None:
    for screen in screens:
        expect(screen.locator("#play-game")).to_have_attribute("data-table-moves", str(moves), timeout=3_000)


def test_three_phones_and_the_table_screen_play_one_game(browser, address: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    host, errors = open_page(browser, address, 390)
    load_log(host, START)
    host.click("#play-share")
    expect(host.locator("#play-table")).to_be_visible()
    link = host.locator("#play-join-link").input_value()
    assert "#table=" in link and len(link.split("#table=")[1]) >= 22
    expect(host.locator("#play-join-qr")).to_have_attribute("src", f"/api/tables/{link.split('#table=')[1]}/qr.svg")
    host.wait_for_function("() => document.querySelector('#play-join-qr').naturalWidth > 0")  # the QR code drawn
    screenshot(host, "table-join", tmp_path, "#play-table")
    phones = seated(browser, address, link, ("Anna", "Ben", "Cleo"), errors)
    screens = [host, *phones.values()]
    all_at(screens, 0)
    expect(phones["Anna"].locator("#play-turn-text")).to_have_class("turn mine")
    expect(phones["Ben"].locator("#play-waiting")).to_contain_text("Anna decides now")
    assert phones["Ben"].locator("#play-choices button[data-move]").count() == 0  # another's decision is shown, not offered
    rng = random.Random(40)
    moves = 0
    for step in range(24):
        decider = host.locator("#play-turn-text").get_attribute("data-player")
        if host.locator("#play-turn-text").get_attribute("data-kind") == "draw" or decider not in phones:
            tap(host, rng)  # the table enters what only the table knows (a new face-up row)
        else:
            phone = phones[decider]
            expect(phone.locator("#play-turn-text")).to_have_class("turn mine")
            tap(phone, rng)
        moves += 1
        all_at(screens, moves)
        if step == 8:  # a phone reloaded in the middle keeps its seat
            phones["Cleo"].reload()
            expect(phones["Cleo"].locator("#play-game")).to_have_attribute("data-table-moves", str(moves))
            expect(phones["Cleo"].locator("#play-table h3")).to_have_text("This phone is Cleo's seat")
    screenshot(phones[host.locator("#play-turn-text").get_attribute("data-player") or "Anna"], "table-seat", tmp_path)
    screenshot(host, "table-host", tmp_path)

    # a screen whose live stream is gone: it catches up by asking, and a tap on the old state is told what happened
    stale = phones["Anna"]
    stale.route("**/events", lambda route: route.abort())
    stale.reload()
    expect(stale.locator("#play-game")).to_have_attribute("data-table-moves", str(moves))
    decider = host.locator("#play-turn-text").get_attribute("data-player") or ""
    if host.locator("#play-turn-text").get_attribute("data-kind") != "draw" and decider in phones and decider != "Anna":
        tap(phones[decider], rng)
        moves += 1
        expect(stale.locator("#play-game")).to_have_attribute("data-table-moves", str(moves), timeout=6_000)  # by asking, every 3 s

    # the host takes the last move back: every screen shows it
    before = rendered(host)
    host.click("#play-undo")
    settled(host, before)
    moves -= 1
    all_at([host, phones["Ben"], phones["Cleo"]], moves)
    expect(stale.locator("#play-game")).to_have_attribute("data-table-moves", str(moves), timeout=6_000)
    expect(phones["Ben"].locator("#play-status")).to_contain_text("The host took back")
    logs = {screen.locator("#play-log").text_content() for screen in screens}
    assert len(logs) == 1
    text = logs.pop() or ""
    report = check_log(text, "table.yaml")
    assert report.errors == [] and len(list(steps(read_log(text, "table.yaml")))) == moves  # every decision written once: roles, moves, rows, keeps
    assert errors == []
    for screen in screens:
        screen.context.close()


def test_a_table_link_with_a_wrong_id_says_so(browser, address: str):  # type: ignore[no-untyped-def]
    page, errors = open_page(browser, address, 390)
    page.goto(address + "#table=no-such-table-here")
    page.reload()
    expect(page.locator("#play-join")).to_contain_text("no table of that id on this server")
    assert errors == []
    page.context.close()


# The in-page player of one screen at a table: a seat's phone makes its player's decisions, the
# table's screen the draws (the new face-up rows), each a random legal choice, until the game is
# over. It keeps going through refusals (a server that does not answer, another move first),
# and waits while `paused`; what it met is in `window.tablePlayer`.
TABLE_PLAYER = (
    """async ({ seed, me }) => {"""
    + RANDOM
    + """
  const state = window.tablePlayer = { taps: 0, refused: [], paused: false, done: false, error: null };
  const game = document.querySelector('#play-game');
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    for (;;) {
      const turn = document.querySelector('#play-turn-text');
      const kind = turn && turn.dataset.kind;
      if (kind === 'over') break;
      if (kind === 'broken') throw new Error(`the log is broken: ${turn.textContent}`);
      const mine = turn && (me === null ? kind === 'draw' : kind !== 'draw' && turn.dataset.player === me);
      if (state.paused || !mine || document.querySelector('#play').dataset.state === 'busy') { await sleep(5); continue; }
      unworded();
      const before = game.dataset.render;"""
    + DECIDE
    + """
      state.taps += 1;
      const until = performance.now() + 20000;
      while (game.dataset.render === before && !document.querySelector('#play-refused-text')) {
        if (performance.now() > until) throw new Error('no answer in 20 s');
        await sleep(5);
      }
      const refused = document.querySelector('#play-refused-text');
      if (refused) { state.refused.push(refused.textContent); refused.remove(); await sleep(300); }
    }
  } catch (err) { state.error = String(err); }
  state.done = true;
}"""
)

FIVE = """ruleset: base
players: [Ana, Ben, Cleo, Dan, Eve]
setup:
  plantations: [indigo, sugar, corn, coffee, tobacco, corn]
phases: []
"""


def start_player(screen: Page, seed: int, me: str | None) -> None:
    """The screen's in-page player, started and left running."""
    screen.evaluate(f"(args) => {{ ({TABLE_PLAYER})(args); }}", {"seed": seed, "me": me})
    screen.wait_for_function("() => window.tablePlayer !== undefined")


def players_state(screen: Page) -> dict:
    return screen.evaluate("() => window.tablePlayer")


def stalled(screens: list[Page]) -> str:
    """What each screen shows and its player met, for a game that does not end."""
    return "; ".join(
        f"{screen.locator('#play-turn-text').get_attribute('data-kind')} of {screen.locator('#play-turn-text').get_attribute('data-player')} at {moves_shown(screen)}: {players_state(screen)}"
        for screen in screens
    )


def set_paused(screens: list[Page], paused: bool) -> None:
    for screen in screens:
        screen.evaluate("(paused) => { window.tablePlayer.paused = paused; }", paused)


@pytest.mark.slow
def test_five_phones_and_the_table_play_a_whole_game_through_a_killed_server(browser, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Five phones and the table's screen play a whole five-player game together, each phone
    tapping its own decisions: two taps at once (one kept, the other told), a reload, a phone
    offline and back, and the server SIGKILLed and started again in the middle. At the end every
    screen shows the same log and the same scores, and the log validates and scores as shown."""
    server = ServerProcess(tmp_path / "tables.sqlite3")
    server.start()
    try:
        host, errors = open_page(browser, server.address, 1280)
        load_log(host, FIVE)
        host.click("#play-share")
        link = host.locator("#play-join-link").input_value()
        phones = seated(browser, server.address, link, ("Ana", "Ben", "Cleo", "Dan", "Eve"), errors)
        screens = [host, *phones.values()]
        all_at(screens, 0)

        # two taps at once: the decider's phone and the table's screen, on the same move
        decider = host.locator("#play-turn-text").get_attribute("data-player") or ""
        at = host.evaluate("() => Date.now() + 300")
        for screen in (host, phones[decider]):
            screen.evaluate("(at) => setTimeout(() => document.querySelector('#play-choices button[data-move]').click(), at - Date.now())", at)
        deadline = time.monotonic() + 5
        told: list[Page] = []
        while not told and time.monotonic() < deadline:
            told = [screen for screen in (host, phones[decider]) if "Another move came first" in (screen.locator("#play-refused").text_content() or "")]
            time.sleep(0.05)
        assert len(told) == 1  # one tap kept, the other phone told what happened
        all_at(screens, 1)

        for seed, (name, phone) in enumerate(phones.items()):
            start_player(phone, seed, name)
        start_player(host, 99, None)
        events = {"offline": 40, "reload": 100, "kill": 160}
        deadline = time.monotonic() + 600
        while host.locator("#play-turn-text").get_attribute("data-kind") != "over":
            assert time.monotonic() < deadline, f"the game did not end in ten minutes: {stalled(screens)}"
            for screen in screens:
                state = players_state(screen)
                assert state is None or state["error"] is None, state["error"]
            moves = moves_shown(host)
            if "offline" in events and moves >= events["offline"]:
                del events["offline"]
                set_paused(screens, True)
                time.sleep(0.3)  # (a tap under way answered)
                moves = moves_shown(host)
                decider = host.locator("#play-turn-text").get_attribute("data-player") or ""
                if decider in phones:
                    phone = phones[decider]
                    phone.context.set_offline(True)
                    set_paused(screens, False)
                    phone.wait_for_function("() => window.tablePlayer.refused.length > 0", timeout=10_000)  # its tap refused
                    assert moves_shown(host) == moves  # nothing went in while it was away
                    phone.context.set_offline(False)
                else:
                    set_paused(screens, False)
            if "reload" in events and moves >= events["reload"]:
                del events["reload"]
                phones["Cleo"].reload()
                expect(phones["Cleo"].locator("#play-table h3")).to_have_text("This phone is Cleo's seat")
                start_player(phones["Cleo"], 7, "Cleo")
            if "kill" in events and moves >= events["kill"]:
                del events["kill"]
                server.kill()
                time.sleep(1.0)  # the phones find no server (their taps are refused, they keep trying)
                server.start()
            time.sleep(0.2)
            if os.environ.get("REFEREE_TABLE_PROGRESS"):
                print(moves, time.monotonic() - deadline + 600, flush=True)
        assert not events, f"the game ended before {sorted(events)}"
        for screen in screens:
            screen.wait_for_function("() => window.tablePlayer.done", timeout=10_000)
            assert players_state(screen)["error"] is None
        final = moves_shown(host)
        all_at(screens, final)
        logs = {screen.locator("#play-log").text_content() for screen in screens}
        scores = {
            " ".join((screen.locator("#play-end table").first.text_content() or "").split()) for screen in screens
        }  # (laid out to the width: the words compared)
        assert len(logs) == 1 and len(scores) == 1, scores
        text = logs.pop() or ""
        report = check_log(text, "table.yaml")
        assert report.errors == [] and report.complete and len(list(steps(read_log(text, "table.yaml")))) == final
        header = host.locator("#play-end table").first.locator("thead th").all_text_contents()
        rows = [row.locator("td, th").all_text_contents() for row in host.locator("#play-end table").first.locator("tbody tr").all()]
        totals = {cells[header.index("Player")].removesuffix("winner"): int(cells[header.index("Total")]) for cells in rows}
        assert totals == {score.player: score.total for score in report.scores or []}  # the scores shown are the log's
        refused = [reason for screen in screens for reason in players_state(screen)["refused"]]
        assert any("does not answer" in reason for reason in refused)  # the phones met the killed server, and went on
        assert errors == []
    finally:
        server.stop()
