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
from dataclasses import dataclass
from typing import Final

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, RuleViolation
from referee.documents.position import Position
from referee.engine.captain_rules import PrivateMove, Shipper, Turns, holds_loadable, loadable, ships_taking, turn_after
from referee.engine.game import Game
from referee.engine.phases.captain import Captain, load_move
from referee.engine.state import CargoShip
from referee.jobs.shipping.compact import (
    ACTIVE,
    CAPTAIN_LOADED,
    DECIDER,
    LOAD,
    MOST_PLAYERS,
    PACKED_BITS,
    ROW_0,
    ROW_1,
    ROW_2,
    ROW_3,
    ROW_4,
    ROW_BITS,
    ROWS,
    SHIPS,
    SMALL_WHARF,
    SMALL_WHARF_USED,
    WHARF,
    WHARF_USED,
    Goods,
    Move,
    State,
    T,
    i64,
    replaced,
    row,
    with_row,
)
from referee.jobs.shipping.keys import Key, Keys, Shift, new_table
from referee.jobs.shipping.memo import IntTable
from referee.jobs.shipping.tails import OwnMoves, Places, Tail, TailKey, Tails
from referee.moves.clauses import AnyMove, SmallWharfLoad, WharfLoad
from referee.rulesets.rules import Rules

__all__ = [
    "ALL",
    "LOAD",
    "PLAIN",
    "ROWS",
    "SHIPS",
    "SMALL_WHARF",
    "WHARF",
    "CaptainPhase",
    "Cargo",
    "Goods",
    "Key",
    "Move",
    "Reductions",
    "Room",
    "Shift",
    "State",
    "Step",
    "T",
    "Tail",
    "TailKey",
    "Visitor",
    "replaced",
    "row",
    "setup",
]


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


class Cargo:
    """What the cargo ships take, read once for each load of the ships: the kinds a cargo ship
    can still take (the engine's `loadable`; the others are *dead*: no cargo ship will take them
    again in this phase), and of those the ones on a ship. (A plain class, as `Step`: compiled,
    its fields are read directly, where a frozen dataclass's would be looked up by name.)"""

    __slots__ = ("_kind_loads", "aboard", "counts", "dead", "dead_mask", "kinds", "known_loads", "live", "load_numbers", "loaded", "number", "packed", "place", "placed", "placed_kinds", "places", "rooms")

    def __init__(
        self, live: tuple[int, ...], placed: tuple[tuple[int, int, int], ...], place: tuple[int, ...], dead: tuple[int, ...], counts: tuple[int, ...], kinds: tuple[int | None, ...], aboard: int
    ) -> None:
        self.live = live
        self.placed = placed  # live kinds on a ship: (kind, ship, room left)
        self.placed_kinds: i64 = sum(1 << kind for kind, _, _ in placed)  # the same kinds, as a bit mask
        self.rooms: tuple[tuple[int, int, int], ...] = ()  # each of them, as its bit, its place in a row and the room left for it (`CaptainPhase._read_cargo`)
        self.place = place  # each kind's ship (-1: on none)
        self.dead = dead
        self.dead_mask: i64 = sum(1 << k for k in dead)  # the same kinds, as a bit mask
        self.counts = counts  # the barrels on each ship
        self.kinds = kinds  # the kind on each ship (None: empty)
        self.aboard = aboard  # the barrels on each ship, one field of `CaptainPhase.ship_bits` a ship, each plus one (the key's)
        self.places: dict[int, tuple[Places, int]] = {}  # a dropping player's places and their number, by the roomy kinds they hold (bit mask)
        self.packed = 0  # the ships as a state packs them (`CaptainPhase._read_cargo` sets it, and the next two)
        self.number = 0  # this one's number among the phase's (`CaptainPhase._rooms`)
        # the ships after each load (`CaptainPhase._after_load`, by the load's code; None: not read yet): a list,
        # where a dictionary would be a look-up at every load (no cycle: a load only fills the ships)
        self.loaded: list[Cargo | None] = []
        self.known_loads: list[tuple[Load, ...]] = []  # `loads`, each set met
        self.load_numbers = new_table()  # its number there, by the loading player's row
        self._kind_loads: dict[int, tuple[Load, ...]] = {}  # the loads of one kind, by the kind and the barrels held (`loads`)

    @staticmethod
    def read(sizes: Sequence[int], kinds: tuple[int | None, ...], counts: tuple[int, ...], kinds_n: int, ship_bits: int) -> Cargo:
        """The ships of sizes `sizes` with `counts` barrels of `kinds` aboard."""
        room, empty = loadable(sizes, kinds, counts)
        live = tuple(k for k in range(kinds_n) if holds_loadable(((k, 1),), room, empty))
        placed = tuple((kind, i, sizes[i] - counts[i]) for i, kind in enumerate(kinds) if kind is not None and kind in live)
        place = [-1] * kinds_n
        for i, kind in enumerate(kinds):
            if kind is not None:
                place[kind] = i
        aboard = sum(count + 1 << i * ship_bits for i, count in enumerate(counts))
        return Cargo(live, placed, tuple(place), tuple(k for k in range(kinds_n) if k not in live), counts, kinds, aboard)

    def loads(self, sizes: Sequence[int], have: Goods, code: int, kind_at: tuple[int, ...], most_loaded: int) -> tuple[Load, ...]:
        """The loads on these ships of a player holding `have` (the engine's `ships_taking`), in
        the listing's order (by kind, in the ruleset's order of goods, then ship); worked out once for each set of barrels and
        remembered in `known_loads` under `code` (`have` packed as a row, whose kinds lie at
        `kind_at`; `CaptainPhase.visit` reads the table first): the same ships meet the same
        barrels in many states. (`most_loaded`: the barrels a load may take, and none.)"""
        out: list[Load] = []
        kinds_n = len(self.place)
        for k in self.live:
            held = have[k]
            if held:
                # the loads of a kind depend on the barrels of that kind alone: the engine's rule asked once for each
                kind_code = held * kinds_n + k
                loads = self._kind_loads.get(kind_code)
                if loads is None:
                    amount, taking = ships_taking(sizes, self.kinds, self.counts, k, held)
                    loads = self._kind_loads[kind_code] = tuple([Load(k, i, amount, (i * kinds_n + k) * most_loaded + amount, amount << kind_at[k]) for i in taking])
                out.extend(loads)
        hit = tuple(out)
        self.load_numbers.put(code, len(self.known_loads))
        self.known_loads.append(hit)
        return hit


Drops = tuple[tuple[int, int], ...]  # the players who dropped out, each with their tail's number (`CaptainPhase.tail_keys`)
NO_DROPS: Final[Drops] = ()


class Room:
    """The cargo ships of a state (`Cargo`) with its roomy kinds: what the state's drops and key
    read off them, worked out once for each such pair."""

    __slots__ = ("aboard", "contested", "contested_bits", "places", "roomy", "ships", "tails", "tokens")

    def __init__(self, ships: Cargo, roomy: int, contested: tuple[int, ...], contested_bits: int, aboard: int, places: int) -> None:
        self.ships = ships
        self.roomy: i64 = roomy  # bit mask
        self.contested = contested  # the kinds anyone else feels (`CaptainPhase.settle`)
        self.contested_bits: i64 = contested_bits  # every bit of those kinds in a row: a player holds one where their row has one
        self.aboard: i64 = aboard  # the key's barrels on each ship (`Cargo.aboard`, roomy ships marked 0 where that reduction is on)
        # the key's ship of each kind, plus two (0: roomy, where that reduction is on; 1: on none), `Keys.place_bits` a kind, the first lowest
        self.places: i64 = places
        self.tokens = tuple(k for k, _, _ in ships.placed if roomy >> k & 1)  # the roomy kinds on a ship (`keys`: tokens)
        self.tails: IntTable = new_table()  # a player who drops out here with their tail's number (`CaptainPhase.drops`), by their key packed (`settle`)


class Load:
    """A load on a cargo ship, as the search reads it: the kind, the ship, the barrels loaded,
    where the ships after it are listed (`Cargo.loaded`), the barrels it takes from a row, and
    the move. (A plain class of native fields, compiled: read without unpacking a tuple.)"""

    __slots__ = ("amount", "code", "kind", "move", "ship", "taken")

    def __init__(self, kind: int, ship: int, amount: int, code: int, taken: int) -> None:
        self.kind: i64 = kind
        self.ship: i64 = ship
        self.amount: i64 = amount
        self.code: i64 = code  # (`CaptainPhase._after_load`)
        self.taken: i64 = taken
        self.move: Move = (LOAD, kind, ship, amount)


class Private:
    """A move on a wharf or small wharf, as the search reads it (`captain_rules.private_moves`):
    the move, the barrels it takes from a row, the flags it sets, what it earns."""

    __slots__ = ("captain", "money", "move", "small_wharf", "taken", "vp", "wharf")

    def __init__(self, private: PrivateMove, taken: int) -> None:
        move, _, wharf_after, small_after, loaded_after, vp, money = private
        self.move = move
        self.taken: i64 = taken
        self.wharf = wharf_after  # the wharf used after it
        self.small_wharf = small_after  # the small wharf used after it
        self.captain = loaded_after  # the player has loaded (the captain's privilege given)
        self.vp: i64 = vp
        self.money: i64 = money


class Visitor:
    """What the moves from a state are handed to, one at a time (`CaptainPhase.visit`, the one
    loop over a decider's moves): the valuation folds them into the state's values as they come
    (no object made for a move), `steps` lists them."""

    def move(self, move: Move, vp: int, doubloons: int, child: State, drops: Drops, room: Room, cargo: bool) -> None:
        """One move: what it earned the decider, the state it leads to (settled), the players who
        dropped out with it, what the child's ships take with its roomy kinds (`keys`), and
        whether it was a load on a cargo ship (`cargo`: the dead kinds' barrels stay as they were)."""
        raise NotImplementedError


class Step:
    """One transition of the search, as `CaptainPhase.steps` lists it: the decider's move, what
    it earned them, the state it leads to, the players who dropped out with it, and what the
    state's key is read from (`keys`): what its ships take, and its roomy kinds. (A plain class:
    mypyc compiles it to a structure whose fields are read directly.)"""

    __slots__ = ("child", "doubloons", "drops", "move", "room", "vp")

    def __init__(self, move: Move, vp: int, doubloons: int, child: State, drops: Drops, room: Room) -> None:
        self.move = move
        self.vp = vp
        self.doubloons = doubloons
        self.child = child
        self.drops = drops
        self.room = room


class Steps(Visitor):
    """The moves from a state as a list of `Step`s (the expected play, the outcome list, tests)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def move(self, move: Move, vp: int, doubloons: int, child: State, drops: Drops, room: Room, cargo: bool) -> None:
        """One more step."""
        self.steps.append(Step(move, vp, doubloons, child, drops, room))


class CaptainPhase:
    """A position's captain phase: its root state and the moves from any state."""

    def __init__(self, position: Position, reductions: Reductions = ALL) -> None:
        """Set the position up in the engine (InputError if it cannot be) and read it compactly."""
        self.position = position
        self.reductions = reductions
        self.rules: Rules = position.rules
        game, captain = setup(position)
        n = self.n = game.n
        self.players: i64 = n  # (the same, a native integer: read at every move)
        self.kinds: tuple[str, ...] = tuple(self.rules.goods)
        self.sizes = tuple(s.size for s in game.ships)
        self.shippers: tuple[Shipper, ...] = tuple(captain.shippers)
        index = {good: k for k, good in enumerate(self.kinds)}
        start_money = self.rules.players(n).doubloons
        self.start_vp = tuple(b.vp for b in game.boards)  # union halls
        self.start_doubloons = tuple(b.doubloons - start_money for b in game.boards)  # the captain's lighthouse
        self.start_goods: tuple[Goods, ...] = tuple(tuple(b.goods.get(good, 0) for good in self.kinds) for b in game.boards)
        kinds = tuple(-1 if s.good is None else index[s.good] for s in game.ships)  # -1: empty
        counts = tuple(s.count for s in game.ships)
        self.ships = len(self.sizes)
        self._kinds_n = len(self.kinds)
        # the packing (`compact`): each player's barrels of a kind in `width` bits of their row,
        # wide enough for all the players' barrels of a kind together (the rows' sum holds every
        # kind's total, no field overflowing); each ship's kind and barrels in `ship_bits`
        most = max([sum(held[k] for held in self.start_goods) for k in range(self._kinds_n)], default=0)
        self.width = width = max(1, most.bit_length())
        self.low = (1 << width) - 1
        self.kind_at = tuple(width * (self._kinds_n - 1 - k) for k in range(self._kinds_n))  # where kind k's barrels lie in a row: the first kind highest
        self.at = tuple(width * (n - 1 - p) for p in range(n))  # where player p's barrels lie in a column (`keys`): the first player highest
        most_aboard = max(self.sizes, default=0)
        self.ship_bits = max(most_aboard + 1, self._kinds_n).bit_length()
        self._ship_at = tuple(2 * self.ship_bits * i for i in range(self.ships))  # ship i's barrels there, its kind plus one above them
        if self._kinds_n * width > ROW_BITS or self._kinds_n * (self.ships + 1).bit_length() > PACKED_BITS or n * width + (self.ships + 1).bit_length() > PACKED_BITS or 2 * self.ship_bits * self.ships > PACKED_BITS:
            raise InputError([Diagnostic("position.too-large", _too_large(self._kinds_n, most, self.ships), position.players_location, READ_ERROR)])
        self._cargo: dict[int, Cargo] = {}  # what the ships take, by their packed kinds and counts
        self._most_loaded = most_aboard + 1  # the barrels a load may take, and none
        self._loads_n = self.ships * self._kinds_n * self._most_loaded  # the codes of loads (`_after_load`)
        # the same with a state's roomy kinds: by the Cargo's number, then by the roomy kinds' bit mask (None: not
        # read yet; here, not in the Cargo, which a Room holds: no cycle, so the tables are freed as soon as the
        # phase is dropped; lists, where dictionaries would be a look-up at every move)
        self._rooms: list[list[Room | None]] = []
        self.tail_keys: list[TailKey] = []  # the tails of the players who drop out, by number (`Drops`)
        self.drops: list[Drops] = []  # one player dropping out with their tail's number, each once (`settle`)
        # the tails' numbers by their places' number (`_places`), then by the rest of their key packed (`settle`)
        self._tails_by_places: list[dict[int, int]] = [{}]
        # by the bit mask of some players: every bit of their barrels in a column (`keys` reads it)
        self.fields = [sum(self.low << self.at[p] for p in range(n) if players >> p & 1) for players in range(1 << n)]
        self._nowhere: Places = (-1,) * len(self.kinds)
        self._places_numbers: dict[Places, int] = {self._nowhere: 0}
        self._no_place = [-1] * len(self.kinds)
        # the decider: by turn pointer, then bit mask of the players in the state (`pointer << n | players`), the first of them
        # from the pointer (-1: none); one list, read at every move
        self._deciders = [first for by_pointer in Turns(n).table for first in by_pointer]
        self._turn_after: list[int] = [turn_after(p, n) for p in range(n)]  # the pointer after each player's move, read at every state
        # each player's VP for a load of so many barrels, their first and not (`Shipper.load`), and doubloons: tables of native numbers
        self._load_vp = tuple(tuple(tuple(power.load(barrels, first) for barrels in range(most_aboard + 1)) for first in (False, True)) for power in self.shippers)
        self._load_doubloons = tuple(power.load_doubloons for power in self.shippers)
        self._unloader: Captain | None = None  # `unloaded`'s (a plain attribute: mypyc's classes take no cached_property)
        self._packed_private: list[list[Private]] = []  # `_private_moves`, each met
        self._private_numbers = new_table()  # its number there, by the decider, their row and flags packed
        self._roomy_matters = reductions.independent or reductions.roomy or reductions.tokens
        self._independent = reductions.independent
        self.own = OwnMoves(self.shippers, self.kinds, self.rules)
        self.tails = Tails(self.own)
        self.keys = Keys(self)
        ships = sum(self._ship_field(i, kind, count) for i, (kind, count) in enumerate(zip(kinds, counts, strict=True)))
        rows = [self.packed(held) for held in self.start_goods] + [0] * (MOST_PLAYERS - n)
        start: State = (0, 0, 0, 0, (1 << n) - 1, ships, rows[0], rows[1], rows[2], rows[3], rows[4])
        self.root, self.root_drops, self.root_room = self.settle(start, 0, -1, None)
        self.root_key, self.root_shift = self.keys.key(self.root, self.root_room)
        self.doubloons = any(s.load_doubloons or s.start_doubloons for s in self.shippers)  # a lighthouse: doubloons change hands

    # --- states and moves -------------------------------------------------------------------

    def cargo(self, state: State) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
        """The kind on each cargo ship (None: empty) and its barrels."""
        ships = self.ships_taking_kinds(state[SHIPS])
        return ships.kinds, ships.counts

    def goods(self, state: State, p: int) -> Goods:
        """Player `p`'s barrels by kind (none for a player who dropped out)."""
        return self.unpacked(row(state, p))

    def packed(self, goods: Goods) -> int:
        """Barrels by kind as a row holds them (`compact`)."""
        return sum(held << at for held, at in zip(goods, self.kind_at, strict=True))

    def unpacked(self, packed: int) -> Goods:
        """A row's barrels by kind."""
        low = self.low
        return tuple([packed >> at & low for at in self.kind_at])

    def barrels(self, state: State) -> int:
        """The barrels the players in the state hold."""
        return sum(self.unpacked(state[ROW_0] + state[ROW_1] + state[ROW_2] + state[ROW_3] + state[ROW_4]))

    def _ship_field(self, ship: int, kind: int, barrels: int) -> int:
        """`barrels` on cargo ship `ship` with the kind index `kind` (-1: the ship keeps its
        kind, or is empty), as the packed ships hold them: adding it loads them."""
        at = self._ship_at[ship]
        return (kind + 1 << at + self.ship_bits) + (barrels << at)

    def settle(self, state: State, pointer: i64, mover: i64, before: tuple[int, ...] | None, ships: Cargo | None = None, room_before: Room | None = None) -> tuple[State, Drops, Room]:
        """The state after a move (turn pointer at `pointer`; `ships`: what its cargo ships
        take, when known, and `room_before` the room before the move, when it left the ships as
        they were), settled: players who hold no contested kind drop out (with their tails'
        keys), and the decider is found. When the contested kinds are still `before` (those
        before the move), only the `mover` (-1: none) can have dropped out: nobody else's barrels
        changed. With the state: what its ships take with its roomy kinds (to read its key with,
        `keys`)."""
        room = self.room(state, ships, room_before)
        contested: i64 = room.contested_bits
        drops = NO_DROPS
        active: i64 = state[ACTIVE]
        wharf_used: i64 = state[WHARF_USED]
        small_used: i64 = state[SMALL_WHARF_USED]
        # everyone, or the mover alone (the same tuple of contested kinds: `Room` keeps each once); native, compiled
        start: i64 = 0
        stop: i64 = self.players
        if mover >= 0 and room.contested is before:
            start, stop = mover, mover + 1
        for p in range(start, stop):
            held = state[ROW_0] if p == 0 else state[ROW_1] if p == 1 else state[ROW_2] if p == 2 else state[ROW_3] if p == 3 else state[ROW_4]  # (`row`, written out: a call costs the plain build more)
            if active >> p & 1 and not held & contested:  # nothing anyone else feels: out (their barrels of a roomy kind gone, it stays roomy)
                bit: i64 = 1 << p
                # the tail's key, read once for each Room (its places are the Room's): by the
                # player's barrels, packed, with their wharf, small wharf and privilege, and who
                code = ((held << 1 | (1 if wharf_used & bit else 0)) << 1 | (1 if small_used & bit else 0)) << 1 | (1 if p == 0 and state[CAPTAIN_LOADED] == 1 else 0)
                code = code * self.players + p
                number = room.tails.find(code)
                if number < 0:
                    number = len(self.drops)
                    self.drops.append(((p, self._tail_id(room, code, state, p)),))
                    room.tails.put(code, number)
                drop = self.drops[number]
                drops = drop if not drops else drops + drop  # (one tuple for each player and tail, where one player drops: the usual case)
                state = with_row(state, p, 0)
                active &= ~bit
                wharf_used &= ~bit
                small_used &= ~bit
        loaded = state[CAPTAIN_LOADED] if active & 1 else 0
        settled: State = (self._deciders[pointer << self.players | active], loaded, wharf_used, small_used, active, state[SHIPS], state[ROW_0], state[ROW_1], state[ROW_2], state[ROW_3], state[ROW_4])
        return settled, drops, room

    def _tail_id(self, room: Room, code: i64, state: State, p: i64) -> int:
        """The number of the tail of player `p`, dropping out of `state` (whose ships take what
        `room` says) with the key `code` (see `settle`): its `TailKey` numbered once, by its
        places and `code` (which together are the key: no tuple made and hashed where the
        number is known)."""
        have = row(state, p)
        places, places_number = self._places(have, room.ships, room.roomy) if room.roomy else (self._nowhere, 0)
        numbers = self._tails_by_places[places_number]
        number = numbers.get(code)
        if number is None:
            bit = 1 << p
            number = numbers[code] = len(self.tail_keys)
            self.tail_keys.append((p, self.unpacked(have), bool(state[WHARF_USED] & bit), bool(state[SMALL_WHARF_USED] & bit), p == 0 and state[CAPTAIN_LOADED] == 1, places))
        return number

    def room(self, state: State, ships: Cargo | None = None, before: Room | None = None) -> Room:
        """What the cargo ships of `state` take (`ships`, when known), with its roomy kinds
        (`before`: the room of the state before a move that left the ships as they were)."""
        if before is not None and before.roomy == before.ships.placed_kinds:
            return before  # every kind on a ship was roomy: fewer barrels leave it so (compiled: native masks)
        if ships is None:
            ships = self.ships_taking_kinds(state[SHIPS])
        roomy = self.roomy(state, ships)
        return self._rooms[ships.number][roomy] or self._room(ships, roomy)

    def _room(self, ships: Cargo, roomy: int) -> Room:
        """`ships` with the roomy kinds `roomy` (bit mask), remembered: the contested kinds (all
        the live ones, unless `Reductions.independent`: those that are not roomy), and the
        ships' barrels and the kinds' ships as the key reads them (the roomy ones marked,
        with `Reductions.roomy`: see `keys`)."""
        contested = tuple(k for k in ships.live if not roomy >> k & 1) if roomy and self._independent else ships.live
        bits = sum(self.low << self.kind_at[k] for k in contested)
        aboard, place = ships.aboard, list(ships.place)
        if roomy and self.reductions.roomy:
            for k, i, _ in ships.placed:
                if roomy >> k & 1:
                    aboard -= ships.counts[i] + 1 << i * self.ship_bits
                    place[k] = -2
        places = sum(where + 2 << self.keys.place_bits * k for k, where in enumerate(place))
        hit = self._rooms[ships.number][roomy] = Room(ships, roomy, contested, bits, aboard, places)
        return hit

    def _places(self, have: i64, ships: Cargo, roomy: i64) -> tuple[Places, int]:
        """Where a player who drops out holding roomy kinds (their row: `have`) loads each of
        them: the ship that takes it (`ships_taking`: the one carrying it, which has room for all
        they hold); with the places' number (`_tails_by_places`: 0, nowhere)."""
        held = 0
        low: i64 = self.low
        for k, _, _ in ships.placed:
            if have >> self.kind_at[k] & low and roomy >> k & 1:
                held |= 1 << k
        if not held:
            return self._nowhere, 0
        hit = ships.places.get(held)
        if hit is None:
            listed = self._no_place[:]
            for k, _, room in ships.placed:
                if held >> k & 1:
                    _, taking = ships_taking(self.sizes, ships.kinds, ships.counts, k, room)
                    assert len(taking) == 1, "a kind on a ship goes there only"
                    listed[k] = taking[0]
            places = tuple(listed)
            number = self._places_numbers.get(places)
            if number is None:
                number = self._places_numbers[places] = len(self._tails_by_places)
                self._tails_by_places.append({})
            hit = ships.places[held] = (places, number)
        return hit

    def steps(self, state: State, room: Room | None = None) -> list[Step]:
        """The decider's moves from `state` (`room`: what its ships take, if known), in the
        listing's order (cargo loads by kind, in the ruleset's order of goods, and ship, then the wharf, then the small wharf),
        each with where it leads."""
        listed = Steps()
        self.visit(state, self.room(state) if room is None else room, listed)
        return listed.steps

    def visit(self, state: State, room: Room, visitor: Visitor) -> None:
        """Hand the decider's moves from `state` (whose ships take what `room` says) to
        `visitor`, in the listing's order (cargo loads by kind, in the ruleset's order of goods, and ship, then the wharf, then the
        small wharf), each with the state it leads to, settled: the one loop over a decider's
        moves."""
        q: i64 = state[DECIDER]
        assert q >= 0
        # the decider's row: what the tables of their moves are read by (their barrels by kind as
        # a tuple only where a table has no entry yet)
        have = row(state, q)
        after: i64 = self._turn_after[q]
        ships, contested = room.ships, room.contested
        load_vp, load_doubloons = self._load_vp[q][q == 0 and not state[CAPTAIN_LOADED]], self._load_doubloons[q]
        number = ships.load_numbers.find(have)
        loads = ships.known_loads[number] if number >= 0 else ships.loads(self.sizes, self.unpacked(have), have, self.kind_at, self._most_loaded)
        captain: i64 = 1 if q == 0 else state[CAPTAIN_LOADED]
        for load in loads:
            loaded = ships.loaded[load.code] or self._after_load(ships, load)
            left = have - load.taken  # (the decider's row chosen written out: a call costs the plain build more)
            child = (
                q,
                captain,
                state[WHARF_USED],
                state[SMALL_WHARF_USED],
                state[ACTIVE],
                loaded.packed,
                left if q == 0 else state[ROW_0],
                left if q == 1 else state[ROW_1],
                left if q == 2 else state[ROW_2],
                left if q == 3 else state[ROW_3],
                left if q == 4 else state[ROW_4],
            )
            settled, drops, taken = self.settle(child, after, q, contested, loaded)  # (a method called so, not a bound method kept: compiled, a direct call)
            visitor.move(load.move, load_vp[load.amount], load_doubloons, settled, drops, taken, True)
        bit: i64 = 1 << q
        for private in self._private_moves(q, have, bool(state[WHARF_USED] & bit), bool(state[SMALL_WHARF_USED] & bit), q == 0 and bool(state[CAPTAIN_LOADED])):
            child = (
                q,
                1 if q == 0 and private.captain else state[CAPTAIN_LOADED],
                state[WHARF_USED] | bit if private.wharf else state[WHARF_USED],
                state[SMALL_WHARF_USED] | bit if private.small_wharf else state[SMALL_WHARF_USED],
                state[ACTIVE],
                state[SHIPS],
                state[ROW_0],
                state[ROW_1],
                state[ROW_2],
                state[ROW_3],
                state[ROW_4],
            )
            settled, drops, taken = self.settle(with_row(child, q, have - private.taken), after, q, contested, ships, room)
            visitor.move(private.move, private.vp, private.money, settled, drops, taken, False)

    def _private_moves(self, q: i64, have: i64, wharf_used: bool, small_used: bool, loaded: bool) -> list[Private]:
        """`private_moves` of the decider `q`, whose row is `have`, each with the barrels it
        ships, packed as a row (taken from theirs)."""
        table_key = (((have * self.n + q) << 1 | wharf_used) << 1 | small_used) << 1 | loaded
        number = self._private_numbers.find(table_key)
        if number >= 0:
            return self._packed_private[number]
        hit = [Private(private, have - self.packed(private[1])) for private in self.private_moves(q, self.unpacked(have), wharf_used, small_used, loaded)]
        self._private_numbers.put(table_key, len(self._packed_private))
        self._packed_private.append(hit)
        return hit

    def ships_taking_kinds(self, ships: int) -> Cargo:
        """What the cargo ships packed in `ships` take (`Cargo`: the engine's `loadable`), read
        once for each load of the ships."""
        return self._cargo.get(ships) or self._read_cargo(ships)

    def _read_cargo(self, ships: int) -> Cargo:
        """What the ships packed in `ships` take, remembered."""
        bits = self.ship_bits
        field = (1 << bits) - 1
        kinds = tuple([(ships >> at + bits & field) - 1 for at in self._ship_at])
        counts = tuple([ships >> at & field for at in self._ship_at])
        hit = self._cargo[ships] = Cargo.read(self.sizes, tuple([None if kind < 0 else kind for kind in kinds]), counts, self._kinds_n, bits)
        hit.packed = ships
        hit.rooms = tuple([(1 << k, self.kind_at[k], room) for k, _, room in hit.placed])
        hit.number = len(self._rooms)
        hit.loaded = [None] * self._loads_n
        self._rooms.append([None] * (1 << self._kinds_n))
        return hit

    def _after_load(self, ships: Cargo, load: Load) -> Cargo:
        """The cargo ships `ships` after `load`, read once for each such load (`Cargo.loaded`)."""
        i = load.ship
        hit = ships.loaded[load.code] = self.ships_taking_kinds(ships.packed + self._ship_field(i, -1 if ships.kinds[i] is not None else load.kind, load.amount))
        return hit

    def roomy(self, state: State, ships: Cargo) -> i64:
        """The roomy kinds of `state` (its cargo ships read as `ships`; none unless a reduction
        reads them), as a bit mask: on a cargo ship with room for every barrel the players in the
        state hold of it (a player who dropped out holds none that a cargo ship takes, or holds it
        on a ship with room for theirs besides: see the module)."""
        if not ships.placed or not self._roomy_matters:
            return 0
        total: i64 = state[ROW_0] + state[ROW_1] + state[ROW_2] + state[ROW_3] + state[ROW_4]  # every kind's barrels, over the players (no field overflows)
        low: i64 = self.low
        mask: i64 = 0
        for bit, at, room in ships.rooms:
            if total >> at & low <= room:
                mask |= bit
        return mask

    # --- the players who dropped out ---------------------------------------------------------

    def tail(self, key: TailKey) -> Tail:
        """A dropped-out player's rest of the phase (`tails`)."""
        return self.tails.tail(key)

    def tail_options(self, key: TailKey) -> list[tuple[Move | None, Tail]]:
        """A dropped-out player's first decision: each first move (None: no move at all), and
        the tail that it leaves."""
        return self.tails.options(key)

    def private_moves(self, p: int, goods: Goods, wharf_used: bool, small_used: bool, loaded: bool) -> list[PrivateMove]:
        """Player `p`'s moves on their wharf and small wharf (`OwnMoves.private_moves`)."""
        return self.own.private_moves(p, goods, wharf_used, small_used, loaded)

    # --- storage, ships, words --------------------------------------------------------------

    def keep(self, p: int, goods: Goods) -> Goods:
        """What player `p` keeps holding `goods` at the end: the engine's `preferred_keep`."""
        return self.own.keep(p, goods)

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


def _too_large(kinds: int, most: int, ships: int) -> str:
    """Why a position does not fit the calculator's packing (`compact`, `keys`)."""
    return (
        f"the shipping calculator packs a player's barrels of every kind in {ROW_BITS} bits, the players' barrels of a kind and the cargo ships in {PACKED_BITS}: "
        f"this position's {kinds} kinds, up to {most} barrels of a kind and {ships} cargo ships do not fit (no standard ruleset comes near it)"
    )
