"""A finished game as a play for BG Stats and BoardGameGeek (referee/render/export.py,
docs/formats/tables.md "The exports"): the fields those apps read, each reference resolved,
winners and seats as the scores say, uuids that stay the same when a game is exported again."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from tests.conftest import FIXTURES

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
STAMP = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


def export(kind: str, name: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "referee", "export", "--format", kind, str(FIXTURES / name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_a_bg_stats_file_has_every_entry_the_app_reads_and_its_references_resolve():
    play_file = export("bgstats", "game-3p.yaml")
    assert play_file["about"].startswith("This is a Play file that can be read by Board Game Stats")
    for table in ("games", "players", "locations", "plays"):
        for entry in play_file[table]:
            assert UUID.match(entry["uuid"]) and STAMP.match(entry["modificationDate"]), (table, entry)
            assert table == "plays" or isinstance(entry["id"], int), (table, entry)  # (a play is referred to by nothing)
    (game,) = play_file["games"]
    assert (game["bggId"], game["highestWins"], game["cooperative"], game["noPoints"]) == (3076, True, False, False)
    (play,) = play_file["plays"]
    players = {player["id"]: player["name"] for player in play_file["players"]}
    assert play["gameRefId"] == game["id"] and play["locationRefId"] == play_file["locations"][0]["id"]
    assert [(players[s["playerRefId"]], s["score"], s["winner"], s["startPlayer"], s["seatOrder"]) for s in play["playerScores"]] == [
        ("Ines", "44", True, True, 1),
        ("Marek", "40", False, False, 2),
        ("Tobias", "41", False, False, 3),
    ]
    assert all(not player["isAnonymous"] for player in play_file["players"])


def test_a_game_exported_again_is_the_same_entries_to_bg_stats_and_another_game_is_another_play():
    once, again, other = export("bgstats", "game-3p.yaml"), export("bgstats", "game-3p.yaml"), export("bgstats", "game-4p.yaml")
    assert once == again  # the same uuids: imported twice, the play is not doubled
    assert other["plays"][0]["uuid"] != once["plays"][0]["uuid"]
    shared = {p["name"] for p in once["players"]} & {p["name"] for p in other["players"]}
    for name in shared:  # the same name, the same player of the app
        assert next(p["uuid"] for p in once["players"] if p["name"] == name) == next(p["uuid"] for p in other["players"] if p["name"] == name)


def test_a_boardgamegeek_play_names_puerto_rico_and_each_player_with_seat_score_and_win():
    play = export("bgg", "game-3p.yaml")
    assert (play["objectid"], play["objecttype"], play["quantity"], play["playdate"]) == (3076, "thing", 1, "2026-10-03")
    assert [(p["name"], p["startposition"], p["score"], p["win"]) for p in play["players"]] == [("Ines", "1", "44", "1"), ("Marek", "2", "40", "0"), ("Tobias", "3", "41", "0")]
