"""Rulesets are data: loading, cross-checks, `extends`, renames, and positioned errors."""

from __future__ import annotations

import pytest

from referee.diagnostics import InputError
from referee.rulesets.load import load_ruleset
from referee.rulesets.rules import BUILDING, GOOD, UnknownName


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_base_numbers():
    rules = load_ruleset("base")
    assert [rules.players(n).vp_chips for n in (3, 4, 5)] == [75, 100, 122]
    assert [rules.players(n).colonists for n in (3, 4, 5)] == [55, 75, 95]
    assert [rules.players(n).cargo_ships for n in (3, 4, 5)] == [(4, 5, 6), (5, 6, 7), (6, 7, 8)]
    assert len(rules.buildings) == 23
    assert sum(b.copies for b in rules.buildings) == 49
    assert sum(g.plantations for g in rules.model.goods) == 50
    assert sum(g.barrels for g in rules.model.goods) == 50
    assert {b.id for b in rules.buildings if b.size == 2} == {"guild-hall", "residence", "fortress", "customs-house", "city-hall"}


def test_names_match_case_and_separators():
    rules = load_ruleset("base")
    for text in ("Small Indigo Plant", "small-indigo-plant", "small_indigo_plant", "SMALL  indigo plant"):
        assert rules.lookup(text, (BUILDING,)) == (BUILDING, "small-indigo-plant")
    with pytest.raises(UnknownName, match="did you mean 'coffee'"):
        rules.lookup("cofee", (GOOD,))


def test_broken_ruleset_is_refused_with_file_line_col(tmp_path):
    path = write(tmp_path, "mine.yaml", "extends: base\nid: mine\ntitle: Mine\nbuildings:\n  - {id: harbor, cost: -2}\n")
    with pytest.raises(InputError) as info:
        load_ruleset(str(path))
    (d,) = info.value.diagnostics
    assert d.rule == "ruleset.invalid"
    assert (d.location.file, d.location.line) == (str(path), 5)
    assert "cost" in d.message


def test_unknown_key_in_ruleset(tmp_path):
    path = write(tmp_path, "mine.yaml", "extends: base\nid: mine\ntitle: Mine\nisland_space: 10\n")
    with pytest.raises(InputError) as info:
        load_ruleset(str(path))
    (d,) = info.value.diagnostics
    assert d.location.line == 4 and "did you mean 'island_spaces'" in d.message


def test_cross_check_production_building_needs_a_good(tmp_path):
    path = write(tmp_path, "mine.yaml", "extends: base\nid: mine\ntitle: Mine\nbuildings:\n  - {id: coffee-roaster, produces: tea}\n")
    with pytest.raises(InputError, match="unknown good 'tea'"):
        load_ruleset(str(path))


def test_extends_overrides_and_adds(tmp_path):
    path = write(
        tmp_path,
        "house.yaml",
        "extends: base\nid: house\ntitle: House rules\n"
        "player_counts:\n  5: {vp_chips: 126}\n"
        "buildings:\n  - {id: harbor, cost: 7}\n  - {id: wharf, remove: true}\n",
    )
    rules = load_ruleset(str(path))
    assert rules.players(5).vp_chips == 126 and rules.players(4).vp_chips == 100
    assert rules.building["harbor"].cost == 7 and rules.building["harbor"].vp == 3
    assert "wharf" not in rules.building


def test_a_renamed_item_keeps_its_old_name_as_alias(tmp_path):
    path = write(tmp_path, "renamed.yaml", "extends: base\nid: renamed\ntitle: Renamed\ngoods:\n  - {id: indigo, name: fruit}\n")
    rules = load_ruleset(str(path))
    assert rules.name("indigo") == "fruit"
    assert rules.lookup("indigo", (GOOD,)) == (GOOD, "indigo")
    assert rules.lookup("Fruit", (GOOD,)) == (GOOD, "indigo")


def test_extends_cycle_is_refused(tmp_path):
    write(tmp_path, "a.yaml", "extends: ./b.yaml\nid: a\ntitle: A\n")
    b = write(tmp_path, "b.yaml", "extends: ./a.yaml\nid: b\ntitle: B\n")
    with pytest.raises(InputError, match="extends itself"):
        load_ruleset(str(b))


def test_unknown_bundled_ruleset():
    with pytest.raises(InputError, match="unknown ruleset 'nope'"):
        load_ruleset("nope")


def test_a_log_can_name_a_ruleset_file(tmp_path):
    write(tmp_path, "house.yaml", "extends: base\nid: house\ntitle: House\nplayer_counts:\n  3: {doubloons: 5}\n")
    log = write(
        tmp_path,
        "game.yaml",
        "ruleset: house.yaml\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo, sugar, corn, coffee]}\n"
        "phases:\n  - builder: Anna\n    moves:\n      - Anna: small market for 0\n      - Ben: small warehouse for 3\n",
    )
    from referee.jobs.check import check_log

    report = check_log(log.read_bytes(), str(log), base_dir=tmp_path)
    assert report.errors == []


@pytest.mark.parametrize("written", ["Base", "BASE", "Expansion 1", "expansion_1", "1897-Expansion-1"])
def test_a_bundled_ruleset_name_is_case_insensitive_like_every_name(written):
    """docs/formats/README.md#names: names match case-insensitively, space, '-' and '_' alike; a
    ruleset's name too (issue 15: `ruleset: Base` was refused)."""
    from referee.ground.wording import normalize

    assert load_ruleset(written).id == normalize(written).replace(" ", "-")


def test_an_unknown_ruleset_name_is_still_refused():
    with pytest.raises(InputError):
        load_ruleset("basic")
