"""The shipping calculator (`referee ship`): a captain phase played out through the engine.

Every rule of loading (turn order, the ship that takes the most, kinds blocked, the captain's
privilege, harbors, wharfs, storage, unloading) is the engine's `Captain` phase: this module
only chooses among `Captain.legal_moves()`, plays them with `Captain.play`, and reads the
result. The phase is a tree of decisions, each made by one player:

- while someone can load on a cargo ship, the next such player must load, on a cargo ship or
  on their wharf; a wharf owner whose turn comes before theirs may use the wharf, or let the
  turn pass on (`DECLINE`);
- once nobody can load on a cargo ship, each wharf owner who still may uses it once, or not.

Search states are keyed canonically (ships, barrels, wharfs used, who loaded, VP, whose
decision) and each is explored once; a state's outcomes are the set of the ends reachable from
it. These reductions keep the search small, all exact (the tests compare them with the full
search, `Shipping(position, reduce=False)`, on random positions):

- a kind is *settled* when it is on a cargo ship with room for every barrel of it that anyone
  holds: loading one settled kind rather than another only spends the turn, so of a player's
  loads of settled kinds only the first is explored; and while one can be loaded, the wharf is
  explored only on that kind (the wharf on another kind now ends like that load now and the
  wharf at the turn it would have been made);
- a wharf owner who cannot load on a cargo ship now never can again (each kind they hold is on
  a full ship, or on none and no ship is empty): their wharf touches nobody, and waits for the
  end of the loading, where it is used on the same barrels, or not;
- two empty ships are *interchangeable* when every kind that can still go on an empty ship has
  fewer barrels in play than either holds: a load on the one stands for the same load on the
  other, whose ends are the first's with the two ships' cargoes swapped;
- the phase is *settled* when every kind that can still go on a cargo ship is settled and none
  can go on an empty ship. From there on no load crowds out another, and each player's rest of
  the phase is their own: a wharf owner's only choice is which kind, if any, goes on the wharf.
  Each player's rest is played alone in the engine (and remembered); the ends are their
  combinations.

Storage is not enumerated (formats.md section 3): each player keeps the most barrels the rules
allow, the more valuable kinds first (the engine's `preferred_keep`); the engine unloads.
"""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass, field
from itertools import product

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, RuleViolation
from referee.engine.game import Game
from referee.engine.phases.captain import Captain, CaptainSnapshot, cargo_options, load_move, preferred_keep, storage
from referee.engine.state import CargoShip
from referee.records.moves import AnyMove, Load, SmallWharfLoad, WharfLoad
from referee.records.position import Position, ShipRecord
from referee.rulesets.rules import Rules

DECLINE = None  # a decision not to use the wharf now (no move of the log)

Key = tuple[object, ...]
Goods = tuple[int, ...]  # one player's barrels, in the order their board holds the kinds
End = tuple[tuple[tuple[str | None, int], ...], tuple[Goods, ...], tuple[int, ...], tuple[int, ...]]  # ships, barrels, VP, doubloons
Choice = tuple[AnyMove | None, tuple[tuple[int, int], ...]]  # a choice, and the ship swaps it stands for


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision point: the player deciding (None: the phase is over), their legal moves,
    whether they may let the turn pass (a wharf left unused), and what of it goes in the key."""

    player: int | None
    moves: list[AnyMove]
    decline: bool
    mode: tuple[object, ...]
    settled: bool  # a wharf left unused now stays unused


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a line of play: who, the move (None: the wharf not used), how free it was."""

    player: int
    move: AnyMove | None
    options: int  # the choices the player had at this point (1: forced)
    vp: int  # VP the move earned

    @property
    def forced(self) -> bool:
        """True when the player had no other choice."""
        return self.options == 1


@dataclass(frozen=True, slots=True)
class PlayerOutcome:
    """One player's result of the phase."""

    vp: int
    shipped: dict[str, int]
    kept: dict[str, int]
    lost: dict[str, int]
    doubloons: int = 0  # doubloons gained in the phase (a lighthouse)


@dataclass(frozen=True, slots=True)
class Route:
    """How an end was first reached: the explored line to a settled state (its last decision
    and step), that state, and each player's wharf choice from there (None: no wharf)."""

    parent: Key | None
    step: Step | None
    entry: CaptainSnapshot
    skip: int
    forgone: int
    choices: tuple[AnyMove | None, ...]


@dataclass(frozen=True, slots=True)
class Swapped:
    """An end reached like end `base`, with cargo ships `i` and `j` swapped throughout."""

    base: int
    i: int
    j: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """One distinct end of the phase: each player's result and the ships after unloading."""

    players: tuple[PlayerOutcome, ...]
    ships: tuple[ShipRecord, ...]
    end: int = field(compare=False, repr=False)  # the search's id of it (for `Shipping.details`)


@dataclass(frozen=True, slots=True)
class Details:
    """A line of play to an outcome, and the VP chips after it."""

    line: tuple[Step, ...]
    vp_chips_left: int
    chips_out: bool  # the last VP chip went in this phase: the game ends


@dataclass(frozen=True, slots=True)
class Best:
    """The best next load of one player, and the line of play the search expects."""

    player: int
    move: AnyMove | None  # None: the player loads nothing in this phase
    vp: int  # VP of that load
    phase_vp: int  # the player's VP over the whole phase on the expected line
    kept: int  # barrels the player keeps on the expected line
    line: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class _Solo:
    """One player's rest of a settled phase, alone: barrels left, VP gained, barrels added per ship."""

    goods: Goods
    vp: int
    ships: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Table:
    """Every player's rest of a settled phase; what their first choices add up to; its shape's id."""

    rests: tuple[_Rest, ...]
    first_ships: tuple[int, ...]
    first_vps: tuple[int, ...]
    shape: int


@dataclass(frozen=True, slots=True)
class _Rest:
    """A player's choices in a settled phase, what each gives, and its shape relative to the first."""

    options: tuple[tuple[AnyMove | None, _Solo], ...]
    shape: tuple[tuple[Goods, int, tuple[int, ...] | None], ...]  # (barrels left, VP and barrels per ship beyond the first; None: none)
    shape_id: int  # the same shape, the same id


class Shipping:
    """A captain phase set up from a position, and the searches over it."""

    def __init__(self, position: Position, reduce: bool = True) -> None:
        """Set up the position's captain phase in the engine (InputError if it cannot be)."""
        self.position = position
        self.rules: Rules = position.rules
        self.game, self.captain = _setup(position)
        # The reductions below reason about the base game's choices (cargo loads, wharfs). With
        # the expansion's small wharf or lighthouse in play the search is the full one.
        self.reduce = reduce and not any(b.has(self.rules, e) for b in self.game.boards for e in ("ship.small-wharf", "ship.load-doubloons"))
        self.n = self.game.n
        self.goods = self.rules.goods
        self.root = self.captain.snapshot()
        self.game_start_doubloons = [self.rules.players(self.game.n).doubloons] * self.game.n  # before the captain's lighthouse
        self.states = 0
        self._storage = [storage(b, self.rules) for b in self.game.boards]
        self._kinds = [tuple(b.goods) for b in self.game.boards]  # each board's kinds, fixed in the phase
        self._kept: dict[tuple[int, Goods], dict[str, int]] = {}
        self._rests: dict[Key, _Rest] = {}
        self._rest_shapes: dict[Key, int] = {}
        self._tables: dict[Key, _Table] = {}
        self._chains: dict[Key, _Solo] = {}
        self._players: dict[Key, PlayerOutcome] = {}
        self._unloaded: dict[Key, tuple[ShipRecord, ...]] = {}
        self._shapes: dict[Key, int] = {}
        self._parents: dict[Key, tuple[Key | None, Step | None]] = {}
        self._results: dict[Key, frozenset[int]] = {}  # the ends reachable from a decision
        self._combined: dict[Key, frozenset[int]] = {}  # the ends of a settled phase, by signature
        self._ends: list[End] = []
        self._end_ids: dict[End, int] = {}
        self._routes: list[Route | Swapped] = []
        self._swaps: dict[tuple[int, int, int], int] = {}

    # --- the search's view of the phase ----------------------------------------------------

    def key(self, snap: CaptainSnapshot, with_vp: bool) -> Key:
        """The canonical part of a state: ships, barrels, wharfs used, who loaded (and VP).

        Each board keeps the same kinds, in the same order, through the phase, so its barrels
        as a tuple of counts are canonical. The turn pointer is left out: whose decision it is
        (the decision's mode, added by the caller) is what matters.
        """
        goods = tuple([tuple(held.values()) for held in snap[4]])
        if with_vp:
            return (snap[3], goods, snap[1], snap[2], snap[5], snap[9], snap[10])
        return (snap[3], goods, snap[1], snap[2], snap[10])

    def settled(self) -> bool:
        """Is every future cargo load already decided, whatever the order of play?

        True when no kind can still go on an empty ship and every kind on a ship that is not
        full fits in it whole (all the barrels of it that the players hold). Then no load
        crowds out another, and each player's choices touch nobody else. It stays true to the
        end of the phase.
        """
        ships = self.game.ships
        boards = self.game.boards
        empty = False
        for ship in ships:
            if ship.good is None:
                empty = True
            elif ship.count < ship.size and sum([b.goods.get(ship.good, 0) for b in boards]) > ship.size - ship.count:
                return False
        if empty:
            on_ships = {s.good for s in ships}
            for b in boards:
                for good, have in b.goods.items():
                    if have > 0 and good not in on_ships:
                        return False
        return True

    def decision(self, skip: int, forgone: int, settled: bool = False) -> Decision:
        """Whose decision it is and what they may do.

        `skip`: positions of the rotation (from the turn pointer) already passed by wharf owners
        who let the turn go by, while someone can load on a cargo ship. `forgone`: players who
        will not use their wharf any more. Once nobody can load on a cargo ship each wharf owner
        decides once; in a `settled` phase the moment no longer matters, only the kind, so a
        wharf owner decides at their first decision: now, or not at all.
        """
        c, n = self.captain, self.n
        moves = c.legal_moves()
        if forgone:
            moves = [(p, m) for p, m in moves if not (forgone >> p & 1 and isinstance(m, (WharfLoad, SmallWharfLoad)))]
        q = next((p for p, m in moves if isinstance(m, Load)), None)
        if q is not None:
            if self.reduce:
                # A player who cannot load on a cargo ship now never can (a kind they hold is on
                # a full ship, or on none with no ship empty): their wharf touches nobody, and
                # waits for the end of the loading with the same barrels. Only `q` decides.
                return Decision(q, [m for p, m in moves if p == q], False, ("c", q, forgone), settled)
            ptr = c.pointer
            d = next(p for p, _ in moves if (p - ptr) % n >= skip)
            return Decision(d, [m for p, m in moves if p == d], d != q, ("c", d, forgone), settled)
        if not moves:
            return Decision(None, [], False, ("end",), True)
        d = moves[0][0]
        return Decision(d, [m for p, m in moves if p == d], True, ("w", forgone), True)

    def follow(self, dec: Decision, move: AnyMove | None, forgone: int) -> tuple[int, int]:
        """Make one choice of `dec` in the engine; the (skip, forgone) of the decision it leads to."""
        c, d = self.captain, dec.player
        assert d is not None
        if dec.settled and not isinstance(move, (WharfLoad, SmallWharfLoad)) and (c.may_use_wharf(d) or c.may_use_small_wharf(d)):
            forgone |= 1 << d
        if move is not None:
            c.play(d, move)
            return 0, forgone
        if dec.mode[0] == "w":  # nobody can load on a cargo ship: the wharf stays unused
            return 0, forgone
        return (d - c.pointer) % self.n + 1, forgone  # the turn passes on to the next player

    def explore(self, dec: Decision) -> list[Choice]:
        """The choices explored at a decision (DECLINE last, when allowed), each with the pairs of
        cargo ships (indexes) whose swapped ends stand for choices left out (see the module)."""
        out: list[Choice]
        if not self.reduce:
            out = [(m, ()) for m in dec.moves]
        else:
            g = self.game
            ships = g.ships
            demand: dict[str, int] = {}
            for b in g.boards:
                for good, have in b.goods.items():
                    if have:
                        demand[good] = demand.get(good, 0) + have
            on_ships = {s.good for s in ships}
            loose = max((k for good, k in demand.items() if good not in on_ships), default=0)
            out = []
            at_size: dict[int | None, int] = {s.size: j for j, s in enumerate(ships)}  # legal loads name their ship
            settled: list[str] = []  # the settled kinds the decider can load (the first is explored)
            for m in dec.moves:
                if isinstance(m, Load):
                    ship = ships[at_size[m.ship]]
                    if ship.good == m.good and demand.get(m.good, 0) <= ship.size - ship.count:
                        settled.append(m.good)
            settled_seen = False
            firsts: dict[tuple[str, int | None], int] = {}
            for m in dec.moves:
                if isinstance(m, WharfLoad) and settled and m.good != settled[0]:
                    # While a settled kind could be loaded, the wharf on another kind now is the
                    # same as loading the settled kind now and using the wharf at the turn it
                    # would have been loaded (nobody else sees the difference).
                    continue
                if isinstance(m, Load):
                    i = at_size[m.ship]
                    ship = ships[i]
                    if ship.good == m.good and demand.get(m.good, 0) <= ship.size - ship.count:
                        if settled_seen:
                            continue
                        settled_seen = True
                    elif ship.good is None and ship.size > loose:
                        at = firsts.get((m.good, m.count))
                        if at is not None:
                            first, swaps = out[at]
                            assert isinstance(first, Load)
                            rep = at_size[first.ship]
                            out[at] = (first, (*swaps, (rep, i)))
                            continue
                        firsts[(m.good, m.count)] = len(out)
                out.append((m, ()))
        if dec.decline:
            out.append((DECLINE, ()))
        return out

    def options(self, dec: Decision) -> list[AnyMove | None]:
        """The choices explored at a decision (see `explore`)."""
        return [m for m, _ in self.explore(dec)]

    # --- a settled phase: each player alone ---------------------------------------------------

    def _rest(self, p: int, goods: Goods, loaded: bool, used: bool, forgone: int) -> _Rest:
        """Player `p`'s choices in a settled phase (no wharf, or the wharf now on one kind), each
        with what it gives them, played alone in the engine (remembered). `goods`: theirs now;
        `forgone`: 1 if `p` will not use their wharf any more."""
        # Only the ships carrying a kind `p` holds matter to them: states differing elsewhere share it.
        own = (p, goods, self._own_ships(p), loaded, used, forgone)
        rest = self._rests.get(own)
        if rest is None:
            choices: list[AnyMove | None] = [None]
            if not forgone and self.captain.may_use_wharf(p):
                choices += [WharfLoad(good=good) for good, have in self.game.boards[p].goods.items() if have > 0]
            options = tuple((ch, self._solo(p, ch)) for ch in choices)
            first = options[0][1]
            shape = tuple((s.goods, s.vp - first.vp, _added(s.ships, first.ships)) for _, s in options)
            shape_id = self._rest_shapes.setdefault(shape, len(self._rest_shapes))
            rest = self._rests[own] = _Rest(options, shape, shape_id)
        return rest

    def _own_ships(self, p: int) -> Key:
        """The cargo ships as player `p` sees them in a settled phase: only a ship carrying a
        kind they hold can take anything of theirs (no empty ship can: the phase is settled)."""
        goods = self.game.boards[p].goods
        return tuple([(s.good, s.count >= s.size) if s.good is not None and goods.get(s.good, 0) > 0 else None for s in self.game.ships])

    def _solo(self, p: int, choice: AnyMove | None) -> _Solo:
        """Player `p`'s rest of a settled phase, alone: the wharf choice first, then every cargo
        load they can make (in which order does not matter: the phase is settled). The turn is
        put at `p` for each move: in a settled phase nobody else's turn changes anything."""
        if choice is None:
            return self._chain(p, restore=True)
        c, g = self.captain, self.game
        board = g.boards[p]
        snap = c.snapshot()
        counts = [s.count for s in g.ships]
        vp = board.vp
        c.pointer = p
        c.play(p, choice)
        wharf_vp = board.vp - vp
        wharf_ships = [s.count - n for s, n in zip(g.ships, counts, strict=True)]
        chain = self._chain(p, restore=False)
        c.restore(snap)
        return _Solo(chain.goods, wharf_vp + chain.vp, tuple([a + b for a, b in zip(wharf_ships, chain.ships, strict=True)]))

    def _chain(self, p: int, restore: bool) -> _Solo:
        """Player `p`'s cargo loads to the end of a settled phase, from the state in the engine
        (remembered). With `restore`, the state is left as it was; else it may be changed."""
        c, g = self.captain, self.game
        board = g.boards[p]
        key = (p, tuple(board.goods.values()), self._own_ships(p), p in c.loaded)
        hit = self._chains.get(key)
        if hit is not None:
            return hit
        snap = c.snapshot() if restore else None
        counts = [s.count for s in g.ships]
        vp = board.vp
        while True:  # alone, `p` is the next loader while they can load: their first cargo load
            options = cargo_options(board, g.ships)
            if not options:
                break
            good, amount, allowed = options[0]
            c.load(p, load_move(good, amount, allowed[0].size))  # alone: always their turn
        result = _Solo(tuple(board.goods.values()), board.vp - vp, tuple([s.count - n for s, n in zip(g.ships, counts, strict=True)]))
        if snap is not None:
            c.restore(snap)
        self._chains[key] = result
        return result

    def _settled(self, forgone: int) -> _Table:
        """Every player's choices in the settled phase now in the engine (remembered)."""
        g, c = self.game, self.captain
        goods = tuple([tuple(b.goods.values()) for b in g.boards])
        ships_key = tuple([(s.good, s.count >= s.size) for s in g.ships])
        key = (goods, ships_key, frozenset(c.loaded), frozenset(c.wharf_used), forgone)
        hit = self._tables.get(key)
        if hit is not None:
            return hit
        loaded, used = c.loaded, c.wharf_used
        rests = tuple([self._rest(p, goods[p], p in loaded, p in used, forgone >> p & 1) for p in range(self.n)])
        first_ships = [0] * len(g.ships)
        for rest in rests:
            for j, added in enumerate(rest.options[0][1].ships):
                first_ships[j] += added
        shape = (tuple([s.good for s in g.ships]), tuple([rest.shape_id for rest in rests]))
        shape_id = self._shapes.setdefault(shape, len(self._shapes))
        self._tables[key] = table = _Table(rests, tuple(first_ships), tuple(r.options[0][1].vp for r in rests), shape_id)
        return table

    # --- every outcome ----------------------------------------------------------------------

    def play_out(self) -> list[Outcome]:
        """Every distinct outcome of the phase, in the order found (their lines: `details`)."""
        self._parents, self._results, self._combined = {}, {}, {}
        outcomes: dict[Key, Outcome] = {}
        with _search():
            ends = self._visit(0, 0, None, None)
            for e in sorted(ends):  # different ends can look alike once full ships are emptied
                ships, goods, vps, money = self._ends[e]
                alike = (self._after(ships), goods, vps, money)  # barrels left tell shipped, kept and lost
                if alike not in outcomes:
                    outcomes[alike] = self._outcome(e)
        self.states = len(self._results) + len(self._combined)
        self._results, self._combined = {}, {}  # only the routes to the ends are kept (`details`)
        self.captain.restore(self.root)
        return list(outcomes.values())

    def _settle(self, parent: Key | None, step: Step | None, skip: int, forgone: int) -> frozenset[int]:
        """The ends of the settled phase in the engine: every combination of the players' choices."""
        c, g = self.captain, self.game
        boards = g.boards
        combined = self._combined
        table = self._settled(forgone)
        rests = table.rests
        base = tuple([s.count + f for s, f in zip(g.ships, table.first_ships, strict=True)])
        first_vps = tuple([b.vp + f for b, f in zip(boards, table.first_vps, strict=True)])
        signature = (table.shape, base, first_vps)
        hit = combined.get(signature)
        if hit is not None:
            return hit  # the same ends as an earlier settled state
        kinds = tuple([s.good for s in g.ships])
        money = tuple([b.doubloons for b in boards])
        snap: CaptainSnapshot | None = None  # taken for the first new end
        open_players = [p for p, rest in enumerate(rests) if len(rest.options) > 1]
        goods = [rest.options[0][1].goods for rest in rests]
        vps = list(first_vps)
        found: set[int] = set()
        end_ids = self._end_ids
        cargoes: dict[tuple[int, ...], tuple[tuple[str | None, int], ...]] = {}
        for combo in product(*[enumerate(rests[p].shape) for p in open_players]):
            counts = base
            for p, (_, (left, extra, more)) in zip(open_players, combo, strict=True):
                goods[p] = left
                vps[p] = first_vps[p] + extra
                if more is not None:
                    counts = tuple([a + b for a, b in zip(counts, more, strict=True)])
            ships = cargoes.get(counts)
            if ships is None:
                ships = cargoes[counts] = tuple(zip(kinds, counts, strict=True))
            end: End = (ships, tuple(goods), tuple(vps), money)
            at = end_ids.get(end)
            if at is None:
                snap = snap or c.snapshot()
                choices: list[AnyMove | None] = [None] * self.n
                for p, (i, _) in zip(open_players, combo, strict=True):
                    choices[p] = rests[p].options[i][0]
                at = self._intern(end, Route(parent, step, snap, skip, forgone, tuple(choices)))
            found.add(at)
        combined[signature] = result = frozenset(found)
        return result

    def _visit(self, skip: int, forgone: int, parent: Key | None, step: Step | None) -> frozenset[int]:
        """The ends reachable from the state in the engine (which is left as it was)."""
        c = self.captain
        boards = self.game.boards
        if self.reduce and self.settled():
            return self._settle(parent, step, skip, forgone)
        dec = self.decision(skip, forgone)
        d = dec.player
        if d is None:
            return self._settle(parent, step, skip, forgone)
        snap = c.snapshot()
        key = (*self.key(snap, True), dec.mode)
        hit = self._results.get(key)
        if hit is not None:
            return hit
        self._parents[key] = (parent, step)
        options = len(dec.moves) + (1 if dec.decline else 0)
        parts: list[frozenset[int] | set[int]] = []
        for move, swaps in self.explore(dec):
            before = boards[d].vp
            nskip, nforgone = self.follow(dec, move, forgone)
            sub = self._visit(nskip, nforgone, key, Step(d, move, options, boards[d].vp - before))
            if move is not None:
                c.restore(snap)
            parts.append(sub)
            parts.extend(self._swapped(sub, i, j) for i, j in swaps)
        # one union, in C; a forced move passes its child's ends on as they are (sets of
        # thousands of ends near the root: copying them at every node was a tenth of the time)
        first = parts[0]
        result = first if len(parts) == 1 and isinstance(first, frozenset) else frozenset().union(*parts)
        self._results[key] = result
        return result

    def _intern(self, end: End, route: Route | Swapped) -> int:
        """The id of an end of the phase (a new one remembers how it was reached)."""
        at = self._end_ids.get(end)
        if at is None:
            at = self._end_ids[end] = len(self._ends)
            self._ends.append(end)
            self._routes.append(route)
        return at

    def _swapped(self, ids: frozenset[int], i: int, j: int) -> set[int]:
        """The ends with the cargoes of ships `i` and `j` swapped."""
        out = set()
        for e in ids:
            hit = self._swaps.get((e, i, j))
            if hit is None:
                ships, goods, vps, money = self._ends[e]
                moved = list(ships)
                moved[i], moved[j] = ships[j], ships[i]
                hit = self._swaps[(e, i, j)] = self._intern((tuple(moved), goods, vps, money), Swapped(e, i, j))
            out.add(hit)
        return out

    def _outcome(self, e: int) -> Outcome:
        """An end of the phase, stored and unloaded: each player's result and the ships after."""
        ships, goods, vps, money = self._ends[e]
        players = tuple([self._player_outcome(p, goods[p], vps[p], money[p]) for p in range(self.n)])
        return Outcome(players, self._after(ships), e)

    def _after(self, ships: tuple[tuple[str | None, int], ...]) -> tuple[ShipRecord, ...]:
        """The cargo ships after unloading (remembered): the engine empties the full ones."""
        after = self._unloaded.get(ships)
        if after is None:
            c, g = self.captain, self.game
            for ship, (good, count) in zip(g.ships, ships, strict=True):
                ship.good, ship.count = good, count
            c.unload()
            after = self._unloaded[ships] = tuple(ShipRecord(s.size, s.good, s.count) for s in g.ships)
        return after

    def _player_outcome(self, p: int, goods: Goods, vp: int, money: int) -> PlayerOutcome:
        """One player's result: VP, barrels shipped (since the position), kept and lost in storage."""
        key = (p, goods, vp, money)
        hit = self._players.get(key)
        if hit is None:
            name = self.rules.name
            start = self.position.players[p].goods
            had = dict(zip(self._kinds[p], goods, strict=True))
            keeps = self._keeping(p, goods)
            shipped = {name(k): start.get(k, 0) - had.get(k, 0) for k in self.goods if start.get(k, 0) > had.get(k, 0)}
            kept = {name(k): keeps[k] for k in self.goods if keeps.get(k, 0) > 0}
            lost = {name(k): had.get(k, 0) - keeps.get(k, 0) for k in self.goods if had.get(k, 0) > keeps.get(k, 0)}
            hit = self._players[key] = PlayerOutcome(vp, shipped, kept, lost, money - self.game_start_doubloons[p])
        return hit

    def details(self, outcome: Outcome) -> Details:
        """A line of play leading to `outcome` (each step with the choices its player had), and
        the VP chips left after it: replayed in the engine."""
        line, chips, out = self._details(outcome.end)
        return Details(tuple(line), chips, out)

    def _details(self, e: int) -> tuple[list[Step], int, bool]:
        route = self._routes[e]
        if isinstance(route, Swapped):
            base, chips, out = self._details(route.base)
            a, b = self.game.ships[route.i].size, self.game.ships[route.j].size
            swap = {a: b, b: a}
            moved = []
            for s in base:
                if isinstance(s.move, Load) and s.move.ship in swap:
                    s = Step(s.player, Load(good=s.move.good, count=s.move.count, ship=swap[s.move.ship]), s.options, s.vp)
                moved.append(s)
            return moved, chips, out
        c, g = self.captain, self.game
        line: list[Step] = [] if route.step is None else [route.step]
        at = route.parent
        while at is not None:
            parent, step = self._parents[at]
            if step is not None:
                line.append(step)
            at = parent
        line.reverse()
        c.restore(route.entry)
        line += self._rest_line(route.skip, route.forgone, route.choices)
        chips, out = g.vp_chips, "vp" in g.triggers and self.position.vp_left is not None
        c.restore(self.root)
        return line, chips, out

    def _rest_line(self, skip: int, forgone: int, choices: tuple[AnyMove | None, ...]) -> list[Step]:
        """Play a settled phase to its end in turn order, each wharf owner making `choices`."""
        boards = self.game.boards
        line: list[Step] = []
        settled = self.reduce
        while True:
            dec = self.decision(skip, forgone, settled)
            d = dec.player
            if d is None:
                return line
            want = choices[d]
            if want is not None and want in dec.moves:
                move: AnyMove | None = want
            else:
                move = next((m for m in dec.moves if isinstance(m, Load)), DECLINE)
            before = boards[d].vp
            skip, forgone = self.follow(dec, move, forgone)
            line.append(Step(d, move, len(dec.moves) + (1 if dec.decline else 0), boards[d].vp - before))

    def _keep(self, p: int) -> dict[str, int]:
        """What player `p` keeps now: the most barrels the rules allow, the more valuable kinds first."""
        return self._keeping(p, tuple(self.game.boards[p].goods.values()))

    def _keeping(self, p: int, goods: Goods) -> dict[str, int]:
        """What player `p` would keep holding `goods` (remembered; do not change the result)."""
        key = (p, goods)
        hit = self._kept.get(key)
        if hit is None:
            kinds, barrels = self._storage[p]
            hit = self._kept[key] = preferred_keep(dict(zip(self._kinds[p], goods, strict=True)), kinds, barrels, self.rules)
        return hit

    def _kept_count(self, p: int, goods: Goods) -> int:
        """How many barrels player `p` would keep holding `goods`."""
        return sum(self._keeping(p, goods).values())

    # --- the best move ----------------------------------------------------------------------

    def best_for(self, target: int) -> Best:
        """The best next load of player `target` when every player maximises their own VP, then
        their kept barrels; a player indifferent between choices takes the one best for `target`
        (then the first, in the engine's order). That load, its VP, and the expected line."""
        c, g = self.captain, self.game
        boards = g.boards
        memo: dict[Key, tuple[tuple[int, ...], int]] = {}
        policies: dict[Key, tuple[AnyMove | None, ...]] = {}
        with _search():
            top = self._value(0, 0, target, memo, policies)
        line: list[Step] = []
        skip, forgone = 0, 0
        while True:
            dec, key = self._where(skip, forgone)
            if dec is None:
                line += self._rest_line(skip, forgone, policies[key])
                break
            d = dec.player
            assert d is not None
            move = self.options(dec)[memo[key][1]]
            before = boards[d].vp
            skip, forgone = self.follow(dec, move, forgone)
            line.append(Step(d, move, len(dec.moves) + (1 if dec.decline else 0), boards[d].vp - before))
        c.restore(self.root)
        self.states = max(self.states, len(memo))
        first = next((s for s in line if s.player == target and s.move is not None), None)
        return Best(
            player=target,
            move=first.move if first else None,
            vp=first.vp if first else 0,
            phase_vp=top[2 * target],
            kept=top[2 * target + 1],
            line=tuple(line),
        )


    def _where(self, skip: int, forgone: int) -> tuple[Decision | None, Key]:
        """The decision (None: a settled phase or its end) and the memo key of this state."""
        c = self.captain
        if not (self.reduce and self.settled()):
            dec = self.decision(skip, forgone)
            if dec.player is not None:
                return dec, (*self.key(c.snapshot(), False), dec.mode)
        return None, (*self.key(c.snapshot(), False), ("s", forgone))

    def _value(
        self, skip: int, forgone: int, target: int, memo: dict[Key, tuple[tuple[int, ...], int]], policies: dict[Key, tuple[AnyMove | None, ...]]
    ) -> tuple[int, ...]:
        """Each player's (VP, kept barrels) from the state in the engine on, every player
        maximising their own (see `best_for`); the choices made are remembered in `memo`, by
        index, and in `policies` for settled phases."""
        c, boards, n = self.captain, self.game.boards, self.n
        dec, key = self._where(skip, forgone)
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        if dec is None:
            vals: list[int] = []
            policy: list[AnyMove | None] = []
            for p, rest in enumerate(self._settled(forgone).rests):
                ranked = [((s.vp, self._kept_count(p, s.goods)), i) for i, (_, s) in enumerate(rest.options)]
                top_rank, i = max(ranked, key=lambda r: (r[0], -r[1]))
                vals += list(top_rank)
                policy.append(rest.options[i][0])
            memo[key] = (tuple(vals), -1)
            policies[key] = tuple(policy)
            return memo[key][0]
        d = dec.player
        assert d is not None
        snap = c.snapshot()
        best: tuple[int, ...] | None = None
        best_rank: tuple[int, ...] = ()
        best_i = 0
        for i, move in enumerate(self.options(dec)):
            before = [b.vp for b in boards]
            nskip, nforgone = self.follow(dec, move, forgone)
            gained = [b.vp - v for b, v in zip(boards, before, strict=True)]
            child = self._value(nskip, nforgone, target, memo, policies)
            if move is not None:
                c.restore(snap)
            v = list(child)
            for p in range(n):
                v[2 * p] += gained[p]
            rank = (v[2 * d], v[2 * d + 1], v[2 * target], v[2 * target + 1])
            if best is None or rank > best_rank:
                best, best_rank, best_i = tuple(v), rank, i
        assert best is not None
        memo[key] = (best, best_i)
        return best

@dataclass(slots=True)
class ShippingResult:
    """What `referee ship` prints: the outcomes (with their lines), the best move, search figures."""

    position: Position
    shipping: Shipping
    outcomes: list[Outcome]
    best: Best | None = None
    states: int = 0

    def details(self, outcome: Outcome) -> Details:
        """A line of play leading to `outcome`, and the VP chips after it."""
        return self.shipping.details(outcome)


def _added(ships: tuple[int, ...], first: tuple[int, ...]) -> tuple[int, ...] | None:
    """Barrels per ship beyond those of the first choice (None: the same)."""
    more = tuple([a - b for a, b in zip(ships, first, strict=True)])
    return more if any(more) else None


class _search:
    """For the length of a search: a recursion limit above the deepest line of play (a few
    hundred decisions at most), and the cyclic garbage collector paused. The search makes no
    reference cycles, but its memo tables grow to hundreds of thousands of objects, which the
    collector would otherwise walk again and again (a fifth of the time, measured)."""

    def __enter__(self) -> None:
        self.old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.old, 20_000))
        self.collecting = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.old)
        if self.collecting:
            gc.enable()


def _setup(position: Position) -> tuple[Game, Captain]:
    """A game holding only what the captain phase needs, with the captain's phase started."""
    rules = position.rules
    try:
        game = Game(rules, [p.name for p in position.players], face_up=None)
        for board, player in zip(game.boards, position.players, strict=True):
            board.goods = dict(player.goods)
            board.buildings = {b: 1 for b in player.buildings}
        game.ships = [CargoShip(s.size, s.good, s.count) for s in position.ships]
        if position.vp_left is not None:
            game.vp_chips = position.vp_left
        for good in rules.goods:
            held = sum(s.count for s in position.ships if s.good == good) + sum(p.goods.get(good, 0) for p in position.players)
            game.goods_supply[good] = max(0, game.goods_supply[good] - held)
        game.choose_role(0, "captain")
    except RuleViolation as exc:
        raise InputError([Diagnostic(exc.rule, exc.message, position.players_location, READ_ERROR)]) from None
    phase = game.phase
    assert isinstance(phase, Captain)
    return game, phase


def calculate(position: Position, for_player: int | None = None) -> ShippingResult:
    """Play the position's captain phase out: every distinct outcome, and with `for_player` the
    best next load of that player (backward induction over the phase)."""
    shipping = Shipping(position)
    outcomes = shipping.play_out()
    result = ShippingResult(position, shipping, outcomes, states=shipping.states)
    if for_player is not None:
        result.best = shipping.best_for(for_player)
    return result
