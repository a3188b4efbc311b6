"""Move clauses: the short texts of a game log, parsed into typed moves and formatted back.

Each phase has its own small grammar (docs/formats/game-log.md). Names are matched with the
ruleset (any accepted name, case-insensitive); a clause word that is a building's name (the
hacienda's draw, the hospice's colonist, the wharf) is recognised by that building's effect
id, so a renamed edition's words work without code. `move.text(rules)` gives the canonical
clause text back in the ruleset's names; `str(move)` gives it in ids.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from referee.rulesets.rules import BUILDING, GOOD, QUARRY, Rules, UnknownName
from referee.wording import a, normalize

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from referee.rulesets.effects import EffectId

MAX_NUMBER = 999
_INT = re.compile(r"^[0-9]+$")  # ASCII digits only: "²" or "٣" is not a count


class MoveError(ValueError):
    """A move text that does not fit the phase's grammar, or names something unknown."""


# Moves are frozen dataclasses that pydantic validates and describes (`move_adapter`), not
# BaseModel subclasses: pydantic's model machinery costs ~50 ms to import, more than the rest of
# `referee validate` (issue 2's start-up target), and the parser checks every field itself.


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """Base of every move: immutable; pydantic refuses unknown fields (`move_adapter`)."""

    __pydantic_config__: ClassVar[dict[str, str]] = {"extra": "forbid"}

    def text(self, rules: Rules | None = None) -> str:
        """The canonical log text of this move, with `rules`' names (ids without rules)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text(None)


def _n(rules: Rules | None, ident: str) -> str:
    return ident.replace("-", " ") if rules is None else rules.name(ident).lower()


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(Move):
    """The player does not act."""

    kind: Literal["pass"] = "pass"

    def text(self, rules: Rules | None = None) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class Settle(Move):
    """Settler phase: the hacienda's face-down tile, the pick, and its clauses."""

    kind: Literal["settle"] = "settle"
    extra_tile: str | None = None  # the kind drawn face down (hacienda)
    tile: str | None = None  # a good's plantation, or the quarry id
    hospice: bool = False  # the hospice's colonist onto the picked tile
    forest: bool = False  # the picked tile placed face down as a forest (forest house)

    def text(self, rules: Rules | None = None) -> str:
        parts = []
        if self.extra_tile is not None:
            parts.append(f"{_word(rules, 'settle.extra-tile', 'hacienda')} {_n(rules, self.extra_tile)}")
        if self.tile is not None:
            parts.append(_n(rules, self.tile))
        if self.hospice:
            parts.append(_word(rules, "settle.colonist", "hospice"))
        if self.forest:
            parts.append(_n(rules, rules.forest_id) if rules is not None else "forest")
        return ", ".join(parts) or "pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class Arrange(Move):
    """Mayor phase: the player's whole arrangement of colonists after placing."""

    kind: Literal["arrange"] = "arrange"
    tiles: dict[str, int]  # plantation kind or quarry -> occupied tiles
    buildings: dict[str, int]  # building id -> colonists on it
    san_juan: int = 0

    @property
    def placed(self) -> int:
        return sum(self.tiles.values()) + sum(self.buildings.values())

    def text(self, rules: Rules | None = None) -> str:
        parts = [f"{_n(rules, k)} {v}" if v != 1 else _n(rules, k) for k, v in self.tiles.items()]
        parts += [f"{_n(rules, k)} {v}" if v != 1 else _n(rules, k) for k, v in self.buildings.items()]
        unplaced = "san juan" if rules is None else rules.terms.san_juan.lower()
        if self.san_juan:
            parts.append(f"{unplaced} {self.san_juan}")
        return ", ".join(parts) or f"{unplaced} 0"


@dataclass(frozen=True, slots=True, kw_only=True)
class Build(Move):
    """Builder phase: the building bought, the doubloons paid if written, the university's
    colonist, and black-market payments (a colonist from a place, a barrel, a VP chip)."""

    kind: Literal["build"] = "build"
    building: str
    price: int | None = None
    university: bool = False
    pay_colonist: str | None = None  # the place the colonist comes from (tile, building, san-juan)
    pay_good: str | None = None
    pay_vp: bool = False
    # payments written after one of their kind, ("colonist", place), ("good", good) or ("vp",
    # None): a move that reads, and breaks the black market's rule of one of each at most
    payments_again: tuple[tuple[str, str | None], ...] = ()

    @property
    def payments(self) -> int:
        """Doubloons of the price paid otherwise than in doubloons."""
        return (self.pay_colonist is not None) + (self.pay_good is not None) + self.pay_vp

    def text(self, rules: Rules | None = None) -> str:
        out = _n(rules, self.building)
        if self.price is not None:
            out += f" for {self.price}"
        if self.university:
            out += ", " + _word(rules, "build.colonist", "university")
        if self.pay_colonist is not None:
            out += _payment(rules, "colonist", self.pay_colonist)
        if self.pay_good is not None:
            out += _payment(rules, "good", self.pay_good)
        if self.pay_vp:
            out += _payment(rules, "vp", None)
        for kind, what in self.payments_again:
            out += _payment(rules, kind, what)
        return out


def _payment(rules: Rules | None, kind: str, what: str | None) -> str:
    """A black-market payment clause as the log writes it, after a comma."""
    if kind == "vp":
        return ", pay vp"
    assert what is not None
    if kind == "good":
        return f", pay {_n(rules, what)}"
    unplaced = "san juan" if rules is None else rules.terms.san_juan.lower()
    return f", pay {'colonist' if rules is None else rules.terms.colonist[0]} " + (unplaced if what == SAN_JUAN else _n(rules, what))


@dataclass(frozen=True, slots=True, kw_only=True)
class Extra(Move):
    """Craftsman phase: the craftsman's privilege barrel(s); empty: `extra none`."""

    kind: Literal["extra"] = "extra"
    goods: tuple[str, ...] = ()

    def text(self, rules: Rules | None = None) -> str:
        return "extra " + (", ".join(_n(rules, g) for g in self.goods) if self.goods else "none")


@dataclass(frozen=True, slots=True, kw_only=True)
class Sell(Move):
    """Trader phase: one barrel sold (to the trading house, or the player's own trading post),
    the income if written."""

    kind: Literal["sell"] = "sell"
    good: str
    income: int | None = None
    own_post: bool = False

    def text(self, rules: Rules | None = None) -> str:
        out = _n(rules, self.good)
        if self.own_post:
            out = f"{_word(rules, 'trade.own-post', 'trading post')} {out}"
        return out + (f" for {self.income}" if self.income is not None else "")


@dataclass(frozen=True, slots=True, kw_only=True)
class Load(Move):
    """Captain phase: barrels of one kind loaded on a cargo ship (named by its size)."""

    kind: Literal["load"] = "load"
    good: str
    count: int | None = None
    ship: int | None = None

    def text(self, rules: Rules | None = None) -> str:
        out = _n(rules, self.good)
        if self.count is not None:
            out = f"{self.count} {out}"
        if self.ship is not None:
            out += f" on {self.ship}"
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class WharfLoad(Move):
    """Captain phase: every barrel of one kind loaded on the player's wharf."""

    kind: Literal["wharf"] = "wharf"
    good: str

    def text(self, rules: Rules | None = None) -> str:
        return f"{_word(rules, 'ship.private-ship', 'wharf')} {_n(rules, self.good)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class SmallWharfLoad(Move):
    """Captain phase: barrels of any kinds shipped on the player's small wharf (expansion)."""

    kind: Literal["small-wharf"] = "small-wharf"
    goods: tuple[tuple[str, int], ...]

    def text(self, rules: Rules | None = None) -> str:
        items = ", ".join(f"{_n(rules, g)} {n}" for g, n in self.goods)
        return f"{_word(rules, 'ship.small-wharf', 'small wharf')} {items}"


AnyMove = Pass | Settle | Arrange | Build | Extra | Sell | Load | WharfLoad | SmallWharfLoad


@dataclass(frozen=True, slots=True, kw_only=True)
class Keep(Move):
    """Captain phase `keep`: what stays on a player's board. `None` count: every barrel."""

    kind: Literal["keep"] = "keep"
    items: tuple[tuple[str, int | None], ...] = ()

    def text(self, rules: Rules | None = None) -> str:
        if not self.items:
            return "none"
        parts = []
        for good, count in self.items:
            name = _n(rules, good)
            parts.append(f"{name} all" if count is None else (name if count == 1 else f"{name} {count}"))
        return ", ".join(parts)


@cache
def move_adapter() -> TypeAdapter[AnyMove | Keep]:
    """pydantic's validator and JSON Schema of every move, told apart by `kind`."""
    from pydantic import Field, TypeAdapter

    return TypeAdapter(Annotated[AnyMove | Keep, Field(discriminator="kind")])


def _word(rules: Rules | None, effect: EffectId, default: str) -> str:
    """The clause word of a building power: that building's name in `rules`."""
    if rules is None:
        return default
    found = rules.with_effect(effect)
    return found[0].name.lower() if found else default


# --- parsing ---
# The parser builds moves directly: every field is checked by the grammar here.
#----------------------------------------------------------------------------


def _clauses(text: str) -> list[str]:
    parts = [" ".join(p.split()) for p in text.split(",")]
    if any(not p for p in parts):
        raise MoveError(f"empty clause in '{text}'")
    return parts


def _number(word: str, what: str) -> int:
    if not _INT.match(word):
        raise MoveError(f"expected a number for {what}, found '{word}'")
    if len(word.lstrip("0")) > len(str(MAX_NUMBER)):  # checked before int(): a number of thousands of digits is refused, not converted
        raise MoveError(f"{what} {word if len(word) <= 12 else word[:12] + '...'} is out of range (at most {MAX_NUMBER})")
    value = int(word)
    if value > MAX_NUMBER:
        raise MoveError(f"{what} {word} is out of range (at most {MAX_NUMBER})")
    return value


def _lookup(rules: Rules, text: str, *categories: str) -> tuple[str, str]:
    try:
        return rules.lookup(text, categories)
    except UnknownName as exc:
        raise MoveError(str(exc)) from None


def _good(rules: Rules, text: str) -> str:
    return _lookup(rules, text, GOOD)[1]


def _leading_building(rules: Rules, clause: str, effect: str) -> tuple[str, str] | None:
    """('building id', rest) when the clause starts with the name of a building with `effect`."""
    words = clause.split(" ")
    for cut in range(min(len(words) - 1, rules.name_words), 0, -1):  # never more words than a name has: linear in the clause
        hit = rules.find(" ".join(words[:cut]), (BUILDING,))
        if hit is not None:
            b = rules.building[hit[1]]
            if b.effect is not None and b.effect.id == effect:
                return hit[1], " ".join(words[cut:])
    return None


def _is_building_with(rules: Rules, clause: str, effect: str) -> bool:
    hit = rules.find(clause, (BUILDING,))
    if hit is None:
        return False
    b = rules.building[hit[1]]
    return b.effect is not None and b.effect.id == effect


MEMO_SIZE = 50_000  # move texts remembered per ruleset (an archive repeats a few thousand texts)
MEMO_TEXT = 200  # only texts up to this long are remembered: a move is a few words, and 50,000 long texts would be a lot of memory


def read_written(role: str, written: str, rules: Rules) -> tuple[tuple[str, ...], AnyMove]:
    """A move as written in a log: its guest-house clauses and the move (`split_guests`, then
    `parse_move`; guests alone are a pass). Remembered per ruleset, as logs repeat the same
    texts (moves are frozen values); MoveError as the parsers raise it."""
    key = (role, written)
    memo = rules.memo
    hit = memo.get(key)
    if hit is None:
        try:
            guests, text = split_guests(written, rules)
            hit = (guests, parse_move(role, text, rules) if text or not guests else Pass())
        except MoveError as exc:
            hit = str(exc)  # the message, not the exception: its traceback holds every frame of the reading (and the whole document)
        if len(memo) < MEMO_SIZE and len(written) <= MEMO_TEXT:
            memo[key] = hit
    if isinstance(hit, str):
        raise MoveError(hit)
    return hit


def parse_move(role: str, text: str, rules: Rules) -> AnyMove:
    """Parse one move text of the phase of `role`; MoveError with a readable reason."""
    if normalize(text) in ("pass", ""):
        if not text.strip():
            raise MoveError("empty move (write 'pass', or leave the player out)")
        return Pass()
    parser = _PARSERS.get(role)
    if parser is None:
        raise MoveError(f"no moves are written in {a(rules.name(role))} phase (only 'pass')")
    try:
        return parser(text, rules)
    except MoveError as exc:
        raise MoveError(_with_move_words(str(exc), text, role)) from None


# The words of a move that are not names, by phase (docs/formats/game-log.md): a move that cannot be
# read with one of them misspelled is told the word, as a misspelled name is ("did you mean").
_MOVE_WORDS: dict[str, tuple[str, ...]] = {
    "settler": (),
    "mayor": ("san juan",),
    "builder": ("for", "pay"),
    "craftsman": ("extra", "none"),
    "trader": ("for",),
    "captain": ("on",),
}


def _with_move_words(message: str, text: str, role: str) -> str:
    """`message` with the move words that the text's words may have meant: 'pass' for the whole
    text (`passes`), a phase's own words for one of its words (`extr corn`: 'extra'), merged
    with a "did you mean" of names already in it."""
    meant = [word for word in ("pass",) if difflib.get_close_matches(normalize(text), [word], cutoff=0.7)]
    for written in normalize(text).split():
        if written not in _MOVE_WORDS.get(role, ()):
            meant += [word for word in difflib.get_close_matches(written, _MOVE_WORDS.get(role, ()), cutoff=0.8) if word not in meant]
    if not meant:
        return message
    said = " or ".join(f"'{word}'" for word in meant)
    if message.endswith("?)") and "(did you mean " in message:
        head, _, names = message.rpartition(" (did you mean ")
        return f"{head} (did you mean {said} or {names}"
    return f"{message} (did you mean {said}?)"


def _settler(text: str, rules: Rules) -> AnyMove:
    clauses = _clauses(text)
    extra = None
    first = _leading_building(rules, clauses[0], "settle.extra-tile")
    if first is not None:
        extra = _lookup(rules, first[1], GOOD, QUARRY)[1]  # a quarry reads well, and the engine refuses it (a rule, not a typo)
        clauses = clauses[1:]
    tile = None
    if clauses and not _is_building_with(rules, clauses[0], "settle.colonist") and normalize(clauses[0]) not in rules.forest_labels:
        tile = _lookup(rules, clauses[0], GOOD, QUARRY)[1]
        clauses = clauses[1:]
    hospice = forest = False
    for clause in clauses:
        if _is_building_with(rules, clause, "settle.colonist") and not hospice:
            hospice = True
        elif normalize(clause) in rules.forest_labels and not forest:
            forest = True
        else:
            raise MoveError(
                f"unexpected clause '{clause}' in {a(rules.name('settler'))} move (expected {a(rules.terms.plantation[0])} or {rules.quarry.name}, then '{_word(rules, 'settle.colonist', 'hospice')}')"
            )
    return Settle(extra_tile=extra, tile=tile, hospice=hospice, forest=forest)


_SAN_JUAN = ("san juan", "unplaced")
SAN_JUAN = "san-juan"  # the place id of San Juan in moves (a black-market colonist, a guest)


def _mayor(text: str, rules: Rules) -> AnyMove:
    tiles: dict[str, int] = {}
    buildings: dict[str, int] = {}
    san_juan = 0
    seen_sj = False
    for clause in _clauses(text):
        words = clause.split(" ")
        count = 1
        if len(words) > 1 and _INT.match(words[-1]):
            count = _number(words[-1], f"'{clause}'")
            words = words[:-1]
        name = " ".join(words)
        key = normalize(name)
        if key in _SAN_JUAN or key == normalize(rules.terms.san_juan):
            if seen_sj:
                raise MoveError(f"'{rules.terms.san_juan}' is written twice")
            seen_sj = True
            san_juan = count
            continue
        if key in rules.forest_labels:  # named so that the engine can say a forest has no circle
            category, ident = QUARRY, rules.forest_id
        else:
            category, ident = _lookup(rules, name, GOOD, QUARRY, BUILDING)
        target = buildings if category == BUILDING else tiles
        if ident in target:
            raise MoveError(f"'{rules.name(ident).lower()}' is written twice in the arrangement")
        if count == 0:
            continue
        target[ident] = count
    return Arrange(tiles=tiles, buildings=buildings, san_juan=san_juan)


def _builder(text: str, rules: Rules) -> AnyMove:
    clauses = _clauses(text)
    words = clauses[0].split(" ")
    price = None
    if len(words) > 2 and words[-2].lower() == "for":
        price = _number(words[-1], "the price")
        words = words[:-2]
    building = _lookup(rules, " ".join(words), BUILDING)[1]
    university = pay_vp = False
    pay_colonist = pay_good = None
    again: list[tuple[str, str | None]] = []  # a second payment of a kind reads: the rules refuse it, with their reason
    for clause in clauses[1:]:
        words = clause.split(" ")
        if _is_building_with(rules, clause, "build.colonist") and not university:
            university = True
            continue
        if normalize(words[0]) != "pay" or len(words) < 2:
            raise MoveError(f"unexpected clause '{clause}' in {a(rules.name('builder'))} move (expected '{_word(rules, 'build.colonist', 'university')}' or a 'pay ...' clause)")
        what = " ".join(words[1:])
        if normalize(words[1]) in ("colonist", normalize(rules.terms.colonist[0])) and len(words) > 2:
            colonist = place(rules, " ".join(words[2:]))
            if pay_colonist is None:
                pay_colonist = colonist
            else:
                again.append(("colonist", colonist))
        elif normalize(what) in ("vp", normalize(rules.terms.vp[0])):
            if pay_vp:
                again.append(("vp", None))
            pay_vp = True
        elif normalize(words[1]) not in ("colonist", "vp"):
            good = _good(rules, what)
            if pay_good is None:
                pay_good = good
            else:
                again.append(("good", good))
        else:
            raise MoveError(f"'{clause}': a colonist paid is written with the place it comes from ('pay colonist <place>')")
    return Build(
        building=building, price=price, university=university, pay_colonist=pay_colonist, pay_good=pay_good, pay_vp=pay_vp, payments_again=tuple(again)
    )


def place(rules: Rules, text: str) -> str:
    """A place on a board a colonist can come from or go to: a tile kind, a building, San Juan."""
    key = normalize(text)
    if key in _SAN_JUAN or key == normalize(rules.terms.san_juan):
        return SAN_JUAN
    return _lookup(rules, text, GOOD, QUARRY, BUILDING)[1]


def split_guests(text: str, rules: Rules) -> tuple[tuple[str, ...], str]:
    """Leading `guest <place>` clauses (guest house) and the rest of the move text."""
    clauses = [" ".join(c.split()) for c in text.split(",")]
    guests: list[str] = []
    while clauses and normalize(clauses[0]).startswith("guest "):
        rest = clauses[0].split(" ", 1)[1]
        if rules.find(rest, (GOOD, QUARRY, BUILDING)) is None and normalize(rest) not in _SAN_JUAN:
            words = clauses[0].split(" ")
            if any(rules.find(" ".join(words[:cut]), (BUILDING,)) for cut in range(2, min(len(words), rules.name_words) + 1)):
                break  # a building whose name starts with "guest" (the guest house itself)
        guests.append(place(rules, rest))
        clauses = clauses[1:]
    return tuple(guests), ", ".join(clauses)


def _craftsman(text: str, rules: Rules) -> AnyMove:
    clauses = _clauses(text)
    words = clauses[0].split(" ", 1)
    if normalize(words[0]) != "extra" or len(words) < 2:
        raise MoveError(f"a craftsman move is 'extra <good>' or 'extra none', not '{text}'")
    first = words[1]
    if normalize(first) == "none":
        if len(clauses) > 1:
            raise MoveError("'extra none' takes no other goods")
        return Extra(goods=())
    goods = [_good(rules, first)] + [_good(rules, c) for c in clauses[1:]]
    return Extra(goods=tuple(goods))


def _trader(text: str, rules: Rules) -> AnyMove:
    words = " ".join(text.split()).split(" ")
    income = None
    if len(words) > 2 and words[-2].lower() == "for":
        income = _number(words[-1], "the income")
        words = words[:-2]
    if "," in text:
        raise MoveError(f"{a(rules.name('trader'))} move sells one {rules.terms.barrel[0]}: '<good>' or '<good> for <income>', not '{text}'")
    clause = " ".join(words)
    post = _leading_building(rules, clause, "trade.own-post")
    if post is not None:
        return Sell(good=_good(rules, post[1]), income=income, own_post=True)
    return Sell(good=_good(rules, clause), income=income)


_LOAD = re.compile(r"^(?:(?P<count>[0-9]+)\s+)?(?P<good>.+?)(?:\s+on\s+(?P<ship>[0-9]+))?$", re.IGNORECASE)


def _captain(text: str, rules: Rules) -> AnyMove:
    clauses = _clauses(text)
    small = _leading_building(rules, clauses[0], "ship.small-wharf")
    if small is not None:
        goods: list[tuple[str, int]] = []
        for clause in [small[1], *clauses[1:]]:
            words = clause.split(" ")
            count = _number(words[-1], f"the barrels of '{clause}'") if len(words) > 1 and _INT.match(words[-1]) else 1
            name = " ".join(words[:-1]) if len(words) > 1 and _INT.match(words[-1]) else clause
            good = _good(rules, name)
            if any(g == good for g, _ in goods):
                raise MoveError(f"'{rules.name(good)}' is written twice")
            if count:
                goods.append((good, count))
        return SmallWharfLoad(goods=tuple(goods))
    if len(clauses) != 1:
        raise MoveError(f"a captain move loads one kind: '[count] <good> [on <ship size>]', not '{text}'")
    clause = clauses[0]
    wharf = _leading_building(rules, clause, "ship.private-ship")
    if wharf is not None:
        return WharfLoad(good=_good(rules, wharf[1]))
    m = _LOAD.match(clause)
    if m is None:  # pragma: no cover - the pattern matches any non-empty text
        raise MoveError(f"cannot read the load '{clause}'")
    barrels = _number(m["count"], "the count") if m["count"] else None
    ship = _number(m["ship"], "the ship size") if m["ship"] else None
    return Load(good=_good(rules, m["good"]), count=barrels, ship=ship)


def parse_keep(text: str, rules: Rules) -> Keep:
    """A captain phase's `keep` entry: `sugar`, `corn all`, `corn 2, sugar`, `none`."""
    if normalize(text) == "none":
        return Keep(items=())
    items: list[tuple[str, int | None]] = []
    seen: set[str] = set()
    for clause in _clauses(text):
        words = clause.split(" ")
        count: int | None = 1
        if len(words) > 1 and normalize(words[-1]) == "all":
            count, words = None, words[:-1]
        elif len(words) > 1 and _INT.match(words[-1]):
            count, words = _number(words[-1], f"'{clause}'"), words[:-1]
        good = _good(rules, " ".join(words))
        if good in seen:
            raise MoveError(f"'{rules.name(good)}' is written twice")
        seen.add(good)
        items.append((good, count))
    return Keep(items=tuple(items))


_PARSERS = {
    "settler": _settler,
    "mayor": _mayor,
    "builder": _builder,
    "craftsman": _craftsman,
    "trader": _trader,
    "captain": _captain,
}
