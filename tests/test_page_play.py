""" "Play at the table", the page's first tool, in a real headless Chromium (Debian's `chromium`,
driven by Playwright as tests/test_page.py does): whole games set up and played through the
page, a random legal choice at each decision, for each ruleset at 2 and 5 players, with undos and
a reload in the middle; the log the page downloads validates and scores as the page showed.

Taps are Playwright clicks, with their checks that the button is visible, enabled and hit: the
2-player games are tapped from start to end but for 60 decisions before the reload (about 130 to
230 taps a game); in the 5-player games one decision in 13 is tapped (about 70) and the others are
made by a script in the page clicking the same buttons (`element.click()`), which is several
times faster: every decision still goes through the page's buttons, its model of the log and
`POST /api/next`. The page's own work per decision (its render, measured with performance.now())
is read back and printed (`-s -n 0`).
`REFEREE_SCREENSHOTS=docs` writes the screenshots the README shows."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from referee.jobs.check import check_log
from referee.jobs.review import review_log
from referee.rulesets.load import load_ruleset
from tests import browser as shared
from tests.conftest import ROOT

pytestmark = shared.IN_THE_BROWSER  # with the server and browser of the browser tests (`address`, `browser`: tests/conftest.py)


NAMES = ["Anna", "Ben", "Cleo", "Dario", "Elif"]
TAPS = 30  # decisions tapped at the start of each game (and a few more after the reload)
CLICKS = 12  # then in turns: this many decisions clicked in the page, one tapped
TAPPED_THROUGH = 2  # games of this many players are tapped from the reload to their end

# What the in-page players share: a seeded random choice (`rand`, `pick`), the page's elements
# (`all`), and one random legal decision made by clicking the page's own buttons (DECIDE). Draws
# tap tiles the stacks hold; a mayor accepts the suggestion or moves one colonist and confirms
# when the rules allow it.
RANDOM = """
  let s = seed >>> 0;
  const rand = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const all = (sel) => Array.from(document.querySelectorAll(sel));
  const inView = () => {   // the question brought into view after a decision
    const turn = document.querySelector('#play-turn').getBoundingClientRect();
    if (turn.top < -1 || turn.bottom > window.innerHeight + 1) throw new Error(`the question is out of view: ${Math.round(turn.top)} px, the screen ${window.innerHeight} px`);
  };
  const unworded = () => {   // a value the page failed to word
    const shown = /\\b(null|undefined|NaN)\\b/.exec(document.querySelector('#play').innerText);
    if (shown) throw new Error(`the page shows '${shown[1]}': ${document.querySelector('#play').innerText.slice(Math.max(0, shown.index - 80), shown.index + 40)}`);
  };
"""
DECIDE = """
    if (document.querySelector('#play-draw')) {
      while (document.querySelector('#play-draw-confirm').disabled) pick(all('#play-draw button.up:not(:disabled)')).click();
      document.querySelector('#play-draw-confirm').click();
    } else if (document.querySelector('#play-mayor')) {
      if (rand() < 0.5) {
        const down = all('#play-mayor button.down:not(:disabled)');
        if (down.length) pick(down).click();
        const up = all('#play-mayor button.up:not(:disabled)');
        if (up.length) pick(up).click();
      }
      if (document.querySelector('#play-mayor-confirm').disabled) document.querySelector('#play-mayor-reset').click();
      document.querySelector('#play-mayor-confirm').click();
    } else {
      pick(all('#play-choices button[data-move]')).click();
    }
"""

# The in-page player of one screen: a random legal choice at each decision, until the game ends
# or `steps` decisions are made.
AUTOPLAY = (
    """async ({ steps, seed, headings }) => {"""
    + RANDOM
    + """
  const game = document.querySelector('#play-game');
  const settle = async (before) => {
    const until = performance.now() + 15000;
    while (game.dataset.render === before || document.querySelector('#play').dataset.state === 'busy') {
      const refused = document.querySelector('#play-refused-text');
      if (refused || performance.now() > until) throw new Error(refused ? refused.textContent : 'no answer in 15 s');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  let made = 0;
  for (; made < steps; made++) {
    unworded();
    const turn = document.querySelector('#play-turn-text');
    const kind = turn.dataset.kind;
    if (kind === 'over' || kind === 'broken') break;
    const heading = headings[kind === 'move' ? turn.dataset.phase : kind];   // the heading says its phase's decision
    const what = turn.querySelector('.what').textContent;
    if (heading && !what.startsWith(heading) && what !== 'can only pass') throw new Error(`the ${turn.dataset.phase || kind} heading says '${what}'`);
    const before = game.dataset.render;"""
    + DECIDE
    + """
    await settle(before);
    inView();
  }
  return made;
}"""
)


def open_page(browser, address: str, width: int) -> tuple[Page, list[str]]:  # type: ignore[no-untyped-def]
    """A fresh page (its own storage: no game in it) and the list its script errors go to."""
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 1000}, accept_downloads=True)  # a phone: 390 x 844
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(address)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return page, errors


@pytest.fixture
def page(browser, address: str) -> Iterator[Page]:  # type: ignore[no-untyped-def]
    page, errors = open_page(browser, address, 390)  # a phone's width
    yield page
    assert errors == []  # no script error in the page
    page.context.close()


def screenshot(page: Page, name: str, tmp_path: Path, selector: str | None = None) -> None:
    """The element `selector`, or the screen as a player sees it with the tool at its top."""
    folder = ROOT / os.environ["REFEREE_SCREENSHOTS"] if os.environ.get("REFEREE_SCREENSHOTS") else tmp_path
    if selector:
        page.locator(selector).screenshot(path=str(folder / f"serve-{name}.png"))
        return
    page.locator("#play-title").evaluate("title => title.scrollIntoView({ behavior: 'instant' })")
    page.screenshot(path=str(folder / f"serve-{name}.png"))


def rendered(page: Page) -> str:
    return page.locator("#play-game").get_attribute("data-render") or ""


# The answer to a decision drawn: a new render of the game, and the tool no longer busy. Read at
# each animation frame in the page: Playwright's expect() looks again only after 100 ms, then 250,
# 500 and 1,000, and the answer, a few milliseconds away, cost a tenth of a second a decision.
SETTLED = """(before) => document.querySelector('#play-game').dataset.render !== before
  && document.querySelector('#play').dataset.state === 'done'"""


def settled(page: Page, before: str) -> None:
    """Waits for the page to draw the answer to the decision just made (a new render, the tool
    done), as long as the in-page player waits for one (15 s)."""
    page.wait_for_function(SETTLED, arg=before, polling="raf", timeout=15_000)


def selection(ruleset: str, rnd: random.Random) -> list[str]:
    """A random building selection the board allows (Expansion I), as ids: the spaces of each
    cost filled, never two buildings that exclude each other."""
    model = load_ruleset(ruleset).model
    assert model.selection is not None
    while True:
        chosen: list[str] = []
        for slot in model.selection.slots:
            kinds = [b.id for b in model.buildings if b.kind.endswith("violet") and b.cost == slot.cost]
            chosen += rnd.sample(kinds, slot.spaces)
        if not any(all(b in chosen for b in group) for group in model.selection.exclusive):
            return chosen


def set_up(page: Page, ruleset: str, players: int, rnd: random.Random) -> list[str]:
    """Sets a game up by tapping: ruleset, players, names, a random first governor, the face-up
    row, Expansion I's buildings. Returns the players in the log's order (the governor first)."""
    page.select_option("#play-ruleset", ruleset)
    page.select_option("#play-players", str(players))
    names = NAMES[:players]
    for seat, name in enumerate(names, start=1):
        page.fill(f"#play-name-{seat}", name)
    governor = rnd.randrange(players)
    page.select_option("#play-governor", str(governor))
    goods = [good.id for good in load_ruleset(ruleset).model.goods]
    for _ in range(players + 1):
        page.click(f"#play-row-{rnd.choice(goods)} button.up")
    if load_ruleset(ruleset).model.selection is not None:
        for building in selection(ruleset, rnd):
            page.click(f'#play-selection button[data-building="{building}"]')
    page.click("#play-start")
    expect(page.locator("#play-turn-text")).to_have_attribute("data-kind", "role")
    return names[governor:] + names[:governor]


WORDLESS = re.compile(r"\b(null|undefined|NaN)\b")  # a value the page failed to put in words


def tap(page: Page, rnd: random.Random) -> None:
    """One decision by tapping, a random legal one (as AUTOPLAY chooses); the page shows no
    `null`, `undefined` or `NaN` before it."""
    shown = WORDLESS.search(page.locator("#play").inner_text())
    assert shown is None, page.locator("#play").inner_text()[max(0, shown.start() - 80) : shown.end() + 40]
    before = rendered(page)
    if page.locator("#play-draw").count():
        while page.locator("#play-draw-confirm").is_disabled():
            ups = page.locator("#play-draw button.up:enabled")
            ups.nth(rnd.randrange(ups.count())).click()
        page.click("#play-draw-confirm")
    elif page.locator("#play-mayor").count():
        privilege = page.locator("#play-mayor-privilege")
        if privilege.count() and rnd.random() < 0.3:  # the mayor declines the privilege's colonist (one or both, with a library)
            if privilege.evaluate("element => element.tagName") == "SELECT":
                privilege.select_option(rnd.choice(privilege.locator("option").all_inner_texts()).split(" ")[0])
            else:
                privilege.uncheck()
        if rnd.random() < 0.5:
            for direction in ("down", "up"):
                buttons = page.locator(f"#play-mayor button.{direction}:enabled")
                if buttons.count():
                    buttons.nth(rnd.randrange(buttons.count())).click()
        if page.locator("#play-mayor-confirm").is_disabled():
            page.click("#play-mayor-reset")
        page.click("#play-mayor-confirm")
    else:
        moves = page.locator("#play-choices button[data-move]")
        moves.nth(rnd.randrange(moves.count())).click()
    settled(page, before)


def kind(page: Page) -> str:
    return page.locator("#play-turn-text").get_attribute("data-kind") or ""


def autoplay(page: Page, steps: int, seed: int) -> int:
    """Up to `steps` decisions made by the in-page player; how many were made."""
    made = page.evaluate(AUTOPLAY, {"steps": steps, "seed": seed, "headings": HEADINGS})
    assert isinstance(made, int)
    return made


def shown_totals(page: Page) -> dict[str, int]:
    rows = page.locator("#play-scores tbody tr")
    return {rows.nth(i).get_attribute("data-player") or "": int(rows.nth(i).locator(".total").inner_text()) for i in range(rows.count())}


def downloaded_log(page: Page) -> str:
    with page.expect_download() as info:
        page.click("#play-download")
    return Path(info.value.path()).read_text(encoding="utf-8")


# 3 and 5 players of each ruleset, one at a phone's width (390 x 844), the other at a desktop's;
# and the two-player variant
GAMES = [("base", 3, 390), ("base", 5, 1280), ("expansion-1", 3, 1280), ("expansion-1", 5, 390), ("1897", 3, 390), ("1897", 5, 1280), ("base", 2, 390)]
QUICK = ("base", 3, 390)  # the one whole game of the quick suite; the others are slow (half a minute each)


@pytest.mark.parametrize(
    ("ruleset", "players", "width"),
    [pytest.param(r, n, w, id=f"{r}-{n}p-{w}", marks=() if (r, n, w) == QUICK else pytest.mark.slow) for r, n, w in GAMES],
)
def test_a_whole_game_played_through_the_page(browser, address: str, ruleset: str, players: int, width: int, tmp_path: Path):  # type: ignore[no-untyped-def]
    page, errors = open_page(browser, address, width)
    rnd = random.Random(f"{ruleset}-{players}")
    order = set_up(page, ruleset, players, rnd)
    assert page.locator("#play-turn-text .who").inner_text() == order[0]  # the first governor chooses first
    for _ in range(TAPS):
        tap(page, rnd)
    # three steps undone give back the log as it was; redo and undo again
    log_before = page.locator("#play-log").text_content() or ""
    for _ in range(3):
        tap(page, rnd)
    for _ in range(3):
        before = rendered(page)
        page.click("#play-undo")
        settled(page, before)
    assert page.locator("#play-log").text_content() == log_before
    before = rendered(page)
    page.click("#play-redo")
    settled(page, before)
    before = rendered(page)
    page.click("#play-undo")
    settled(page, before)
    assert page.locator("#play-log").text_content() == log_before
    # the middle of the game survives a reload: the same log, the same decision waited for
    clicked = autoplay(page, 60, rnd.randrange(2**32))
    log_before, turn_before = page.locator("#play-log").text_content(), page.locator("#play-turn-text").inner_text()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert page.locator("#play-log").text_content() == log_before
    assert page.locator("#play-turn-text").inner_text() == turn_before
    tapped = TAPS + 3 + 2
    for _ in range(5):
        tap(page, rnd)
        tapped += 1
    times = []
    while kind(page) not in ("over", "broken"):
        if players != TAPPED_THROUGH:
            clicked += autoplay(page, CLICKS, rnd.randrange(2**32))
        times.append(float(page.locator("#play-game").get_attribute("data-render-max-ms") or 0))
        if kind(page) not in ("over", "broken"):
            tap(page, rnd)
            tapped += 1
    assert kind(page) == "over"
    assert WORDLESS.search(page.locator("#play").inner_text()) is None  # the end screen too
    shown = shown_totals(page)
    assert sorted(shown) == sorted(order)
    expect(page.locator("#play-end svg.chart")).to_have_count(2)
    report = check_log(downloaded_log(page), "game.yaml")
    assert report.valid and report.complete
    assert {score.player: score.total for score in report.scores or []} == shown
    print(f"{ruleset} {players}p: {tapped} decisions tapped, {clicked} clicked in the page; its render at most {max(times):.1f} ms a decision")
    assert errors == []
    page.context.close()


def load_log(page: Page, text: str) -> None:
    """Pastes a log into "Continue a game from a log" and waits for the game to be drawn."""
    page.click("#play-load-box summary")
    page.fill("#play-load-text", text)
    page.click("#play-load")
    expect(page.locator("#play-game")).to_be_visible()
    expect(page.locator("#play")).to_have_attribute("data-state", "done")


CAPTAIN = "\n".join((ROOT / "fixtures" / "game-4p.yaml").read_text(encoding="utf-8").splitlines()[:185]) + "\n"  # round 8's captain phase, at its start


def test_a_typed_move_is_played_or_refused_with_the_referees_message(page: Page):
    load_log(page, CAPTAIN)
    expect(page.locator("#play-turn-text .who")).to_have_text("Carla")
    page.fill("#play-typed", "2 corn on 5")  # Carla has one corn
    page.click("#play-typed-send")
    expect(page.locator("#play-refused-text")).to_contain_text("Refused: ")
    before = rendered(page)
    page.fill("#play-typed", "1 corn on 5")
    page.click("#play-typed-send")
    settled(page, before)
    expect(page.locator("#play-refused-text")).to_have_count(0)
    expect(page.locator("#play-turn-text .who")).to_have_text("Dev")
    assert 'Carla: "1 corn on 5"' in (page.locator("#play-log").text_content() or "")


def test_a_captain_phase_under_way_says_what_its_last_load_cost(page: Page):
    text = "\n".join((ROOT / "fixtures" / "game-4p.yaml").read_text(encoding="utf-8").splitlines()[:133]) + "\n"  # round 6: Dev's 3 corn on 5
    load_log(page, text)
    expect(page.locator("#play-review-now")).to_have_text(
        "Dev's 3 corn on 5: 4 VP expected in this phase; 1 sugar on 5 could be expected to give 5 (1 VP lost)."
    )
    before = rendered(page)
    page.click('#play-choices button[data-move="2 corn on 5"]')
    settled(page, before)
    expect(page.locator("#play-review-now")).to_have_text("Alma's 2 corn on 5: 2 VP expected in this phase, as good as any move open.")


def test_a_captain_phase_has_the_calculator_one_tap_away(page: Page, tmp_path: Path):
    load_log(page, CAPTAIN)
    expect(page.locator('#play-choices button[data-move="1 corn on 5"]')).to_be_visible()
    page.click("#play-calculate")
    expect(page.locator('#play-ship-result tr[data-player="Carla"] .best')).not_to_be_empty(timeout=20_000)
    expect(page.locator("#play-ship-result caption")).to_contain_text("the phase's VP, not the game's totals")  # never read as the totals
    screenshot(page, "play-captain", tmp_path, "#play-decide")


def test_a_loaded_game_to_its_end_shows_the_scores_and_the_chart(browser, address: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    page, errors = open_page(browser, address, 390)
    text = (ROOT / "fixtures" / "game-4p.yaml").read_text(encoding="utf-8")
    load_log(page, text)
    # the game's end came in round 15: the log leaves out the last phase's passes, which the
    # players still make (issue 39); the page ends the game only after them
    passes = 0
    while page.locator("#play-turn-text").get_attribute("data-kind") != "over":
        expect(page.locator("#play-turn-text")).to_have_attribute("data-kind", "move")
        before = rendered(page)
        page.click('#play-choices button[data-move="pass"]')
        settled(page, before)
        passes += 1
        assert passes <= 4
    assert passes > 0
    report = check_log(downloaded_log(page), "game.yaml")
    assert report.complete and check_log(text, "game-4p.yaml").complete
    assert shown_totals(page) == {score.player: score.total for score in report.scores or []}
    expect(page.locator("#play-end svg.chart polyline")).to_have_count(8)  # VP and doubloons of 4 players
    # the review (docs/review.md): each player's VP lost in the captain phases beside their score, as `referee review` counts them
    review = review_log(downloaded_log(page), "game.yaml")
    expect(page.locator("#play-review-section details.review-phase")).to_have_count(len(review.phases))
    for name, summary in review.summary().items():
        row = page.locator(f'#play-review-section-players tr[data-player="{name}"]')
        expect(row.locator(".lost")).to_have_text(str(summary.lost))
        expect(row.locator(".total")).to_have_text(str(shown_totals(page)[name]))
    phase = page.locator('#play-review-section details.review-phase[data-round="6"]')
    phase.locator("summary").click()
    expect(phase.locator("li.lost").first).to_contain_text("Dev, 3 corn on 5: 4 VP expected in the phase; 1 sugar on 5 could be expected to give 5: 1 VP lost")
    assert WORDLESS.search(page.locator("#play").inner_text()) is None  # (no tie: nothing said of one)
    screenshot(page, "play-end", tmp_path, "#play-end")
    assert errors == []
    page.context.close()


def test_the_page_at_a_phones_and_a_desktops_width(browser, address: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Mid-game at 390 px and 1280 px: whose turn it is and what they may do, then the boards;
    nothing scrolls sideways on the phone."""
    middle = "\n".join((ROOT / "fixtures" / "game-4p.yaml").read_text(encoding="utf-8").splitlines()[:150]) + "\n"
    for width, name in ((390, "play-phone"), (1280, "play-desktop")):
        page, errors = open_page(browser, address, width)
        load_log(page, middle)
        expect(page.locator("#play-turn-text")).to_have_attribute("data-kind", "move")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, name, tmp_path)
        assert errors == []
        page.context.close()


def test_the_setup_guides_expansion_is_selection_and_names_what_is_missing(page: Page):
    page.select_option("#play-ruleset", "expansion-1")
    page.click('#play-selection button[data-building="hacienda"]')
    forest = page.locator('#play-selection button[data-building="forest-house"]')
    expect(forest).to_be_disabled()  # never in the same game as the hacienda
    expect(forest).to_contain_text("not with the Hacienda")
    page.click('#play-selection button[data-building="small-market"]')
    expect(page.locator('#play-selection button[data-building="aqueduct"]')).to_be_disabled()  # one space at cost 1
    expect(page.locator("#play-slot-1 legend")).to_have_text("Cost 1: 1 of 1")
    expect(page.locator("#play-start")).to_be_disabled()
    expect(page.locator("#play-start")).to_have_text("Start the game (still to tap: 4 face-up plantations and 15 violet buildings)")


def test_a_setup_the_referee_refuses_shows_its_message(page: Page):
    page.fill("#play-name-2", "Anna")
    for _ in range(4):
        page.click("#play-row-corn button.up")
    page.click("#play-start")
    expect(page.locator("#play-setup-problems")).to_contain_text("player 'Anna' is listed twice: names must be unique in a game")


def test_a_closed_tab_loses_nothing(page: Page):
    load_log(page, CAPTAIN)
    before = page.locator("#play-turn-text").inner_text()
    context = page.context
    page.close()  # the tab closed, the browser kept
    again = context.new_page()
    again.goto(page.url)
    expect(again.locator("body")).to_have_attribute("data-ready", "true")
    expect(again.locator("#play-turn-text")).to_be_visible()
    assert again.locator("#play-turn-text").inner_text() == before


def test_a_mayor_with_a_hundred_thousand_arrangements_is_offered_the_editor_and_checked(page: Page):
    """Late in corpus game 4p-2 a mayor has 165,279 legal arrangements: the page asks for the first
    2,000 only (the answer stays small and quick), and its editor checks the one rule the steppers
    do not keep, every circle filled that can be; the referee has the last word."""
    from referee.documents.log import read_log
    from tests.test_next import prefix_text, steps

    corpus = ROOT / "tests" / "corpus" / "game-4p-2.yaml"
    record = read_log(corpus.read_text(encoding="utf-8"), corpus.name)
    load_log(page, prefix_text(record, list(steps(record))[:357], "base"))
    expect(page.locator("#play-mayor")).to_be_visible()
    who = page.locator("#play-turn-text .who").text_content()
    note = page.locator("#play-mayor-note")
    expect(page.locator("#play-mayor-confirm")).to_be_enabled()  # the suggestion, as the referee wrote it
    down = page.locator("#play-mayor button.down:enabled").first
    down.click()  # a colonist back to San Juan while a circle is empty: not allowed
    expect(note).to_contain_text("Not allowed")
    expect(page.locator("#play-mayor-confirm")).to_be_disabled()
    page.locator("#play-mayor button.up:enabled").first.click()  # placed again (maybe elsewhere): every circle filled
    expect(page.locator("#play-mayor-confirm")).to_be_enabled()
    before = rendered(page)
    page.click("#play-mayor-confirm")
    settled(page, before)
    expect(page.locator("#play-refused-text")).to_have_count(0)
    assert page.locator("#play-turn-text .who").text_content() != who  # the arrangement was played: the next player's turn


def test_a_builder_who_may_build_the_wharf_is_asked_to_build(page: Page):
    """The last phase of a game whose end has come (fixtures/next-cases/A1): Cleo may build, the
    Wharf among the buildings, and the heading says so (not "loads barrels")."""
    load_log(page, (ROOT / "fixtures" / "next-cases" / "A1-last-phase-base.yaml").read_text(encoding="utf-8"))
    expect(page.locator("#play-turn-text .who")).to_have_text("Cleo")
    expect(page.locator("#play-turn-text .what")).to_have_text("may build one building (9 doubloons)")
    expect(page.locator('#play-choices button[data-move="wharf for 7"]')).to_be_visible()


def test_a_sale_is_offered_with_its_income(page: Page):
    load_log(
        page,
        "ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup:\n  plantations: [indigo, sugar, corn, coffee]\nphases:\n  - mayor: Anna\n  - craftsman: Ben\n  - trader: Cleo\n",
    )
    expect(page.locator("#play-turn-text .what")).to_have_text("may sell one barrel")
    sale = page.locator('#play-choices button[data-move="corn for 1"]')
    expect(sale).to_be_visible()
    expect(sale.locator(".price")).to_have_text("+1 doubloon")


# What each phase's decision is, in the heading's words: by the kind of decision, or for a move
# by the role whose phase it is (its id: 1897's planter is a settler).
HEADINGS = {
    "role": "chooses a role",
    "keep": "chooses the ",
    "draw": "draws ",
    "settler": "may take a ",
    "mayor": "places ",
    "builder": "may build one building",
    "craftsman": "may take one extra ",
    "trader": "may sell one ",
    "captain": "loads ",
}
HEADED_GAMES = ["game-3p.yaml", "expansion-1/game-3p.yaml", "1897/game-3p.yaml"]


def decision_points(name: str) -> dict[str, str]:
    """For each kind of decision the game at fixtures/`name` meets (a role, a keep, a draw, a
    move of each phase), the log just before its first one (a move that is not a pass)."""
    from referee.documents.log import read_log
    from tests.test_next import prefix_text, steps

    path = ROOT / "fixtures" / name
    record = read_log(path.read_text(encoding="utf-8"), path.name, None, path.parent)
    every = list(steps(record))
    found: dict[str, str] = {}
    for index, step in enumerate(every):
        key = step.kind if step.kind != "move" else record.phases[step.phase].role
        if key in HEADINGS and key not in found and step.text != "pass":
            found[key] = prefix_text(record, every[:index], record.rules.id)
    return found


@pytest.mark.parametrize("name", HEADED_GAMES)
def test_every_heading_says_what_its_phase_decides_and_stands_in_view(page: Page, name: str):
    """Each kind of decision of a game of each ruleset, loaded at a phone's width: the heading's
    verb is its phase's, the question is in view with its first choice reachable without a scroll."""
    points = decision_points(name)
    assert set(points) == set(HEADINGS), sorted(points)  # every kind of decision met
    for key, text in points.items():
        load_log(page, text)
        what = page.locator("#play-turn-text .what").inner_text()
        assert what.startswith(HEADINGS[key]), (name, key, what)
        viewport = page.viewport_size
        assert viewport is not None
        turn = page.locator("#play-turn").bounding_box()
        assert turn is not None and turn["y"] >= -1 and turn["y"] + turn["height"] <= viewport["height"], (key, turn)
        first = page.locator("#play-choices button, #play-choices input").first.bounding_box()
        assert first is not None and first["y"] + first["height"] <= viewport["height"], (key, first)  # reachable without a scroll


def only_move_point(name: str) -> tuple[str, str]:
    """The log of fixtures/`name` just before its first decision with one legal move that is not
    a pass (a load the rules leave no choice of), and that move."""
    from referee.documents.log import read_log
    from referee.jobs.decisions import next_decision
    from tests.test_next import prefix_text, steps

    path = ROOT / "fixtures" / name
    record = read_log(path.read_text(encoding="utf-8"), path.name, None, path.parent)
    every = list(steps(record))
    for index, step in enumerate(every):
        if step.kind == "move" and step.text != "pass":
            text = prefix_text(record, every[:index], record.rules.id)
            decision = next_decision(text, "prefix.yaml").decision
            if decision is not None and decision.moves == [step.text]:
                return text, step.text
    raise AssertionError(f"{name} has no decision of one legal move")


def test_a_decision_of_one_legal_move_is_one_large_confirm_and_goes_in_the_log(page: Page):
    text, move = only_move_point("game-3p.yaml")
    load_log(page, text)
    only = page.locator("#play-only")
    expect(only).to_contain_text("the only legal move")
    assert only.locator("button[data-move]").count() == 1 and page.locator("#play-choices button[data-move]").count() == 1  # nothing else offered
    button = only.locator("button.main")
    box, screen = button.bounding_box(), page.viewport_size
    assert box is not None and screen is not None and box["width"] > screen["width"] * 0.7 and box["height"] >= 60  # large
    before = rendered(page)
    button.click()
    settled(page, before)
    assert (page.locator("#play-log").text_content() or "").count(move) > text.count(move)  # written in the log, never taken unseen


def test_the_end_screen_says_why_the_game_ended_and_that_the_tie_break_decided(page: Page):
    """fixtures/next-cases/A1: the colonists run out in round 16; its last builders pass, and
    Ben and Cleo end on 14 VP each: the tie-break (doubloons and barrels) gives Cleo the win."""
    text = (ROOT / "fixtures" / "next-cases" / "A1-last-phase-base.yaml").read_text(encoding="utf-8")
    load_log(page, text)
    while page.locator("#play-turn-text").get_attribute("data-kind") != "over":
        before = rendered(page)
        page.click('#play-choices button[data-move="pass"]')
        settled(page, before)
    report = check_log(downloaded_log(page), "game.yaml")
    assert report.complete and report.end is not None and [s.player for s in report.scores or [] if s.rank == 1] == ["Cleo"]
    expect(page.locator("#play-end-why")).to_have_text(f"The game ended after {report.end}.")
    assert WORDLESS.search(page.locator("#play").inner_text()) is None
    assert "colonist ship could not be refilled" in report.end
    tie = page.locator("#play-end-tie")
    expect(tie).to_contain_text("A tie at 14 VP, decided by the tie-break")
    expect(tie).to_contain_text("Cleo 15")
    expect(tie).to_contain_text("Ben 9")
    expect(page.locator("#play-end svg.chart")).to_have_count(2)
    expect(page.locator("#play-end svg.chart").first).to_have_attribute("aria-label", re.compile(r"^VP \(VP chips, buildings and bonus\)"))


def guest_point() -> tuple[str, str, str]:
    """fixtures/expansion-1/game-3p.yaml before Mateo's `guest quarry, factory for 6`: the log,
    the player, and the move as the fixture writes it."""
    from referee.documents.log import read_log
    from tests.test_next import prefix_text, steps

    path = ROOT / "fixtures" / "expansion-1" / "game-3p.yaml"
    record = read_log(path.read_text(encoding="utf-8"), path.name, None, path.parent)
    every = list(steps(record))
    index = next(i for i, step in enumerate(every) if step.guests == ("quarry",) and step.text == "factory for 6")
    return prefix_text(record, every[:index], record.rules.id), record.players[every[index].player or 0], "guest quarry, factory for 6"


def test_the_guest_houses_colonists_are_moved_by_taps_before_the_move(page: Page):
    """Mateo's guest goes to his quarry, then he builds the factory: one tap each; the quarry
    makes the factory a doubloon cheaper, as the referee counts it (the fixture paid 6)."""
    text, player, written = guest_point()
    load_log(page, text)
    expect(page.locator("#play-turn-text .who")).to_have_text(player)
    guests = page.locator("#play-guests")
    expect(guests.locator("legend")).to_have_text("Guest House: 1 colonist may move first")
    assert guests.locator("button[data-guest]").all_inner_texts() == ["Black market", "Quarry"]  # the referee's places, and only those
    page.click('#play-guests button[data-guest="quarry"]')
    expect(page.locator('#play-guests button[data-guest="quarry"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#play-guests button[data-guest="black market"]')).to_be_disabled()  # one guest, one place
    factory = page.locator('#play-choices button[data-move="guest quarry, factory for 6"]')
    expect(factory).to_be_visible()  # out of reach at 7 doubloons: offered once the guest works the quarry
    before = rendered(page)
    factory.click()
    settled(page, before)
    log = page.locator("#play-log").text_content() or ""
    assert f'{player}: "{written}"' in log and check_log(log, "game.yaml").errors == []  # (quoted: it holds a comma)
    assert written in (ROOT / "fixtures" / "expansion-1" / "game-3p.yaml").read_text(encoding="utf-8")  # the fixture's own move
    expect(page.locator("#play-guests")).to_have_count(0)  # the guest house is empty now

