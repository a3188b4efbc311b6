"""Captain phase: loading the cargo ships, the wharf, storage, unloading full ships.

The rules of a move (which ship takes a load, whose turn it is, when a wharf or small wharf may
be used and what it ships, what a move earns) are `referee.engine.captain_rules`, over compact
values, which the shipping calculator's search (`referee.jobs.shipping`) moves by too; this phase
applies them to the game's boards and ships, checks a log's moves by them (saying why a move is
refused) and lists the legal moves from them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from itertools import product
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NoReturn

from referee.diagnostics import Missing, RuleViolation
from referee.engine.awaiting import Awaiting, KeepAwaited, MoveAwaited, PhaseOver
from referee.engine.captain_rules import (
    WHARF,
    Shipper,
    best_keeps,
    clockwise,
    holds_loadable,
    is_shipment,
    keep_fits,
    loadable,
    private_moves,
    ships_taking,
    small_wharf_open,
    turn_after,
    turns_away,
    wharf_open,
)
from referee.engine.phases.base import Phase, wrong_move
from referee.engine.state import Board, CargoShip
from referee.ground.wording import count, listing
from referee.moves.clauses import AnyMove, Keep, Load, Pass, SmallWharfLoad, WharfLoad
from referee.rulesets.rules import Rules

if TYPE_CHECKING:
    from referee.rulesets.effects import EffectId
    from referee.rulesets.model import ShipSmallWharf


def best_ships(ships: list[CargoShip], good: str, barrels: int, columns: tuple[list[int], list[str | None], list[int]] | None = None) -> tuple[int, list[CargoShip]]:
    """How many barrels of `good` go on board, and the ships that take that many (`ships_taking`;
    `columns`: the ships' `_columns`, when already read)."""
    best, at = ships_taking(*(_columns(ships) if columns is None else columns), good, barrels)
    return best, [ships[i] for i in at]


def _columns(ships: list[CargoShip]) -> tuple[list[int], list[str | None], list[int]]:
    """The cargo ships as the plain values the loading rules read: sizes, kinds, counts."""
    # attribute getters mapped, not comprehensions: read at every load
    return list(map(_SIZE, ships)), list(map(_KIND, ships)), list(map(_COUNT, ships))


_SIZE, _KIND, _COUNT = attrgetter("size"), attrgetter("good"), attrgetter("count")


def cargo_options(board: Board, ships: list[CargoShip]) -> list[tuple[str, int, list[CargoShip]]]:
    """Every kind a player can load on a cargo ship: (good, barrels, ships allowed)."""
    out = []
    for good, have in board.goods.items():
        if have > 0:
            amount, allowed = best_ships(ships, good, have)
            if amount > 0:
                out.append((good, amount, allowed))
    return out


def can_load(board: Board, ships: list[CargoShip]) -> bool:
    """Can this player load anything on a cargo ship? (A kind on a ship with room, or not on
    any ship while one is empty.)"""
    room, empty = loadable(*_columns(ships))
    return holds_loadable(board.goods.items(), room, empty)


STORAGE_POWERS: tuple[EffectId, ...] = ("store.kinds", "store.barrels")  # what `storage` reads
SHIPPING_POWERS: tuple[EffectId, ...] = ("ship.private-ship", "ship.small-wharf", "ship.load-doubloons", "ship.load-vp", "ship.pairs-vp")  # what `shipper` reads, storage aside


def shipper(board: Board, rules: Rules, captain: bool, privilege: int = 0) -> Shipper:
    """A player's captain-phase powers (`captain`: they chose the role, with this `privilege`)."""
    buildings = board.buildings
    wharf: int | None = None
    small: ShipSmallWharf | None = None
    load_vp = per_load = lighthouse_captain = vp_per_pair = 0
    # one pass over the buildings with these powers (each phase asks it for every player), in
    # the ruleset's order: the first wharf and small wharf occupied are the ones that work
    for ident, power in rules.powers_among(SHIPPING_POWERS):
        if buildings.get(ident, 0) <= 0:
            continue
        if power.id == "ship.private-ship":
            wharf = power.capacity if wharf is None else wharf
        elif power.id == "ship.small-wharf":
            small = power if small is None else small
        elif power.id == "ship.load-doubloons":
            per_load += power.per_load
            lighthouse_captain += power.captain
        elif power.id == "ship.load-vp":
            load_vp += power.vp
        elif power.id == "ship.pairs-vp":
            vp_per_pair += power.vp_per_pair
    kinds, barrels = storage(board, rules)
    return _shipper(
        privilege if captain else 0,
        load_vp,
        per_load,
        wharf,
        small.barrels_per_vp if small is not None else None,
        bool(small is not None and small.counts_as_load),
        kinds,
        barrels,
        vp_per_pair,
        lighthouse_captain if captain else 0,
        rules.model.barrel_vp,
    )


@lru_cache(maxsize=1024, typed=True)
def _shipper(*fields: Any) -> Shipper:
    """A `Shipper` with these fields in order: immutable, so shared (a frozen dataclass is slow
    to build, and a few kinds of player recur in every captain phase)."""
    return Shipper(*fields)


def storage(board: Board, rules: Rules) -> tuple[int, int]:
    """(kinds kept whole, single barrels kept) after a captain phase: warehouses, windrose, storehouse."""
    buildings = board.buildings
    kinds = barrels = 0
    for ident, power in rules.powers_among(STORAGE_POWERS):  # one pass: asked for every player in every captain phase
        if buildings.get(ident, 0) > 0:
            if power.id == "store.kinds":
                kinds += power.kinds
            elif power.id == "store.barrels":
                barrels += power.barrels
    return kinds, rules.model.windrose_barrels + barrels


# (pointer, wharfs used, players who loaded, ships, barrels by player, VP by player,
#  goods supply, VP chips left, end triggers, doubloons by player, small wharfs used,
#  players who passed since the last load).
# The dicts are private copies, never changed: `restore` copies them again.
CaptainSnapshot = tuple[
    int,
    frozenset[int],
    frozenset[int],
    tuple[tuple[str | None, int], ...],
    tuple[dict[str, int], ...],
    tuple[int, ...],
    dict[str, int],
    int,
    tuple[str, ...],
    tuple[int, ...],
    frozenset[int],
    frozenset[int],
]


@lru_cache(maxsize=4096)
def load_move(good: str, count: int, ship: int) -> Load:
    """A cargo-ship load as the log writes it in full (moves are immutable: shared)."""
    return Load(good=good, count=count, ship=ship)


PASS = Pass()  # a captain-phase turn let go (moves are immutable: shared)


def written_keep(held: dict[str, int], kept: dict[str, int], kinds: int, barrels: int) -> Keep:
    """What stays on a board (`kept` of the barrels `held`, with storage for `kinds` kinds kept
    whole and `barrels` single barrels: `storage`) as a `keep` entry writes it, as the storage
    is used: the kinds kept whole in warehouses as `all` (`corn all`, the largest first), the
    rest by their counts (`sugar`, `coffee 2` with a storehouse); by counts throughout where the
    rest would not fit the single barrels (the warehouses keeping a smaller kind whole)."""
    goods = sorted(kept)
    whole = sorted((good for good in goods if kept[good] == held.get(good)), key=lambda good: -kept[good])[:kinds] if kinds else []  # (no warehouse: most boards)
    if whole and not keep_fits({good: n for good, n in kept.items() if good not in whole}, 0, barrels):
        whole = []
    return Keep(items=tuple((good, None if good in whole else kept[good]) for good in goods))


def _small_wharf_move(kinds: list[tuple[str, int]], shipped: tuple[int, ...]) -> SmallWharfLoad:
    """A small wharf shipment as the log writes it: `shipped` of the `kinds` held, in order."""
    return SmallWharfLoad(goods=tuple([(good, n) for (good, _), n in zip(kinds, shipped, strict=True) if n]))


@lru_cache(maxsize=1024)
def _private_listed(powers: Shipper, kinds: tuple[tuple[str, int], ...], wharf_used: bool, small_used: bool) -> tuple[WharfLoad | SmallWharfLoad, ...]:
    """`Captain.private_moves`: `captain_rules.private_moves` of a player holding `kinds`, as
    the log writes the moves (remembered: the same barrels come back turn after turn, and a
    small wharf's shipments are many; moves are immutable, so shared)."""
    out: list[WharfLoad | SmallWharfLoad] = []
    for move, *_ in private_moves(powers, tuple(have for _, have in kinds), wharf_used, small_used, False, False):
        shipped = move[1]
        if move[0] == WHARF:
            assert isinstance(shipped, int)
            out.append(_wharf_move(kinds[shipped][0]))
        else:
            assert isinstance(shipped, tuple)
            out.append(_small_wharf_move(list(kinds), shipped))
    return tuple(out)


@lru_cache(maxsize=256)
def _wharf_move(good: str) -> WharfLoad:
    """A wharf load (shared, immutable)."""
    return WharfLoad(good=good)


class Captain(Phase):
    """Loads in turn from the captain; a wharf never forces a move; then storage and unloading."""

    role = "captain"

    def start(self) -> None:
        self.pointer = self.chooser  # the first player the turn may fall on
        self.wharf_used: set[int] = set()
        self.small_wharf_used: set[int] = set()
        self.loaded: set[int] = set()
        self.passed: frozenset[int] = frozenset()  # who wrote `pass` since the last load (replaced, never changed: clones share it)
        boards, rules, chooser, privilege = self.game.boards, self.rules, self.chooser, self.privilege()
        self.shippers = [shipper(boards[p], rules, p == chooser, privilege) for p in range(self.game.n)]
        self.on_start()

    def buildings_changed(self, p: int) -> None:
        """A guest moved onto a wharf, a harbor, a storehouse ...: it works from now on."""
        self.shippers[p] = shipper(self.board(p), self.rules, p == self.chooser, self.privilege())

    def turns(self) -> str:
        return f"in {self.title} the players load in turn, clockwise from {self.who(self.chooser)}, while they can"

    def written_early(self, p: int, q: int, why: str) -> RuleViolation:
        # the refusal said whose turn it is; what `q` must do is the reason they may not pass
        return super().written_early(p, q, f"{self.who(q)} must load {self.options(q)}")

    def lone_guests_allowed(self) -> bool:
        """The captain phase lists loads only, but a guest may move at any time outside the
        mayor phase (docs/rule-decisions.md): written where it happens, it takes no turn."""
        return True

    def copy_state(self) -> None:
        self.shippers = list(self.shippers)
        self.wharf_used = set(self.wharf_used)
        self.small_wharf_used = set(self.small_wharf_used)
        self.loaded = set(self.loaded)

    def on_start(self) -> None:
        """Powers at the start of the phase: the captain's lighthouse doubloons; each union hall
        owner's VP for pairs of barrels, before their first load (docs/rule-decisions.md)."""
        for p in self.order:
            b, powers = self.board(p), self.shippers[p]
            b.doubloons += powers.start_doubloons
            if powers.start_vp_per_pair:  # most players have no union hall: no pairs to count
                self.game.give_vp(p, powers.start_vp_per_pair * sum(n // 2 for n in b.goods.values()))

    # --- whose turn ----------------------------------------------------------------------

    def can_load(self, p: int) -> bool:
        return can_load(self.board(p), self.game.ships)

    def next_loader(self) -> int | None:
        """The first player clockwise from the turn pointer who can load on a cargo ship."""
        return self._first_loader(_columns(self.game.ships))

    def _first_loader(self, columns: tuple[list[int], list[str | None], list[int]]) -> int | None:
        """`next_loader`, the cargo ships given as their `_columns` (read once for a whole load)."""
        game = self.game
        room, empty = loadable(*columns)
        boards = game.boards
        for q in clockwise(self.pointer, game.n):  # the first who can load (`captain_rules.first_from`)
            if holds_loadable(boards[q].goods.items(), room, empty):
                return q
        return None

    def may_use_wharf(self, p: int) -> bool:
        """May `p` use their wharf now, their turn having come (`captain_rules.wharf_open`)?"""
        powers = self.shippers[p]
        return powers.wharf is not None and wharf_open(powers, p in self.wharf_used, self.board(p).barrels())  # most players have none: no barrels counted

    def options(self, p: int) -> str:
        """What player `p` can load on a cargo ship, in words."""
        opts = cargo_options(self.board(p), self.game.ships)
        texts = []
        for good, amount, ships in opts:
            on = " or ".join(f"the {s.size}-{self.rules.terms.cargo_ship}" for s in ships)
            texts.append(f"{amount} {self.name_of(good)} on {on}")
        return listing(texts, "or") if texts else "nothing"

    # --- moves ---------------------------------------------------------------------------

    def play(self, p: int, move: AnyMove) -> None:
        self._apply(p, move, self.check_play(p, move))

    def moves_for(self, p: int) -> Iterator[AnyMove]:
        return (move for q, move in self.legal_moves(passes=True) if q == p)

    def awaiting(self, reveal: list[str] | None, keep: Mapping[int, Keep] | None) -> Awaiting:
        """While someone may move (`legal_moves`): a move of the players whose turn comes no
        later than the next loader's, clockwise from the turn pointer (the first is the one whose
        turn it is). Then, storage written or not, each player holding barrels in turn order from
        the captain chooses what stays (`keep` holds the choices already made: keeping fewer than
        the rules allow is legal, so whoever holds barrels decides); then the end."""
        if not keep:  # storage written: the loading is over
            listed = tuple(self.legal_moves(passes=True))  # listed once: the players are read from it, and their moves
            if listed:
                return MoveAwaited(self, listed[0][0], listed)
        for p in self.order:
            if (keep is None or p not in keep) and self.board(p).barrels():
                return KeepAwaited(self, p)
        return PhaseOver(self)

    def may_pass(self, p: int, loader: int | None) -> bool:
        """May `p`, who cannot load on a cargo ship and whose turn has come (`loader`, the next
        loader, is later or None), write `pass`? Only with a wharf or small wharf they could
        use; once nobody can load on a cargo ship, once until someone loads again (so that
        the turns, and the lists of moves, end)."""
        return not self.loading_over(p, loader) and (self.may_use_wharf(p) or self.may_use_small_wharf(p))

    def loading_over(self, p: int, loader: int | None) -> bool:
        """Has `p` let their turn go (`pass`) with nobody able to load on a cargo ship (`loader`,
        the next loader, None), and nobody loaded since? Then the loading is over for them:
        their wharf is not asked again (2002 rulebook, "Wharf": if he cannot load a cargo ship
        he may use the wharf or pass; docs/rule-decisions.md)."""
        return loader is None and p in self.passed

    def _check_pass(self, p: int) -> None:
        """May `p` let their turn go with `pass` now (docs/formats/game-log.md, version 3)? A
        player who must load may not; one whose turn it is not, neither."""
        q = self.next_loader()
        n = self.game.n
        rules = self.rules
        wharfs = listing([b.name for effect in ("ship.private-ship", "ship.small-wharf") for b in rules.with_effect(effect)], "or")
        if q == p:
            raise RuleViolation(
                "captain.no-pass",
                f"{self.who(p)} cannot pass: they must load {self.options(p)} (a pass is only for a player whose goods fit no cargo ship, who could use nothing but their {wharfs})",
            )
        if q is not None and turns_away(self.pointer, n, p) > turns_away(self.pointer, n, q):
            raise RuleViolation("turn.not-your-turn", f"it is {self.who(q)}'s turn to load, not {self.who(p)}'s: {self.who(q)} must load {self.options(q)}", passed=q)
        if self.may_pass(p, q):
            return
        must = f"; next, {self.who(q)} must load {self.options(q)}" if q is not None else ""
        if self.may_use_wharf(p) or self.may_use_small_wharf(p):  # passed already, and nobody can load on a cargo ship
            raise RuleViolation(
                "captain.no-pass",
                f"{self.who(p)} has passed already and nobody has loaded since: nobody can load on a cargo ship any more, so the phase may end (a {wharfs} never forces a move)",
            )
        raise RuleViolation(
            "captain.no-pass",
            f"{self.who(p)} has nothing to load, on a cargo ship or their own: a player who cannot load is left out, and a pass is written only by one who could use their {wharfs}{must}",
        )

    def check_play(self, p: int, move: AnyMove) -> tuple[CargoShip, int] | None:
        """Raise RuleViolation if `p` may not make `move` now (whose turn, then the load); change
        nothing. A cargo-ship load: the ship it goes on and the barrels it takes."""
        if isinstance(move, Pass):
            self._check_pass(p)
            return None
        columns = _columns(self.game.ships)
        q = self._first_loader(columns)
        n = self.game.n
        if isinstance(move, Load):
            if q is None:
                raise RuleViolation("captain.cannot-load", f"nobody can load on a cargo ship any more ({self.ships_text()}); {self.who(p)} cannot load {self.name_of(move.good)}")
            if p != q:
                raise RuleViolation("turn.not-your-turn", f"it is {self.who(q)}'s turn to load, not {self.who(p)}'s: {self.who(q)} must load {self.options(q)}", passed=q)
            return self._loading(p, move, columns)
        if isinstance(move, (WharfLoad, SmallWharfLoad)):
            if q is not None and turns_away(self.pointer, n, p) > turns_away(self.pointer, n, q):
                raise RuleViolation(
                    "turn.not-your-turn",
                    f"it is {self.who(q)}'s turn to load, not {self.who(p)}'s: {self.who(q)} must load {self.options(q)}",
                    passed=q,
                )
            if self.passed and self.loading_over(p, q):
                raise RuleViolation(
                    "captain.loading-over",
                    f"{self.who(p)} let their turn go and nobody has loaded since: nobody can load on a cargo ship, so the loading is over for them "
                    f"(their {self.rules.power_names('ship.private-ship' if isinstance(move, WharfLoad) else 'ship.small-wharf')} is used on a turn of theirs, before they pass)",
                )
            if isinstance(move, WharfLoad):
                self._check_wharf(p, move.good)
            else:
                self._check_small_wharf(p, move)
            return None
        raise wrong_move(self, move)

    def play_unchecked(self, p: int, move: AnyMove) -> None:
        self._apply(p, move, self._loading(p, move) if isinstance(move, Load) else None)

    def _apply(self, p: int, move: AnyMove, loading: tuple[CargoShip, int] | None) -> None:
        if loading is not None:
            ship, best = loading
            assert isinstance(move, Load)
            ship.good = move.good
            ship.count += best
            self.board(p).goods[move.good] -= best
            self.after_load(p, best)
        elif isinstance(move, WharfLoad):
            self.use_wharf(p, move.good)
        elif isinstance(move, SmallWharfLoad):
            self.use_small_wharf(p, move)
        if isinstance(move, Pass):  # the turn goes on clockwise, as when the player is skipped
            self.passed = self.passed | {p}
        elif self.passed:
            self.passed = frozenset()
        self.pointer = turn_after(p, self.game.n)

    def ships_text(self) -> str:
        parts = []
        for s in self.game.ships:
            held = f"{s.count} {self.name_of(s.good)}" if s.good else "empty"
            parts.append(f"{s.size}-{self.rules.terms.cargo_ship}: {held}")
        return ", ".join(parts)

    def _loading(self, p: int, move: Load, columns: tuple[list[int], list[str | None], list[int]] | None = None) -> tuple[CargoShip, int]:
        """The cargo ship a load goes on and the barrels it takes, checked: the kind, the ship
        that takes the most, the count. (`columns`: the ships' `_columns`, when already read.)"""
        rules = self.rules
        good, have = move.good, self.board(p).goods.get(move.good, 0)
        if have <= 0:
            raise RuleViolation("captain.no-barrel", f"{self.who(p)} has no {self.name_of(good)}; they can load {self.options(p)}")
        best, allowed = best_ships(self.game.ships, good, have, columns)
        if best == 0:
            raise RuleViolation("captain.kind-blocked", f"{self.name_of(good)} cannot be loaded: {self._blocked(good)}; {self.who(p)} can load {self.options(p)}")
        chosen: CargoShip | None = None
        for ship in allowed:  # the usual case: the ship written is one that takes the most
            if ship.size == move.ship:
                chosen = ship
                break
        if chosen is None:
            if move.ship is not None:
                self._refuse_ship(p, move.ship, good, have, best, allowed)
            if len(allowed) > 1:  # no ship written: it must be the only one that takes the most
                raise RuleViolation(
                    "captain.ship-required",
                    f"{self.name_of(good)} fits {self._ships(allowed, 'and')} alike ({best} each): the log must name the ship, e.g. '{best} {self.name_of(good).lower()} on {allowed[0].size}'",
                )
            chosen = allowed[0]
        if move.count is not None and move.count != best:
            raise RuleViolation(
                "captain.count",
                f"{self.who(p)} loads {best} {self.name_of(good)} on the {chosen.size}-{rules.terms.cargo_ship} (as many as fit, none held back), not {move.count}",
            )
        return chosen, best

    def _refuse_ship(self, p: int, size: int, good: str, have: int, best: int, allowed: list[CargoShip]) -> NoReturn:
        """Why the ship named for a load is not one that takes the most (`allowed`)."""
        ship_word = self.rules.terms.cargo_ship
        ship = next((s for s in self.game.ships if s.size == size), None)
        if ship is None:
            sizes = ", ".join(str(s.size) for s in self.game.ships)
            raise RuleViolation("captain.no-such-ship", f"there is no {size}-{ship_word}; the cargo {ship_word}s take {sizes}")
        if ship not in best_ships(self.game.ships, good, 1)[1]:  # the ships that may take the kind at all
            why = self._why_not(ship, good)
            raise RuleViolation(
                "captain.wrong-ship",
                f"{self.name_of(good)} cannot go on the {ship.size}-{ship_word} ({why}); {self.who(p)} must load it on {self._ships(allowed)}",
            )
        # a ship that may take the kind, but fewer barrels than another
        raise RuleViolation(
            "captain.largest-ship",
            f"{self.who(p)} must load {self.name_of(good)} on {self._ships(allowed)}, which takes {best}, "
            f"not the {ship.size}-{ship_word}, which takes {min(have, ship.free)}",
        )

    def _ships(self, ships: list[CargoShip], word: str = "or") -> str:
        return listing([f"the {s.size}-{self.rules.terms.cargo_ship}" for s in ships], word)

    def _blocked(self, good: str) -> str:
        for s in self.game.ships:
            if s.good == good:
                return f"the {s.size}-{self.rules.terms.cargo_ship} carrying it is full"
        return f"no {self.rules.terms.cargo_ship} is empty and none carries it"

    def _why_not(self, ship: CargoShip, good: str) -> str:
        if ship.good is not None and ship.good != good:
            return f"it carries {self.name_of(ship.good)}"
        if ship.full:
            return "it is full"
        other = next((s for s in self.game.ships if s.good == good), None)
        if other is not None:
            return f"{self.name_of(good)} is already on the {other.size}-{self.rules.terms.cargo_ship}"
        return "it cannot take it"  # pragma: no cover

    def _once_a_phase(self, p: int, effect: EffectId, used: set[int], rule: str) -> None:
        """Why the player may not use their private ship (wharf, small wharf), when the reason
        is that they have none occupied, or have used it in this phase (else nothing)."""
        if not self.board(p).has(self.rules, effect):
            raise RuleViolation(rule, f"{self.who(p)} has no occupied {self.rules.power_names(effect)}")
        if p in used:
            raise RuleViolation(f"{rule}-used", f"{self.who(p)} has already used their {self.rules.power_names(effect)} in {self.title}: once per phase")

    def _check_wharf(self, p: int, good: str) -> None:
        """May `p` put their `good` on their private ship (wharf) now (`captain_rules.wharf_open`)?"""
        if wharf_open(self.shippers[p], p in self.wharf_used, self.board(p).goods.get(good, 0)):
            return
        self._once_a_phase(p, "ship.private-ship", self.wharf_used, "captain.wharf")
        raise RuleViolation("captain.no-barrel", f"{self.who(p)} has no {self.name_of(good)} to put on their {self.rules.power_names('ship.private-ship')}")

    def use_wharf(self, p: int, good: str) -> None:
        """Every barrel of one kind onto the player's private ship, once per phase (checked)."""
        b = self.board(p)
        have = b.goods[good]
        amount = self.shippers[p].wharf_takes(have)
        b.goods[good] = have - amount
        self.game.goods_supply[good] += amount
        self.wharf_used.add(p)
        self.after_load(p, amount)

    def may_use_small_wharf(self, p: int) -> bool:
        """May `p` use their small wharf now, their turn having come (`captain_rules.small_wharf_open`)?"""
        powers = self.shippers[p]
        return powers.small_wharf is not None and small_wharf_open(powers, p in self.small_wharf_used, self.board(p).barrels())  # most players have none

    def private_moves(self, p: int) -> tuple[WharfLoad | SmallWharfLoad, ...]:
        """`p`'s moves on their wharf and small wharf now, their turn having come: the rule's own
        list (`captain_rules.private_moves`, which the shipping calculator lists them by),
        written as the log writes them (the kinds in the order the board holds them)."""
        kinds = tuple((good, have) for good, have in self.board(p).goods.items() if have > 0)
        return _private_listed(self.shippers[p], kinds, p in self.wharf_used, p in self.small_wharf_used)

    def _check_small_wharf(self, p: int, move: SmallWharfLoad) -> None:
        """May `p` ship these barrels on their small wharf now?"""
        rules, b = self.rules, self.board(p)
        held = [b.goods.get(good, 0) for good, _ in move.goods]
        if small_wharf_open(self.shippers[p], p in self.small_wharf_used, b.barrels()) and is_shipment(held, [n for _, n in move.goods]):
            return
        self._once_a_phase(p, "ship.small-wharf", self.small_wharf_used, "captain.small-wharf")
        names = self.rules.power_names("ship.small-wharf")
        if not move.goods:
            raise RuleViolation("captain.small-wharf", f"the {names} ships at least one {rules.terms.barrel[0]}")
        for good, n in move.goods:
            if b.goods.get(good, 0) < n:
                raise RuleViolation("captain.no-barrel", f"{self.who(p)} has {b.goods.get(good, 0)} {self.name_of(good)}, not {n}, for their {names}")

    def use_small_wharf(self, p: int, move: SmallWharfLoad) -> None:
        """Any barrels to the supply, once per phase: 1 VP per so many (small wharf; checked)."""
        b = self.board(p)
        for good, n in move.goods:
            b.goods[good] -= n
            self.game.goods_supply[good] += n
        self.small_wharf_used.add(p)
        powers = self.shippers[p]
        vp = powers.small_wharf_vp(sum(n for _, n in move.goods), p not in self.loaded)
        if powers.small_wharf_loads:
            self.loaded.add(p)
            b.doubloons += powers.load_doubloons
        self.game.give_vp(p, vp)

    def after_load(self, p: int, barrels: int) -> None:
        """VP for a load: 1 per barrel (or as a small wharf gives), the captain's privilege on
        their first load, harbors; then the other rewards of a load (lighthouse)."""
        powers = self.shippers[p]
        vp = powers.load(barrels, p not in self.loaded)
        self.loaded.add(p)
        self.game.give_vp(p, vp)
        self.board(p).doubloons += powers.load_doubloons

    # --- the end -------------------------------------------------------------------------

    def finish(self, reveal: list[str] | None = None, keep: dict[int, Keep] | None = None) -> None:
        if self.next_loader() is not None:  # the usual end: nobody can load, nothing more to ask
            waiting = [q for q in self._rotation() if self.can_load(q)]
            q = waiting[0]
            others = [self.who(x) for x in waiting[1:]]
            also = f" (also {listing(others, 'and')})" if others else ""
            raise Missing(
                "captain.must-load",
                f"the captain phase cannot end while someone can load on a cargo ship: {self.who(q)} can load {self.options(q)}{also}",
            )
        self.store(keep or {})
        self.unload()

    def _rotation(self) -> tuple[int, ...]:
        return clockwise(self.pointer, self.game.n)

    def store(self, keep: dict[int, Keep]) -> None:
        """Each player keeps what their windrose and warehouses hold; the rest returns to the supply."""
        game = self.game
        missing: list[int] = []
        examples: dict[int, dict[str, int]] = {}  # one of the choices of each player who has one
        decided: dict[int, dict[str, int]] = {}
        for p in self.order:
            b = self.board(p)
            powers = self.shippers[p]  # `storage` as the phase's powers read it (kept up to date by `buildings_changed`)
            kinds, barrels = powers.store_kinds, powers.store_barrels
            if p in keep:
                try:
                    decided[p] = self._kept(p, keep[p], kinds, barrels)
                except RuleViolation as exc:
                    exc.player = p  # type: ignore[attr-defined]  # the replay points at this player's entry
                    raise
                continue
            options = best_keeps(b.goods, kinds, barrels)
            if len(options) > 1:
                missing.append(p)
                examples[p] = options[0]
                continue
            decided[p] = options[0]
        if missing:
            texts = [f"{self.who(p)} ({self._holding(p)})" for p in missing]
            entries = ", ".join(f"{self.who(p)}: {self._as_keep(p, examples[p])}" for p in missing)
            write = f"add `{entries}` to its 'keep'" if keep else f"write it under the phase, as `keep: {{{entries}}}`"
            raise Missing(
                "captain.keep-missing",
                f"{self.title} needs 'keep' for {listing(texts, 'and')}: what stays on the board is their choice; {write}",
                phase=self.title,
            )
        for p, kept in decided.items():
            b = self.board(p)
            for good, have in b.goods.items():
                lost = have - kept.get(good, 0)
                if lost:
                    game.goods_supply[good] += lost
            b.goods = {k: n for k, n in kept.items() if n > 0}

    def all_keeps(self, p: int) -> list[Keep]:
        """Every storage the phase accepts from `p` at its end, each distinct result once: the
        most barrels first, down to `none` (keeping fewer than the rules allow is legal).
        Each written as the storage is used (`written_keep`)."""
        held_goods = self.board(p).goods
        powers = self.shippers[p]
        kinds, barrels = powers.store_kinds, powers.store_barrels
        held = sorted((good, n) for good, n in held_goods.items() if n > 0)
        found: dict[tuple[tuple[str, int], ...], Keep] = {}
        for counts in product(*(range(n, -1, -1) for _, n in held)):
            kept = {good: n for (good, _), n in zip(held, counts, strict=True) if n}
            if not keep_fits(kept, kinds, barrels):
                continue
            found[tuple(sorted(kept.items()))] = written_keep(held_goods, kept, kinds, barrels)
        return sorted(found.values(), key=lambda keep: -sum(held_goods[good] if n is None else n for good, n in keep.items))

    def _as_keep(self, p: int, kept: dict[str, int]) -> str:
        """A choice of what stays, as a `keep` entry is written: `corn`, `sugar all, indigo`."""
        powers = self.shippers[p]
        return written_keep(self.board(p).goods, kept, powers.store_kinds, powers.store_barrels).text(self.rules)

    def _holding(self, p: int) -> str:
        b = self.board(p)
        return ", ".join(f"{n} {self.name_of(k)}" for k, n in b.goods.items() if n > 0)

    def _kept(self, p: int, spec: Keep, kinds: int, barrels: int) -> dict[str, int]:
        b = self.board(p)
        kept: dict[str, int] = {}
        for good, n in spec.items:
            have = b.goods.get(good, 0)
            if have <= 0:
                raise RuleViolation("captain.keep", f"{self.who(p)} has no {self.name_of(good)} left to keep ({self._holding(p) or 'nothing'})")
            want = have if n is None else n
            if want > have:
                raise RuleViolation("captain.keep", f"{self.who(p)} has {have} {self.name_of(good)}, not {want}")
            kept[good] = want
        if not keep_fits(kept, kinds, barrels):
            t = self.rules.terms
            room = count(barrels, t.barrel)
            if kinds:
                room += f" and every {t.barrel[0]} of {kinds} kind{'s' if kinds != 1 else ''}"
            raise RuleViolation(
                "captain.keep",
                f"{self.who(p)} can keep {room}, not {Keep(items=spec.items).text(self.rules)}",
            )
        return kept

    def unload(self) -> None:
        """Full ships are emptied into the supply; the others keep their cargo."""
        for ship in self.game.ships:
            if ship.full and ship.good is not None:
                self.game.goods_supply[ship.good] += ship.count
                ship.good, ship.count = None, 0

    # --- search support (the shipping calculator) -----------------------------------------

    def legal_moves(self, passes: bool = False) -> list[tuple[int, AnyMove]]:
        """Every legal next move, (player, move), exactly as `play` accepts them.

        The next loader's cargo-ship loads (count and ship written, one move per ship that
        takes the most), and the wharf loads of every player whose turn comes no later than
        theirs, clockwise from the turn pointer (anyone's, once nobody can load on a cargo
        ship). Players in rotation order; goods in the order the board holds them. An empty
        list: the phase may only end. With `passes`, also the `pass` of each of those players
        who may let their turn go (`may_pass`), first among their moves: every legal move, as
        `moves_for` lists it; without, the loads only, which is all a search of the phase's
        outcomes needs (a pass only gives up a wharf's turn).
        """
        game = self.game
        n = game.n
        out: list[tuple[int, AnyMove]] = []
        q = None  # the next loader (next_loader): found on the way
        loader = self.next_loader() if passes or self.passed else None
        for p in clockwise(self.pointer, n):
            if self.loading_over(p, loader):
                continue  # they let their turn go, and nobody can load on a cargo ship: nothing more of theirs
            if q is None:
                for good, amount, allowed in cargo_options(self.board(p), game.ships):
                    q = p
                    for ship in allowed:
                        out.append((p, load_move(good, amount, ship.size)))
            if passes and q is None and self.may_pass(p, loader):
                out.append((p, PASS))
            powers = self.shippers[p]
            if powers.wharf is not None or powers.small_wharf is not None:  # most players have neither
                out.extend((p, move) for move in self.private_moves(p))
            if q == p:
                break  # nobody after the next loader may move before them
        return out

    def snapshot(self) -> CaptainSnapshot:
        """The state a captain phase can change, cheaply copied (restore it with `restore`)."""
        game = self.game
        boards = game.boards
        return (
            self.pointer,
            frozenset(self.wharf_used),
            frozenset(self.loaded),
            tuple([(s.good, s.count) for s in game.ships]),
            tuple([b.goods.copy() for b in boards]),
            tuple([b.vp for b in boards]),
            game.goods_supply.copy(),
            game.vp_chips,
            tuple(game.triggers),
            tuple([b.doubloons for b in boards]),
            frozenset(self.small_wharf_used),
            self.passed,
        )

    def restore(self, snap: CaptainSnapshot) -> None:
        """Put back a state taken by `snapshot` (ships, barrels, VP, supplies, turn, wharfs)."""
        game = self.game
        pointer, wharf_used, loaded, ships, goods, vps, supply, chips, triggers, doubloons, small_wharf_used, passed = snap
        self.pointer = pointer
        self.passed = passed
        self.wharf_used = set(wharf_used)
        self.loaded = set(loaded)
        self.small_wharf_used = set(small_wharf_used)
        for ship, (good, held_count) in zip(game.ships, ships, strict=True):
            ship.good, ship.count = good, held_count
        for board, held, vp, money in zip(game.boards, goods, vps, doubloons, strict=True):
            board.goods = held.copy()
            board.vp = vp
            board.doubloons = money
        game.goods_supply = supply.copy()
        game.vp_chips = chips
        game.triggers[:] = triggers

    def waiting(self) -> str:
        q = self.next_loader()
        if q is not None:
            return f"{self.title}: {self.who(q)} must load {self.options(q)}"
        return f"{self.title}: loading is over; storage ('keep') is awaited"
