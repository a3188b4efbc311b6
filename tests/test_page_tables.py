"""A table of phones in the browser (docs/formats/tables.md): the host's screen makes a table of
the game it follows, three phones join by its link and take their seats, and each taps its own
decisions; every screen shows every move, a phone's reload keeps its seat, a screen without its
live stream catches up by asking and is told when another move came first, the host takes a move
back; at the end every screen shows the same log, which validates."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Page, expect

from referee.documents.log import read_log
from referee.jobs.check import check_log
from tests import browser as shared
from tests.test_next import steps
from tests.test_page_play import load_log, open_page, rendered, screenshot, settled, tap

pytestmark = shared.IN_THE_BROWSER

START = """ruleset: base
players: [Anna, Ben, Cleo]
setup:
  plantations: [indigo, sugar, corn, coffee]
phases: []
"""


def moves_shown(page: Page) -> int:
    return int(page.locator("#play-game").get_attribute("data-table-moves") or -1)


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
    phones: dict[str, Page] = {}
    for name in ("Anna", "Ben", "Cleo"):
        phone, phone_errors = open_page(browser, address, 390)
        errors += phone_errors
        phone.goto(link)
        phone.click(f'#play-join-seats button[data-seat="{name}"]')
        expect(phone.locator("#play-game")).to_be_visible()
        phones[name] = phone
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
