"""A finished game as a play for the tools players log their plays with (docs/formats/tables.md, "The exports"):

- `bgstats`: BG Stats' JSON import format (a `games`, `players` and `plays` list, each play
  with its `playerScores`);
- `bgg`: BoardGameGeek's fields of a logged play (`objectid` 3076, Puerto Rico; `playdate`;
  `players`, each with `name`, `startposition`, `score`, `win`).

The players in seat order: the first is the first governor (start position 1).
"""

from __future__ import annotations

from typing import Any

from referee.jobs.scoring import Score

BGG_ID = 3076  # Puerto Rico on BoardGameGeek
FORMATS = ("bgstats", "bgg")


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
    out: dict[str, Any] = {
        "games": [{"id": 1, "name": title, "bggId": BGG_ID, "bggName": "Puerto Rico", "highestWins": True}],
        "players": [{"id": player_ids[s.player], "name": s.player} for s in seated],
        "plays": [
            {
                "gameRefId": 1,
                "playDate": f"{date} 00:00:00",
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
        out["locations"] = [{"id": 1, "name": place}]
        out["plays"][0]["locationRefId"] = 1
    return out
