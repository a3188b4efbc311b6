"""The captain phase as the calculator searches it: compact states of small integers
(`compact`), and the moves between them, scored by the engine's own rule functions.

The position is first set up in the engine (`Game`, `Captain`): that checks it, and pays the
powers at the start of the phase (union hall, the captain's lighthouse). From there the phase
is a graph of states; every rule of a move is the engine's (`ships_taking` and `loadable` for
which ship takes what, `Shipper` for the VP and doubloons of a load, `preferred_keep` for
storage). What this module adds is the shape of the graph, and reductions, all exact:

- **Players drop out.** A player who cannot load on a cargo ship now never can again (ships only
  fill up during the phase). What they still may do (their wharf or small wharf, at any turn of
  theirs, or not at all) touches nobody else, so it is settled once, on its own, as their *tail*
  (`tails`), and the player leaves the state. The decision at a state is therefore always that
  of the next player who can load on a cargo ship, who must load (on a cargo ship or a wharf).
- **Players whose loads crowd nobody drop out too** (`Reductions.independent`). A kind on a cargo
  ship with room for every barrel anyone holds of it is *roomy*: whoever loads it loads all they
  hold, and takes nothing from anyone (the ship stays roomy: a load takes as much room as
  barrels). A player all of whose loadable kinds are roomy loads, at each of their turns, what
  only they feel; their rest, loads included, is their tail. The decision at a state is that of
  the next player holding a *contested* kind (a loadable kind that is not roomy).
- **Exact for the guaranteed VP too.** A player who drops out takes nothing from anyone and
  nobody takes anything from them: the phase around them is the same game without them, and
  theirs, their tail, is played alone, so what they are guaranteed there is the most it reaches.
- **Whose turn, not the turn pointer.** A state names the player to decide, not the pointer
  that led there: players between the two have dropped out.

States whose values are the same, or differ by VP certain to come, share one memo key
(`keys`). Each state is settled (players dropped out, decider found, key read) as it is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, RuleViolation
from referee.documents.position import Position
from referee.engine.captain_rules import PrivateMove, Shipper, Turns, holds_loadable, loadable, private_moves, ships_taking
from referee.engine.game import Game
from referee.engine.phases.captain import Captain, load_move, preferred_keep
from referee.engine.state import CargoShip
from referee.jobs.shipping.compact import HEAD, LOAD, SMALL_WHARF, WHARF, Goods, Move, State, T, replaced
from referee.jobs.shipping.keys import Key, Keys, Shift
from referee.jobs.shipping.tails import Places, Tail, TailKey, Tails
from referee.moves.clauses import AnyMove, SmallWharfLoad, WharfLoad
from referee.rulesets.rules import Rules

__all__ = ["ALL", "HEAD", "LOAD", "PLAIN", "SMALL_WHARF", "WHARF", "CaptainPhase", "Cargo", "Goods", "Key", "Move", "Reductions", "Shift", "State", "Step", "T", "Tail", "TailKey", "replaced", "setup"]


@dataclass(frozen=True, slots=True)
class Reductions:
    """The reductions that may be turned off (to compare the search with and without them: the
    answer is the same)."""

    independent: bool = True  # players whose loadable kinds are all roomy drop out, loads and all
    roomy: bool = True  # the barrels on a roomy ship are left out of a state's key
    tokens: bool = True  # roomy barrels certain to be loaded count in a state's key as the turns they take
    storage: bool = True  # dead barrels stuck with a player count in a state's key as storage treats them


ALL = Reductions()
PLAIN = Reductions(independent=False, roomy=False, tokens=False, storage=False)  # the search with none of them (the outcome list walks it)


@dataclass(frozen=True, slots=True)
class Cargo:
    """What the cargo ships take, read once for each load of the ships: the kinds a cargo ship
    can still take (the engine's `loadable`; the others are *dead*: no cargo ship will take them
    again in this phase), and of those the ones on a ship."""

    live: tuple[int, ...]
    placed: tuple[tuple[int, int, int], ...]  # live kinds on a ship: (kind, ship, room left)
    place: tuple[int, ...]  # each kind's ship (-1: on none)
    dead: tuple[int, ...]
    _contested: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False)  # by the roomy kinds' bit mask
    places: dict[int, Places] = field(default_factory=dict, compare=False)  # a dropping player's places, by the roomy kinds they hold (bit mask)
    counts: tuple[int, ...] = ()  # the barrels on each ship
    kinds: tuple[int | None, ...] = ()  # the kind on each ship (None: empty)
    _marked: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict, compare=False)  # by the roomy kinds' bit mask
    _loads: dict[Goods, tuple[Load, ...]] = field(default_factory=dict, compare=False)  # by the loading player's barrels

    @staticmethod
    def read(sizes: Sequence[int], cargo: State, kinds_n: int) -> Cargo:
        """The ships of sizes `sizes` with `cargo` (kinds, then counts) aboard."""
        s = len(sizes)
        kinds, counts = tuple([None if kind < 0 else kind for kind in cargo[:s]]), list(cargo[s:])
        room, empty = loadable(sizes, kinds, counts)
        live = tuple(k for k in range(kinds_n) if holds_loadable(((k, 1),), room, empty))
        placed = tuple((kind, i, sizes[i] - counts[i]) for i, kind in enumerate(kinds) if kind is not None and kind in live)
        place = [-1] * kinds_n
        for i, kind in enumerate(kinds):
            if kind is not None:
                place[kind] = i
        return Cargo(live, placed, tuple(place), tuple(k for k in range(kinds_n) if k not in live), counts=tuple(counts), kinds=kinds)

    def marked(self, roomy: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The barrels on each ship, and each kind's ship, with the roomy ones (`roomy`: their
        bit mask) marked: -1 barrels (any number: see `keys`), ship -2."""
        hit = self._marked.get(roomy)
        if hit is None:
            counts, place = list(self.counts), list(self.place)
            for k, i, _ in self.placed:
                if roomy >> k & 1:
                    counts[i] = -1
                    place[k] = -2
            hit = self._marked[roomy] = (tuple(counts), tuple(place))
        return hit

    def loads(self, sizes: Sequence[int], have: Goods) -> tuple[Load, ...]:
        """The loads on these ships of a player holding `have` (the engine's `ships_taking`), in
        the engine's order: each (kind, ship, barrels loaded, barrels left). A table of the
        position, read once for each set of barrels: the same ships meet the same barrels in
        many states."""
        hit = self._loads.get(have)
        if hit is None:
            out: list[Load] = []
            for k in self.live:
                held = have[k]
                if held:
                    amount, taking = ships_taking(sizes, self.kinds, self.counts, k, held)
                    out.extend((k, i, amount, held - amount) for i in taking)
            hit = self._loads[have] = tuple(out)
        return hit

    def contested(self, roomy: int) -> tuple[int, ...]:
        """The live kinds that are not roomy (`roomy`: their bit mask)."""
        hit = self._contested.get(roomy)
        if hit is None:
            hit = self._contested[roomy] = tuple(k for k in self.live if not roomy >> k & 1)
        return hit


Load = tuple[int, int, int, int]  # a load on a cargo ship: kind, ship index, barrels loaded, barrels of the kind left
Drops = tuple[tuple[int, TailKey], ...]  # the players who dropped out, each with their tail's key


class Step:
    """One transition of the search: the decider's move, what it earned them, the state it
    leads to, the players who dropped out with it, and what the state's key is read from
    (`keys`): what its ships take, and its roomy kinds. (A plain class: mypyc compiles it to a
    structure whose fields the search reads directly.)"""

    __slots__ = ("child", "doubloons", "drops", "move", "roomy", "ships", "vp")

    def __init__(self, move: Move, vp: int, doubloons: int, child: State, drops: Drops, ships: Cargo, roomy: int) -> None:
        self.move = move
        self.vp = vp
        self.doubloons = doubloons
        self.child = child
        self.drops = drops
        self.ships = ships
        self.roomy = roomy  # bit mask


class CaptainPhase:
    """A position's captain phase: its root state and the moves from any state."""

    def __init__(self, position: Position, reductions: Reductions = ALL) -> None:
        """Set the position up in the engine (InputError if it cannot be) and read it compactly."""
        self.position = position
        self.reductions = reductions
        self.rules: Rules = position.rules
        game, captain = setup(position)
        self.n = game.n
        self.kinds: tuple[str, ...] = tuple(self.rules.goods)
        self.sizes = tuple(s.size for s in game.ships)
        self.shippers: tuple[Shipper, ...] = tuple(captain.shippers)
        index = {good: k for k, good in enumerate(self.kinds)}
        self._cargo: dict[State, Cargo] = {}  # what the ships take, by their kinds and counts
        start_money = self.rules.players(self.n).doubloons
        self.start_vp = tuple(b.vp for b in game.boards)  # union halls
        self.start_doubloons = tuple(b.doubloons - start_money for b in game.boards)  # the captain's lighthouse
        self.start_goods: tuple[Goods, ...] = tuple(tuple(b.goods.get(good, 0) for good in self.kinds) for b in game.boards)
        kinds = tuple(-1 if s.good is None else index[s.good] for s in game.ships)  # -1: empty
        counts = tuple(s.count for s in game.ships)
        self.ships = len(self.sizes)
        self._kinds_n = len(self.kinds)
        self.goods_at = HEAD + 2 * self.ships  # where the players' barrels start in a state
        self._nothing = (0,) * len(self.kinds)
        self._nowhere: Places = (-1,) * len(self.kinds)
        self._no_place = [-1] * len(self.kinds)
        # the decider: by turn pointer and bit mask of the players in the state, the first of them from the pointer (-1: none)
        self._decider = Turns(self.n).table
        self._keeps: dict[tuple[int, Goods], Goods] = {}
        self._unloader: Captain | None = None  # `unloaded`'s (a plain attribute: mypyc's classes take no cached_property)
        self._private: dict[tuple[int, Goods, bool, bool, bool], list[PrivateMove]] = {}  # `private_moves`, by its arguments
        self._roomy_matters = reductions.independent or reductions.roomy or reductions.tokens
        self._independent = reductions.independent
        self.tails = Tails(self)
        self.keys = Keys(self)
        goods = [n for held in self.start_goods for n in held]
        self.root, self.root_drops, ships, roomy = self.settle([0, 0, 0, 0, (1 << self.n) - 1, *kinds, *counts, *goods], 0, None, None)
        self.root_key, self.root_shift = self.keys.key(self.root, ships, roomy)
        self.doubloons = any(s.load_doubloons or s.start_doubloons for s in self.shippers)  # a lighthouse: doubloons change hands

    # --- states and moves -------------------------------------------------------------------

    def cargo(self, state: State) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
        """The kind on each cargo ship (None: empty) and its barrels."""
        s = self.ships
        return tuple([None if kind < 0 else kind for kind in state[HEAD : HEAD + s]]), state[HEAD + s : HEAD + 2 * s]

    def settle(self, state: list[int], pointer: int, mover: int | None, before: tuple[int, ...] | None, ships: Cargo | None = None) -> tuple[State, Drops, Cargo, int]:
        """The state after a move, from a list that the caller gives up (turn pointer at
        `pointer`; `ships`: what its cargo ships take, when the move left them as they were):
        players who hold no contested kind drop out (with their tails' keys), and the decider
        is found. When the contested kinds are still `before` (those before the move), only the
        `mover` can have dropped out: nobody else's barrels changed. With the state: what its
        ships take and its roomy kinds (to read its key with, `keys`)."""
        kinds_n, at, n = self._kinds_n, self.goods_at, self.n
        if ships is None:
            ships = self.ships_taking_kinds(state)
        roomy = self.roomy(state, ships)
        contested = self._contested(ships, roomy)
        drops: Drops = ()
        active: int = state[4]
        for p in range(n) if mover is None or contested != before else (mover,):
            if active >> p & 1:
                base = at + p * kinds_n
                for k in contested:
                    if state[base + k]:
                        break
                else:  # nothing anyone else feels: out (their barrels of a roomy kind gone, it stays roomy)
                    have: Goods = tuple(state[base : base + kinds_n])
                    bit = 1 << p
                    drops += ((p, (p, have, bool(state[2] & bit), bool(state[3] & bit), p == 0 and state[1] == 1, self._places(state, have, ships, roomy) if roomy else self._nowhere)),)
                    state[base : base + kinds_n] = self._nothing
                    active &= ~bit
                    state[2] &= ~bit
                    state[3] &= ~bit
        state[4] = active
        state[0] = self._decider[pointer][active]
        if not active & 1:
            state[1] = 0
        return tuple(state), drops, ships, roomy

    def _places(self, state: Sequence[int], have: Goods, ships: Cargo, roomy: int) -> Places:
        """Where a player who drops out holding roomy kinds loads each of them: the ship that
        takes it (`ships_taking`: the one carrying it, which has room for all they hold)."""
        held = 0
        for k, _, _ in ships.placed:
            if have[k] and roomy >> k & 1:
                held |= 1 << k
        if not held:
            return self._nowhere
        hit = ships.places.get(held)
        if hit is None:
            s = self.ships
            kinds, counts = ships.kinds, state[HEAD + s : HEAD + 2 * s]
            places = self._no_place[:]
            for k, _, room in ships.placed:
                if held >> k & 1:
                    _, taking = ships_taking(self.sizes, kinds, counts, k, room)
                    assert len(taking) == 1, "a kind on a ship goes there only"
                    places[k] = taking[0]
            hit = ships.places[held] = tuple(places)
        return hit

    def steps(self, state: State) -> list[Step]:
        """The decider's moves from `state`, in the engine's order (cargo loads by kind and ship,
        then the wharf, then the small wharf), each with where it leads."""
        q: int = state[0]
        assert q >= 0
        s, kinds_n = self.ships, self._kinds_n
        base = self.goods_at + q * kinds_n
        have: Goods = state[base : base + kinds_n]
        powers = self.shippers[q]
        first = q == 0 and not state[1]
        after = (q + 1) % self.n
        bit = 1 << q
        counts = state[HEAD + s : self.goods_at]
        ships = self.ships_taking_kinds(state)
        contested = self._contested(ships, self.roomy(state, ships))
        settle = self.settle
        out: list[Step] = []
        for k, i, amount, remaining in ships.loads(self.sizes, have):
            child = list(state)
            child[HEAD + i] = k
            child[HEAD + s + i] = counts[i] + amount
            child[base + k] = remaining
            if q == 0:
                child[1] = 1
            settled, drops, taking, roomy = settle(child, after, q, contested)
            out.append(Step((LOAD, k, i, amount), powers.load(amount, first), powers.load_doubloons, settled, drops, taking, roomy))
        wharf_used, small_used = bool(state[2] & bit), bool(state[3] & bit)
        for move, left, wharf_after, small_after, loaded_after, vp, money in self.private_moves(q, have, wharf_used, small_used, q == 0 and bool(state[1])):
            child = list(state)
            child[base : base + kinds_n] = left
            child[2] = state[2] | bit if wharf_after else state[2]
            child[3] = state[3] | bit if small_after else state[3]
            if q == 0 and loaded_after:
                child[1] = 1
            settled, drops, taking, roomy = settle(child, after, q, contested, ships)
            out.append(Step(move, vp, money, settled, drops, taking, roomy))
        return out

    def ships_taking_kinds(self, state: Sequence[int]) -> Cargo:
        """What the cargo ships of `state` take (`Cargo`: the engine's `loadable`), read once for
        each load of the ships."""
        cargo = tuple(state[HEAD : self.goods_at])
        return self._cargo.get(cargo) or self._read_cargo(cargo)

    def _read_cargo(self, cargo: State) -> Cargo:
        """What ships with `cargo` aboard (kinds, then counts) take, remembered."""
        hit = self._cargo[cargo] = Cargo.read(self.sizes, cargo, self._kinds_n)
        return hit

    def roomy(self, state: Sequence[int], ships: Cargo) -> int:
        """The roomy kinds of `state` (its cargo ships read as `ships`; none unless a reduction
        reads them), as a bit mask: on a cargo ship with room for every barrel the players in the
        state hold of it (a player who dropped out holds none that a cargo ship takes, or holds it
        on a ship with room for theirs besides: see the module)."""
        if not ships.placed or not self._roomy_matters:
            return 0
        at, kinds_n = self.goods_at, self._kinds_n
        mask = 0
        for k, _, room in ships.placed:
            if sum(state[at + k :: kinds_n]) <= room:
                mask |= 1 << k
        return mask

    def _contested(self, ships: Cargo, roomy: int) -> tuple[int, ...]:
        """The kinds a cargo ship can take (`ships`) that are contested: all of them, unless
        `Reductions.independent`: those that are not roomy (`roomy`: their bit mask)."""
        return ships.contested(roomy) if roomy and self._independent else ships.live

    # --- the players who dropped out ---------------------------------------------------------

    def tail(self, key: TailKey) -> Tail:
        """A dropped-out player's rest of the phase (`tails`)."""
        return self.tails.tail(key)

    def tail_options(self, key: TailKey) -> list[tuple[Move | None, Tail]]:
        """A dropped-out player's first decision: each first move (None: no move at all), and
        the tail that it leaves."""
        return self.tails.options(key)

    def private_moves(self, p: int, goods: Goods, wharf_used: bool, small_used: bool, loaded: bool) -> list[PrivateMove]:
        """Player `p`'s moves on their wharf and small wharf, holding `goods` (`loaded`: they have
        loaded in this phase): (move, barrels after, wharf used, small wharf used, loaded, VP,
        doubloons). The decider's, among their other moves, and a dropped-out player's tail.
        The rules' own list (`captain_rules.private_moves`), made a table of the position, each
        entry made once (a small wharf's shipments are many, and the same barrels come back in
        many states)."""
        table_key = (p, goods, wharf_used, small_used, loaded)
        hit = self._private.get(table_key)
        if hit is None:
            hit = self._private[table_key] = private_moves(self.shippers[p], goods, wharf_used, small_used, loaded, p == 0 and not loaded)
        return hit

    # --- storage, ships, words --------------------------------------------------------------

    def keep(self, p: int, goods: Goods) -> Goods:
        """What player `p` keeps holding `goods` at the end: the engine's `preferred_keep`."""
        hit = self._keeps.get((p, goods))
        if hit is None:
            powers = self.shippers[p]
            held = {good: n for good, n in zip(self.kinds, goods, strict=True) if n}
            kept = preferred_keep(held, powers.store_kinds, powers.store_barrels, self.rules)
            hit = self._keeps[(p, goods)] = tuple(kept.get(good, 0) for good in self.kinds)
        return hit

    def unloaded(self, kinds: Sequence[int | None], counts: Sequence[int]) -> tuple[tuple[int | None, int], ...]:
        """The cargo ships after the phase: the engine's `Captain.unload` empties the full ones."""
        ships = [CargoShip(size, None if kind is None else self.kinds[kind], held) for size, kind, held in zip(self.sizes, kinds, counts, strict=True)]
        captain = self._unloader
        if captain is None:  # a captain phase of its own, set up once: unloading changes its game's ships
            captain = self._unloader = setup(self.position)[1]
        captain.game.ships = ships
        captain.unload()
        index = {good: k for k, good in enumerate(self.kinds)}
        return tuple((None if s.good is None else index[s.good], s.count) for s in ships)

    def move(self, move: Move) -> AnyMove:
        """A compact move as the game log writes it."""
        if move[0] == LOAD:
            _, k, i, amount = move
            assert isinstance(k, int) and isinstance(i, int) and isinstance(amount, int)
            return load_move(self.kinds[k], amount, self.sizes[i])
        if move[0] == WHARF:
            kind = move[1]
            assert isinstance(kind, int)
            return WharfLoad(good=self.kinds[kind])
        shipped = move[1]
        assert isinstance(shipped, tuple)
        return SmallWharfLoad(goods=tuple((self.kinds[k], n) for k, n in enumerate(shipped) if n))


def setup(position: Position) -> tuple[Game, Captain]:
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
