"""A finished game as a play for the tools players log their plays with (docs/formats/tables.md, "The exports"):

- `bgstats`: BG Stats' play file, the JSON its share and open-in functions read (an `about`
  text; `games`, `players`, `locations` and `plays` lists, each entry with its `uuid`, `id`
  and `modificationDate`, each play with its `playerScores`);
- `bgg`: BoardGameGeek's fields of a logged play (`objectid` 3076, Puerto Rico; `playdate`;
  `players`, each with `name`, `startposition`, `score`, `win`).

The players in seat order: the first is the first governor (start position 1).
"""

from __future__ import annotations

import uuid
from typing import Any

from referee.jobs.scoring import Score

BGG_ID = 3076  # Puerto Rico on BoardGameGeek
FORMATS = ("bgstats", "bgg")
NAMESPACE = uuid.UUID("6f1d3c52-8f0e-5d8a-9b7e-2c4a1f0e3d21")  # referee's, for the uuids of its BG Stats files
BGSTATS_ABOUT = "This is a Play file that can be read by Board Game Stats, written by referee from a game of Puerto Rico. Open it with Board Game Stats (share, export or open-in)."


def play_export(kind: str, scores: list[Score], players: list[str], date: str, place: str | None = None, title: str = "Puerto Rico") -> dict[str, Any]:
    """The play of a finished game in `kind` (one of FORMATS): its scores, seat order, date
    (YYYY-MM-DD) and place."""
    by_player = {s.player: s for s in scores}
    seated = [by_player[name] for name in players]
    if kind == "bgg":
        play: dict[str, Any] = {
            "objectid": BGG_ID,
            "objecttype": "thing",
            "playdate": date,
            "quantity": 1,
            "players": [
                {"name": s.player, "username": "", "startposition": str(seat), "score": str(s.total), "win": "1" if s.rank == 1 else "0", "new": "0"}
                for seat, s in enumerate(seated, 1)
            ],
        }
        if place:
            play["location"] = place
        return play
    player_ids = {s.player: index for index, s in enumerate(seated, 1)}
    stamp = f"{date} 00:00:00"  # BG Stats' dates: "YYYY-MM-DD hh:mm:ss"
    result = ";".join(f"{s.player}={s.total}" for s in seated)
    out: dict[str, Any] = {
        "about": BGSTATS_ABOUT,
        "games": [
            {"uuid": _uuid(f"game:{BGG_ID}"), "id": 1, "name": title, "modificationDate": stamp, "bggId": BGG_ID, "bggName": "Puerto Rico", "cooperative": False, "highestWins": True, "noPoints": False}
        ],
        "players": [{"uuid": _uuid(f"player:{s.player}"), "id": player_ids[s.player], "name": s.player, "isAnonymous": False, "modificationDate": stamp, "bggUsername": ""} for s in seated],
        "plays": [
            {
                "uuid": _uuid(f"play:{date}:{place or ''}:{result}"),
                "modificationDate": stamp,
                "gameRefId": 1,
                "playDate": stamp,
                "ignored": False,
                "playerScores": [
                    {
                        "playerRefId": player_ids[s.player],
                        "score": str(s.total),
                        "winner": s.rank == 1,
                        "newPlayer": False,
                        "startPlayer": seat == 1,
                        "seatOrder": seat,
                        "rank": s.rank,
                    }
                    for seat, s in enumerate(seated, 1)
                ],
            }
        ],
    }
    if place:
        out["locations"] = [{"uuid": _uuid(f"location:{place}"), "id": 1, "name": place, "modificationDate": stamp}]
        out["plays"][0]["locationRefId"] = 1
    return out


def _uuid(name: str) -> str:
    """A stable UUID for an entry of a BG Stats file: the same player, place or play exported
    twice is the same entry to the app (it matches by uuid), never a second one."""
    return str(uuid.uuid5(NAMESPACE, name))
