"""The page of `referee serve` in a real headless Chromium (Debian's `chromium`, driven by
Playwright with `executable_path`; `.ci/run` installs it): a player fills a score sheet and reads
the totals, enters a shipping position and reads guaranteed / expected / best, pastes a broken log and
sees its line marked. Screenshots of each tool are saved (`REFEREE_SCREENSHOTS=docs` writes the
ones the README shows)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests import browser as shared
from tests.conftest import QUARRY_LOG, ROOT

pytestmark = shared.IN_THE_BROWSER  # with the server and browser of the browser tests (`address`, `browser`: tests/conftest.py)

BROKEN = QUARRY_LOG


@pytest.fixture
def page(browser, address: str) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 390, "height": 900})  # a phone's width
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(address)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    yield page
    assert errors == []  # no script error in the page
    context.close()


def screenshot(page: Page, tool: str, tmp_path: Path) -> None:
    folder = ROOT / os.environ["REFEREE_SCREENSHOTS"] if os.environ.get("REFEREE_SCREENSHOTS") else tmp_path
    page.locator(f"#{tool}").screenshot(path=str(folder / f"serve-{tool}.png"))


def test_a_four_player_score_sheet_shows_each_total(page: Page, tmp_path: Path):
    page.select_option("#sheet-ruleset", "base")
    page.select_option("#sheet-players", "4")
    players = [  # name, chips, doubloons, barrels, island, colonists, buildings (occupied ones marked *)
        ("Dana", 34, 2, 1, 11, 14, ["small indigo plant", "*customs house", "*residence"]),
        ("Emil", 15, 4, 0, 9, 12, ["small market", "construction hut", "hacienda", "factory", "university", "*city hall"]),
        ("Fritz", 22, 7, 1, 10, 13, ["small indigo plant", "tobacco storage", "*guild hall"]),
        ("Gesa", 26, 3, 2, 12, 11, ["indigo plant", "harbor", "fortress"]),
    ]
    for number, (name, chips, doubloons, goods, island, colonists, buildings) in enumerate(players, start=1):
        prefix = f"#sheet-p{number}"
        page.fill(f"{prefix}-name", name)
        for field, value in (("chips", chips), ("doubloons", doubloons), ("goods", goods), ("island", island), ("colonists", colonists)):
            page.fill(f"{prefix}-{field}", str(value))
        for building in buildings:
            ident = building.lstrip("*").replace(" ", "-")
            page.check(f"{prefix}-building-{ident}")
            if building.startswith("*"):
                page.check(f"{prefix}-occupied-{ident}")
    page.click("#sheet-score")
    expect(page.locator("#sheet-output")).to_have_attribute("data-state", "done")
    totals = {name: page.locator(f'#sheet-result tr[data-player="{name}"] .total').inner_text().strip() for name, *_ in players}
    # by hand: Dana 34 + 1 + 4 + 4 + customs house 34 // 4 = 8 + residence (11 spaces) 6 = 57;
    # Emil 15 + 1 + 1 + 1 + 3 + 3 + 4 + city hall (5 violet + itself) 6 = 34;
    # Fritz 22 + 1 + 3 + 4 + guild hall (small 1 + large 2) 3 = 33; Gesa 26 + 2 + 3 + 4 (fortress unoccupied) = 35
    assert totals == {"Dana": "57", "Emil": "34", "Fritz": "33", "Gesa": "35"}
    screenshot(page, "score-sheet", tmp_path)


def test_a_saved_score_sheet_loads_and_scores(page: Page, tmp_path: Path):
    """The page's own YAML reader: comments (also after a value, never inside quotes), quoted
    names with ': ' and '#', flow lists and mappings over the usual block layout."""
    sheet = tmp_path / "club.yaml"
    sheet.write_text(
        (ROOT / "fixtures" / "sheets" / "sheet-3p.yaml").read_text(encoding="utf-8")
        .replace("  Anna:\n", "  'Anna: #1':  # the host\n")
        .replace("    island: 9\n", "    island: {corn: 4, quarry: 3, 'indigo': 2}  # nine spaces\n"),
        encoding="utf-8",
    )
    page.set_input_files("#sheet-load", str(sheet))
    page.click("#sheet-score")
    expect(page.locator("#sheet-output")).to_have_attribute("data-state", "done")
    totals = {name: page.locator(f'#sheet-result tr[data-player="{name}"] .total').inner_text().strip() for name in ("Anna: #1", "Ben", "Cleo")}
    assert totals == {"Anna: #1": "54", "Ben": "45", "Cleo": "37"}  # as `referee score --sheet` gives


def test_a_sheets_problem_is_shown_beside_its_field(page: Page):
    page.select_option("#sheet-ruleset", "base")
    page.select_option("#sheet-players", "3")
    for number, name in enumerate(("Anna", "Ben", "Cleo"), start=1):
        page.fill(f"#sheet-p{number}-name", name)
        page.fill(f"#sheet-p{number}-chips", "10")
    page.fill("#sheet-p2-island", "13")  # an island has 12 spaces
    page.click("#sheet-score")
    expect(page.locator("#sheet-output")).to_have_attribute("data-state", "error")
    expect(page.locator("#sheet-p2-island-error")).to_contain_text("Ben's island has 12 spaces, not 13")


def test_the_sheet_speaks_the_rulesets_words(page: Page):
    """The words come from the ruleset (1897: crates, coins, the countryside), as the API sends them."""
    page.select_option("#sheet-ruleset", "base")
    expect(page.locator('label[for="sheet-p1-goods"]')).to_contain_text("Barrels")
    page.select_option("#sheet-ruleset", "1897")
    expect(page.locator('label[for="sheet-p1-goods"]')).to_contain_text("Crates")
    expect(page.locator('label[for="sheet-p1-doubloons"]')).to_contain_text("Coins")
    expect(page.locator('label[for="sheet-p1-island"]')).to_contain_text("Countryside")


def test_the_shipping_calculator_answers_the_formats_example(page: Page, tmp_path: Path):
    page.select_option("#ship-ruleset", "base")
    page.select_option("#ship-players", "3")
    page.fill("#ship-vp-left", "30")
    page.select_option("#ship-ship-1-good", "corn")
    page.fill("#ship-ship-1-count", "2")
    page.select_option("#ship-ship-2-good", "sugar")
    page.fill("#ship-ship-2-count", "3")
    for number, name, goods, buildings in (
        (1, "Anna", {"corn": 3, "sugar": 1, "coffee": 2}, ["harbor", "small-warehouse"]),
        (2, "Ben", {"tobacco": 4}, ["wharf"]),
        (3, "Cleo", {"corn": 1}, []),
    ):
        page.fill(f"#ship-p{number}-name", name)
        for good, count in goods.items():
            page.fill(f"#ship-p{number}-good-{good}", str(count))
        for building in buildings:
            page.check(f"#ship-p{number}-building-{building}")
    expect(page.locator('#ship-result tr[data-player="Anna"] .best')).to_have_text("10", timeout=20_000)
    row = page.locator('#ship-result tr[data-player="Anna"]')
    assert [row.locator(cell).inner_text().strip() for cell in (".guaranteed", ".expected", ".best")] == ["9", "9", "10"]
    ben = page.locator('#ship-result tr[data-player="Ben"]')
    assert [ben.locator(cell).inner_text().strip() for cell in (".guaranteed", ".expected", ".best")] == ["4", "4", "4"]
    screenshot(page, "shipping", tmp_path)


def test_a_broken_log_has_its_line_marked(page: Page, tmp_path: Path):
    page.fill("#log-text", BROKEN)
    page.click("#log-check")
    expect(page.locator("#log-result")).to_have_attribute("data-state", "done")
    expect(page.locator('.bad-line[data-line="8"]')).to_be_visible()
    expect(page.locator("#log-result")).to_contain_text("only the settler (Anna) or the owner of an occupied Construction Hut may take a quarry")
    screenshot(page, "check-log", tmp_path)


def test_the_page_fits_a_phones_width(page: Page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing scrolls sideways


# --- the forms' messages in the words of their fields (issue 28, item 2) ---

SCHEMA_WORDS = ("input should", "this key is required", "chips:", "doubloons", "vp_left", "`", ": empty")


def shown(page: Page, field: str) -> str:
    """The message under a field, as the player reads it."""
    slot = page.locator(f"#{field}-error")
    expect(slot).to_be_visible()
    return slot.inner_text()


def test_a_sheets_bad_counts_are_said_in_the_words_of_their_fields(page: Page):
    """1897's sheet, as its player reads it: Coins, not doubloons; a whole number, not an integer."""
    page.select_option("#sheet-ruleset", "1897")
    page.select_option("#sheet-players", "3")
    page.fill("#sheet-p1-chips", "ten")
    page.fill("#sheet-p1-doubloons", "-1")
    page.fill("#sheet-p3-name", "anna")
    page.fill("#sheet-p3-chips", "4")
    page.click("#sheet-score")
    expect(page.locator("#sheet-output")).to_have_attribute("data-state", "error")
    assert shown(page, "sheet-p1-chips") == "Shipping VP must be a whole number, 0 or more, not 'ten'"
    assert shown(page, "sheet-p1-doubloons") == "Coins must be 0 or more, not -1"
    assert shown(page, "sheet-p2-chips") == "Shipping VP is needed for every player: write 0 if Ben has none"
    assert shown(page, "sheet-p3-name") == "anna is also the name of Player 1: each player needs a name of their own"
    problems = page.locator("#sheet-problems").inner_text()
    assert "Anna: Coins must be 0 or more, not -1" in problems  # each with the player and the field it is about
    assert not [words for words in SCHEMA_WORDS if words in problems]
    assert page.locator("#sheet-result").is_hidden()


def test_a_positions_bad_counts_and_full_ship_are_said_in_the_words_of_their_fields(page: Page):
    page.select_option("#ship-ruleset", "base")
    page.select_option("#ship-players", "3")
    page.select_option("#ship-ship-0-good", "corn")
    page.fill("#ship-ship-0-count", "three")
    page.select_option("#ship-ship-1-good", "sugar")
    page.fill("#ship-ship-1-count", "5")  # the 5-ship full: it was emptied when the last captain phase ended
    page.fill("#ship-p1-good-coffee", "-2")
    expect(page.locator("#ship-output")).to_have_attribute("data-state", "error")
    assert shown(page, "ship-ship-0") == "The barrels on the 4-ship must be a whole number, 0 or more, not 'three'"
    assert shown(page, "ship-ship-1") == "A full ship is emptied at the end of a captain phase: set the 5-ship to empty"
    assert shown(page, "ship-p1-goods") == "Anna's coffee must be 0 or more, not -2"
    problems = page.locator("#ship-problems").inner_text()
    assert "corn three" not in problems
    assert not [words for words in SCHEMA_WORDS if words in problems]


def test_the_referees_answer_is_said_in_the_words_of_the_field(page: Page):
    """A count the page cannot judge (the supply depends on the player count) goes to the referee;
    its answer stands under the field without the document's key."""
    page.select_option("#ship-ruleset", "base")
    page.select_option("#ship-players", "3")
    page.fill("#ship-vp-left", "300")
    message = shown(page, "ship-vp-left")
    assert "75" in message and "300" in message  # the referee's arithmetic: 75 VP chips with 3 players
    assert "vp_left" not in message and "[position" not in page.locator("#ship-problems").inner_text()


# --- what was typed is kept; a result goes when its input changes; a line link selects its line (item 5) ---


def test_each_tool_keeps_what_was_typed_across_a_reload(page: Page):
    page.select_option("#sheet-ruleset", "1897")
    page.select_option("#sheet-players", "4")
    page.fill("#sheet-p4-name", "Dora")
    page.fill("#sheet-p4-chips", "17")
    page.check("#sheet-p4-building-residence")
    page.check("#sheet-p4-occupied-residence")
    page.select_option("#ship-players", "2")
    page.fill("#ship-vp-left", "12")
    page.select_option("#ship-ship-1-good", "coffee")
    page.fill("#ship-ship-1-count", "2")
    page.fill("#ship-p2-good-tobacco", "3")
    page.check("#ship-p2-building-wharf")
    page.fill("#log-text", BROKEN)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert page.input_value("#sheet-ruleset") == "1897" and page.input_value("#sheet-players") == "4"
    assert page.input_value("#sheet-p4-name") == "Dora" and page.input_value("#sheet-p4-chips") == "17"
    assert page.is_checked("#sheet-p4-occupied-residence")
    assert page.input_value("#ship-players") == "2" and page.input_value("#ship-vp-left") == "12"
    assert page.input_value("#ship-ship-1-good") == "coffee" and page.input_value("#ship-ship-1-count") == "2"
    assert page.input_value("#ship-p2-good-tobacco") == "3" and page.is_checked("#ship-p2-building-wharf")
    assert page.input_value("#log-text") == BROKEN


def test_an_edit_takes_the_old_result_off_the_screen(page: Page):
    page.select_option("#sheet-ruleset", "base")
    page.select_option("#sheet-players", "3")
    for number in (1, 2, 3):
        page.fill(f"#sheet-p{number}-chips", str(10 * number))
    page.click("#sheet-score")
    expect(page.locator('#sheet-result tr[data-player="Cleo"] .total')).to_have_text("30")
    page.fill("#sheet-p3-chips", "31")
    expect(page.locator("#sheet-result")).to_be_hidden()  # no total of 30 left beside a sheet that says 31
    expect(page.locator("#sheet-status")).to_have_text("")

    expect(page.locator('#ship-result tr[data-player="Anna"]')).to_be_visible(timeout=20_000)
    page.fill("#ship-p1-good-corn", "2")
    assert page.locator("#ship-result").is_hidden()  # at once, before the new answer is asked for
    expect(page.locator('#ship-result tr[data-player="Anna"]')).to_be_visible(timeout=20_000)

    page.fill("#log-text", BROKEN)
    page.click("#log-check")
    expect(page.locator("#log-verdict-text")).to_be_visible()
    page.locator("#log-text").press("End")
    page.locator("#log-text").type("\n")
    expect(page.locator("#log-verdict")).to_be_empty()
    expect(page.locator("#log-listing-box")).to_be_empty()


def test_a_line_link_selects_its_line_in_the_text_box(page: Page):
    log = "# a club night\n" * 40 + BROKEN  # the broken move at line 48, below the box's 14 rows
    page.fill("#log-text", log)
    page.click("#log-check")
    link = page.locator("#log-diagnostics a.where").first
    expect(link).to_contain_text("line 48")
    link.click()
    selected = page.evaluate("""() => {
        const area = document.querySelector('#log-text');
        return { focused: document.activeElement === area, text: area.value.slice(area.selectionStart, area.selectionEnd),
                 top: area.scrollTop, height: area.clientHeight, lineHeight: parseFloat(getComputedStyle(area).lineHeight) };
    }""")
    assert selected["focused"] and selected["text"] == "      - Ben: quarry"
    # scrolled to it: line 48 lies within the box's visible rows
    line_top = 47 * selected["lineHeight"]
    assert selected["top"] <= line_top <= selected["top"] + selected["height"] - selected["lineHeight"]


def test_a_checked_log_shows_its_review_with_each_decision_at_its_line(page: Page, tmp_path: Path):
    page.fill("#log-text", (ROOT / "fixtures" / "game-4p.yaml").read_text(encoding="utf-8"))
    page.click("#log-check")
    expect(page.locator('#log-review-section-players tr[data-player="Dev"] .lost')).to_have_text("1")
    expect(page.locator('#log-review-section-players tr[data-player="Carla"] .lost')).to_have_text("4")
    expect(page.locator('#log-review-section-players tr[data-player="Dev"] .total')).to_have_text("67")
    phase = page.locator('#log-review-section details.review-phase[data-round="6"]')
    expect(phase.locator("summary")).to_contain_text("Round 6: Dev takes the captain · VP lost: Dev 1")
    phase.locator("summary").click()
    phase.locator('li[data-line="133"] a.where').click()
    selected = page.evaluate("() => { const area = document.querySelector('#log-text'); return area.value.slice(area.selectionStart, area.selectionEnd); }")
    assert selected == "      - Dev: 3 corn on 5"
    screenshot(page, "log-review", tmp_path)
