"""The game: setup, role choice, rounds, the governor, game end. Phases do the rest.

`Game` is the one checked entry point: `choose_role`, `play`, `finish_phase` raise
`RuleViolation` (with a rule id and a sentence saying what was allowed) and leave scoring to
`referee.jobs.scoring`. It knows nothing of files: the replay feeds it moves from a log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from referee.diagnostics import RuleViolation
from referee.engine.awaiting import Awaiting, RoleAwaited
from referee.engine.phases import PHASES, Phase
from referee.engine.selection import SelectionProblem, selection_problems
from referee.engine.state import CITY, COLONISTS, VP, Board, CargoShip, RoleCard, tally
from referee.ground.wording import count, listing
from referee.moves.clauses import AnyMove, Keep, Pass
from referee.rulesets.rules import Rules

if TYPE_CHECKING:
    from referee.rulesets.effects import EffectId


class Game:
    """One game being played: the state, whose turn it is, and the current phase."""

    def __init__(self, rules: Rules, players: list[str], face_up: list[str] | None, buildings: list[str] | None = None) -> None:
        """Set up a game; `face_up` is the first face-up row (None: not drawn, as for a
        shipping position, which sets up only what the captain phase needs); `buildings`, the
        violet buildings chosen before the game when the ruleset has a selection."""
        n = len(players)
        refused = rules.not_for(n)
        if refused is not None:
            raise RuleViolation("setup.players", refused)
        self.rules = rules
        self.setup = setup = rules.players(n)
        self.n = n
        start = _start(rules, n)
        self.boards = [Board(name=name, doubloons=setup.doubloons, island={kind: 1}) for name, kind in zip(players, setup.starting_plantations, strict=True)]
        self.deck: Counter[str] = Counter(start.deck)
        self.discards: Counter[str] = Counter()
        self.face_up: list[str] = []
        self.quarries = rules.quarry.count if setup.quarries is None else setup.quarries
        self.goods_supply = dict(start.goods_supply)
        self.colonist_supply = setup.colonists
        self.colonist_ship = setup.ship_colonists
        self.vp_chips = setup.vp_chips
        self.buildings_left = dict(start.buildings_left)
        self.in_game = start.in_game  # never changed once set: clones share it
        if rules.model.selection is not None and buildings is not None:
            self._select(buildings)
        self.trading_house: list[str] = []
        self.ships = [CargoShip(size) for size in setup.cargo_ships]
        self.role_cards = [RoleCard(role) for role in start.role_cards]
        self.orders = start.orders
        self.roles_per_round = n * setup.roles_per_player
        self.phase_timing = rules.model.end.timing == "phase"  # the game ends with a phase (1897), else with the round
        self.libraries = bool(rules.power_pairs.get("privilege.double"))  # has the ruleset a building that doubles a privilege?
        self.governor = 0
        self.round = 1
        self.library_round: dict[int, int] = {}  # the round in which each player's once-a-round library worked
        self.picks = 0  # roles chosen this round
        self.phase: Phase | None = None
        self.triggers: list[str] = []  # end conditions met, in order
        self.over = False
        self.ended_round: int | None = None  # the round (and, by phase timing, the phase) the game ended with
        self.ended_phase: str | None = None
        if face_up is not None:
            self.reveal(face_up, first=True)

    def clone(self) -> Game:
        """An independent copy of this game (rules shared), for trying moves out."""
        copy = Game.__new__(Game)
        copy.__dict__.update(self.__dict__)
        copy.boards = [
            Board(b.name, b.doubloons, b.vp, dict(b.goods), dict(b.island), dict(b.manned), dict(b.buildings), b.san_juan) for b in self.boards
        ]
        copy.deck = Counter(self.deck)
        copy.discards = Counter(self.discards)
        copy.face_up = list(self.face_up)
        copy.goods_supply = dict(self.goods_supply)
        copy.buildings_left = dict(self.buildings_left)
        copy.trading_house = list(self.trading_house)
        copy.ships = [CargoShip(s.size, s.good, s.count) for s in self.ships]
        copy.role_cards = [RoleCard(c.role, c.doubloons, c.taken_by) for c in self.role_cards]
        copy.triggers = list(self.triggers)
        copy.library_round = dict(self.library_round)
        copy.phase = self.phase.clone(copy) if self.phase is not None else None
        return copy

    # --- names for messages -------------------------------------------------------------

    def who(self, p: int) -> str:
        """A player's name."""
        return self.boards[p].name

    def name_of(self, ident: str) -> str:
        """A good, tile, building or role in this ruleset's words."""
        return self.rules.name(ident)

    # --- the round ------------------------------------------------------------------------

    @property
    def chooser(self) -> int:
        """The player whose turn it is to choose a role."""
        return (self.governor + self.picks) % self.n

    def available_roles(self) -> list[str]:
        """Roles not yet taken this round (each once, whatever the copies)."""
        return list(self.open_cards())

    def role_choices(self) -> list[tuple[str, int | None]]:
        """The role choices open to the chooser: (role, the doubloons on the card where the free
        cards of a role carry different sums, else None), in the order of the table."""
        roles = [card.role for card in self.role_cards if card.taken_by is None]  # `open_card`
        if len(set(roles)) == len(roles):  # one free card a role (every standard ruleset but five players' prospectors): nothing on them tells cards apart
            return [(role, None) for role in roles]
        out: list[tuple[str, int | None]] = []
        for role, cards in self.open_cards().items():
            if len(cards) == 1:  # one card of the role (every standard ruleset): its doubloons tell nothing apart
                out.append((role, None))
                continue
            free = sorted({card.doubloons for card in cards})
            out.extend((role, d if len(free) > 1 else None) for d in free)
        return out

    def awaiting(self, reveal: list[str] | None = None, keep: Mapping[int, Keep] | None = None) -> Awaiting | None:
        """What the game waits for now, who decides what (`referee.engine.awaiting`): a role
        choice between phases, else what the phase under way answers, given the closing
        decisions written for it so far (`reveal`, `keep`: those `finish_phase` is to apply);
        None once the game is over. The answer is about the game as it stands: ask again after
        a change."""
        if self.over:
            return None
        if self.phase is None:
            return RoleAwaited(self.chooser, tuple(self.role_choices()))
        return self.phase.awaiting(reveal, keep)

    def open_cards(self) -> dict[str, list[RoleCard]]:
        """The role cards not taken this round, by role, in the order of the table: a role may be
        chosen while a card of it is free (`choose_role` checks it, `role_choices` lists them)."""
        out: dict[str, list[RoleCard]] = {}
        for card in self.role_cards:
            if open_card(card):
                out.setdefault(card.role, []).append(card)
        return out

    def choose_role(self, p: int, role: str, doubloons: int | None = None) -> None:
        """Player `p` takes role card `role` (with `doubloons` on it, when written) and its phase starts."""
        chosen: RoleCard | None = None
        if not self.over and self.phase is None and p == (self.governor + self.picks) % self.n:  # `chooser`
            # one pass over the table for the card taken (the card of the role with the most
            # doubloons, the first of them; or the first with those written): asked at every phase
            for card in self.role_cards:
                if card.role == role and card.taken_by is None:  # `open_card`
                    if doubloons is None:
                        if chosen is None or card.doubloons > chosen.doubloons:
                            chosen = card
                    elif card.doubloons == doubloons:
                        chosen = card
                        break
        if chosen is None:
            raise self._refused_role(p, role, doubloons)
        chosen.taken_by = p
        self.boards[p].doubloons += chosen.doubloons
        chosen.doubloons = 0
        self.phase = phase = PHASES[role](self, p)
        phase.start()

    def _refused_role(self, p: int, role: str, doubloons: int | None) -> RuleViolation:
        """Why `choose_role` refuses `role` (with `doubloons`) to `p`: the first rule it breaks."""
        if self.over:
            return self._over()
        if self.phase is not None:  # pragma: no cover - the replay finishes each phase first
            return RuleViolation("phase.unfinished", f"the {self.name_of(self.phase.role)} phase is not finished")
        rules = self.rules
        if p != self.chooser:
            return RuleViolation(
                "role.not-your-turn",
                f"it is {self.who(self.chooser)}'s turn to choose a role, not {self.who(p)}'s "
                f"(round {self.round}, {rules.terms.governor} {self.who(self.governor)})",
            )
        cards = [c for c in self.role_cards if c.role == role]
        if not cards:
            return RuleViolation(
                "role.not-in-play",
                f"the {self.name_of(role)} is not in play with {self.n} players; {self.who(p)} may choose "
                f"{listing([self.name_of(r) for r in self.available_roles()], 'or')}",
            )
        free = [c for c in cards if open_card(c)]
        if not free:
            taker = self.who(cards[0].taken_by) if cards[0].taken_by is not None else "?"
            return RuleViolation(
                "role.taken",
                f"the {self.name_of(role)} was already chosen this round (by {taker}); {self.who(p)} may choose "
                f"{listing([self.name_of(r) for r in self.available_roles()], 'or')}",
            )
        on = " or ".join(str(c.doubloons) for c in free)  # no free card carries the doubloons written
        return RuleViolation(
            "role.doubloons",
            f"the {self.name_of(role)} {rules.terms.role_card} carries {on} {rules.terms.doubloon[1] if on != '1' else rules.terms.doubloon[0]}, not {doubloons}",
        )

    def privilege_doubled(self, p: int) -> bool:
        """Does the privilege of `p`, who takes a role now, count twice (a library)? Where the
        ruleset limits it to once a round (2 players), only their first role of the round is
        doubled: asked once per role taken (a new phase)."""
        powers = self.boards[p].powers(self.rules, "privilege.double")
        if not powers:
            return False
        if self.n in powers[0].once_per_round:
            if self.library_round.get(p) == self.round:
                return False
            self.library_round[p] = self.round
        return True

    def _select(self, chosen: list[str]) -> None:
        """The violet buildings chosen before the game: every space filled, by cost (Expansion I)."""
        problem, left_out = _selection(self.rules, tuple(chosen))
        if problem is not None:
            raise RuleViolation("setup.buildings", problem.message, item=problem.item)
        self.in_game = self.in_game - left_out
        for ident in left_out:
            self.buildings_left[ident] = 0

    def play(self, p: int, move: AnyMove, guests: tuple[str, ...] = ()) -> None:
        """Player `p` makes `move` in the current phase (after moving guest-house colonists).

        Checked before anything changes: the whole move is applied, or RuleViolation is raised
        and the game is exactly as it was. (Guests' moves change what the move may do, so with
        guests the game is copied first, and put back from the copy if the move is refused.)"""
        phase = self.phase
        if phase is None:
            if self.over:
                raise self._over()
            raise RuleViolation("phase.none", "no phase is being played: a role must be chosen first")  # pragma: no cover
        if guests:
            saved = self.clone()
            try:
                self._play_with_guests(p, move, guests)
            except RuleViolation:
                self._restore(saved)
                raise
            return
        phase.play(p, move)

    def play_unchecked(self, p: int, move: AnyMove) -> None:
        """`play` for a move known to be legal (from `legal_moves`, or `accepts` said so), with
        no rule checked: the fast path of random play and simulations. An illegal move gives an
        undefined game."""
        assert self.phase is not None
        self.phase.play_unchecked(p, move)

    def _play_with_guests(self, p: int, move: AnyMove, guests: tuple[str, ...]) -> None:
        phase = self.phase
        assert phase is not None
        for place in guests:
            self.move_guest(p, place)
        phase.buildings_changed(p)
        if isinstance(move, Pass) and phase.lone_guests_allowed():
            return  # a guest move of its own, outside the turn order (the captain phase)
        phase.play(p, move)

    def _restore(self, saved: Game) -> None:
        """Put back the state of `saved`, a clone taken before a change, into this game's own
        objects (boards, ships, role cards and phase keep their identity)."""
        boards, ships, cards, phase = self.boards, self.ships, self.role_cards, self.phase
        self.__dict__.update(saved.__dict__)
        _set_from(boards, saved.boards)
        _set_from(ships, saved.ships)
        _set_from(cards, saved.role_cards)
        self.boards, self.ships, self.role_cards = boards, ships, cards
        if phase is not None and saved.phase is not None:
            phase.__dict__.update(saved.phase.__dict__)
            phase.game = self
            self.phase = phase

    def legal_moves(self, p: int) -> list[AnyMove]:
        """Every legal move of player `p` now (when their turn comes, the players before them
        passing), in log notation order; none outside a phase (see `role_choices`)."""
        return list(self.phase.moves_for(p)) if self.phase is not None else []

    def accepts(self, p: int, move: AnyMove) -> bool:
        """Would `play` accept `move` by `p` now? Asked without changing anything."""
        return self.phase is not None and self.phase.accepts(p, move)

    def move_guest(self, p: int, place: str) -> None:
        """One colonist from the player's guest house to an empty circle (outside the mayor phase)."""
        refusal = self._guest_refusal(p, place)
        if refusal is not None:
            raise refusal
        rules, b = self.rules, self.boards[p]
        if place in rules.building:
            b.buildings[place] += 1
        else:
            b.manned[place] = b.manned.get(place, 0) + 1
        b.buildings[self._guest_houses(p)[0]] -= 1

    def guest_places(self, p: int) -> list[str]:
        """Where one colonist of the player's guest house may go now (buildings, then tile kinds,
        by id): none without a guest, or in the mayor phase. The rule is `move_guest`'s."""
        b = self.boards[p]
        return [place for place in (*b.buildings, *b.island) if self._guest_refusal(p, place) is None]

    def guests(self, p: int) -> int:
        """The colonists in the player's guest houses, each of which may move before a move."""
        b = self.boards[p]
        return sum(b.buildings[ident] for ident in self._guest_houses(p))

    def _guest_houses(self, p: int) -> list[str]:
        b = self.boards[p]
        return [x.id for x in self.rules.with_effect("move.guest") if b.buildings.get(x.id, 0) > 0]

    def _guest_refusal(self, p: int, place: str) -> RuleViolation | None:
        """Why a guest of player `p` may not go to `place` now (None: it may)."""
        rules, b = self.rules, self.boards[p]
        houses = self._guest_houses(p)
        if not rules.with_effect("move.guest"):  # ("in a nothing": no building of the ruleset has the power)
            return RuleViolation("guest.empty", f"{rules.model.title} has no building whose {rules.terms.colonist[1]} move as guests: write the move without 'guest'")
        names = rules.power_names("move.guest")
        if not houses:
            return RuleViolation("guest.empty", f"{self.who(p)} has no {rules.terms.colonist[0]} in a {names} to move")
        if self.phase is not None and self.phase.role == "mayor":
            return RuleViolation("guest.mayor-phase", f"in the {self.name_of('mayor')} phase {rules.terms.colonist[1]} are arranged, not moved from the {names}")
        if place in rules.building:
            if place not in b.buildings:
                return RuleViolation("guest.place", f"{self.who(p)} has no {self.name_of(place)}")
            if place in houses or b.buildings[place] >= rules.building[place].circles:
                return RuleViolation("guest.place", f"the {self.name_of(place)} has no empty circle for a guest")
            return None
        if place in b.island and rules.has_circle(place):
            if b.manned.get(place, 0) >= b.island[place]:
                return RuleViolation("guest.place", f"{self.who(p)} has no unoccupied {self.name_of(place)} tile")
            return None
        return RuleViolation("guest.place", f"{self.who(p)} has no unoccupied {self.name_of(place)} {rules.terms.plantation[0] if place in rules.good else 'tile'} for a guest")

    def finish_phase(self, reveal: list[str] | None = None, keep: dict[int, Keep] | None = None) -> None:
        """End the current phase: its remaining turns, its closing duties, then the round's end."""
        phase = self.phase
        assert phase is not None
        phase.finish(reveal, keep)
        self.phase = None
        self.picks += 1
        if self.triggers and self.phase_timing and self._phase_ends_game(phase.role):
            self.over = True
            self.ended_round, self.ended_phase = self.round, phase.role
        if self.picks >= self.roles_per_round:
            self._end_round()

    def _phase_ends_game(self, role: str) -> bool:
        """By phase timing (1897): the game ends with the phase of a trigger, except that a VP
        trigger outside a captain phase runs to the end of the next captain phase."""
        return bool(self.triggers) and (any(t != VP for t in self.triggers) or role == "captain")

    def ends_with_this_phase(self) -> bool:
        """Will the game be over once the current phase ends? (Its last face-up row is then moot.)"""
        if not self.triggers:
            return False
        if self.phase_timing and self.phase is not None:
            return self._phase_ends_game(self.phase.role)
        return self.picks + 1 >= self.roles_per_round

    def _end_round(self) -> None:
        money = self.rules.model.role_money
        for card in self.role_cards:
            if card.taken_by is None:
                card.doubloons += money
            card.taken_by = None
        if self.triggers and not self.over and not self.phase_timing:
            self.over = True
            self.ended_round = self.round
        self.picks = 0
        self.governor = (self.governor + 1) % self.n
        self.round += 1

    def trigger(self, reason: str) -> None:
        """An end condition occurred (the game ends at the end of this round or phase)."""
        if reason not in self.triggers:
            self.triggers.append(reason)

    def _over(self) -> RuleViolation:
        return RuleViolation("game.over", f"the game is over: it ended after {self.end_text()}; nothing more is played")

    def end_text(self) -> str:
        """Why and when the game ended (for messages and reports)."""
        t = self.rules.terms
        text = {COLONISTS: f"the {t.colonist_ship} could not be refilled", CITY: f"a player filled their {t.city}", VP: f"the {t.vp_chip[1]} ran out"}
        why = listing([text[x] for x in self.triggers], "and")
        if self.ended_phase is not None:
            return f"the {self.name_of(self.ended_phase)} phase of round {self.ended_round}, because {why}"
        return f"round {self.ended_round}, because {why}"


    # --- shared supplies ------------------------------------------------------------------

    def colonist_left(self) -> bool:
        """Is a colonist left for a hospice or a university to bring: in the supply, else on the
        ship? (If there are none there either, the player goes without: no clause for it.)"""
        return self.colonist_supply > 0 or self.colonist_ship > 0

    def no_colonist(self, rule: str, power: EffectId, what: str) -> RuleViolation:
        """The refusal of a hospice's or a university's colonist (`power`, its effect id) when
        none is left (`colonist_left`): `what` says what the player does without it ("the harbor is built")."""
        t = self.rules.terms
        return RuleViolation(
            rule,
            f"no {t.colonist[0]} is left in the supply or on the {t.colonist_ship}, so the {self.rules.power_names(power)}'s {t.colonist[0]} cannot come: {what} without one",
        )

    def take_colonist(self) -> bool:
        """One colonist from the supply, else from the ship (hospice, university); False if none."""
        if self.colonist_supply > 0:
            self.colonist_supply -= 1
            return True
        if self.colonist_ship > 0:
            self.colonist_ship -= 1
            return True
        return False

    def give_vp(self, p: int, vp: int) -> None:
        """VP to a player: chips while they last, then counted on paper; the last chip ends the game."""
        if vp <= 0:
            return
        self.boards[p].vp += vp
        had = self.vp_chips
        self.vp_chips = max(0, had - vp)
        if self.vp_chips == 0 and self.rules.model.end.vp_chips_out:
            self.trigger(VP)

    def reveal(self, tiles: list[str], first: bool = False, discards: Counter[str] | None = None) -> None:
        """The new face-up row, checked against what the face-down stacks (and `discards`, the
        discards as the phase leaves them: by default the game's) can hold; set only once checked."""
        need = self.setup.face_up
        deck_total = sum(self.deck.values())
        discards = self.discards if discards is None else discards
        drawn: dict[str, int] = {}  # `Counter(tiles)`, counted here (a Counter is made in calls of Python)
        for tile in tiles:
            drawn[tile] = drawn.get(tile, 0) + 1
        what = "the setup's face-up row" if first else "the reveal"
        rule = "setup.plantations" if first else "settler.reveal"
        if deck_total >= need:
            if len(tiles) != need:
                raise RuleViolation(rule, f"{what} must name {count(need, self.rules.terms.plantation)}, not {len(tiles)}")
            short = [k for k, c in drawn.items() if c > self.deck[k]]
            if short:
                raise RuleViolation(rule, f"{what} names {self._tiles(drawn, short)}, but the {self.rules.terms.stacks} hold{'s' if self.rules.terms.stacks == 'bag' else ''} only {self._stack(self.deck)}")
            deck = _less(self.deck, drawn)
        else:
            avail = deck_total + sum(discards.values())
            expected = min(need, avail)
            if len(tiles) != expected:
                raise RuleViolation(
                    rule,
                    f"{what} must name {count(expected, self.rules.terms.plantation)} (the {self.rules.terms.stacks} {deck_total}, the discards {avail - deck_total}), not {len(tiles)}",
                )
            counted = tally(drawn)
            rest = counted - self.deck
            missing = self.deck - counted
            if missing:
                raise RuleViolation(
                    rule,
                    f"the {self.rules.terms.stacks} ran out: {what} must include the last {self.rules.terms.plantation[1]} in them, {self._stack(self.deck)}, before the discards are returned",
                )
            short = [k for k, c in rest.items() if c > discards[k]]
            if short:
                raise RuleViolation(rule, f"{what} names {self._tiles(drawn, short)}, but the {self.rules.terms.stacks} and the discards hold only {self._stack(self.deck + discards)}")
            deck, discards = discards - rest, Counter()
        self.deck, self.discards, self.face_up = deck, discards, list(tiles)

    def _tiles(self, counts: Mapping[str, int], kinds: list[str]) -> str:
        return listing([f"{counts[k]} {self.name_of(k)}" for k in kinds], "and")

    def _stack(self, counts: Counter[str]) -> str:
        items = [f"{c} {self.name_of(k)}" for k, c in counts.items() if c > 0]
        return listing(items, "and") if items else "none"


@dataclass(frozen=True, slots=True)
class _Start:
    """What every game of a ruleset and a number of players starts with, before its face-up
    row and selection: worked out once (a batch replays thousands of games of a few kinds),
    copied into each game."""

    deck: dict[str, int]  # the face-down plantations, the starting ones taken out
    goods_supply: dict[str, int]
    buildings_left: dict[str, int]
    in_game: frozenset[str]  # every building (a selection takes the violet ones out)
    role_cards: tuple[str, ...]  # the role of each card, in the order of the table
    orders: tuple[tuple[int, ...], ...]  # the turn order of a phase, clockwise from each chooser


@lru_cache(maxsize=64)
def _start(rules: Rules, n: int) -> _Start:
    """The start of a game of `n` players with `rules` (`_Start`)."""
    setup = rules.players(n)
    deck = Counter({good.id: max(0, good.plantations - setup.plantations_removed) for good in rules.model.goods})
    for kind in setup.starting_plantations:
        deck[kind] -= 1
    return _Start(
        deck=dict(deck),
        goods_supply={good.id: max(0, good.barrels - setup.barrels_removed) for good in rules.model.goods},
        buildings_left={b.id: rules.copies(b, n) for b in rules.buildings},
        in_game=frozenset(b.id for b in rules.buildings),
        role_cards=tuple(role for role, copies in setup.roles.items() for _ in range(copies)),
        orders=tuple((*range(chooser, n), *range(chooser)) for chooser in range(n)),
    )


@lru_cache(maxsize=256)
def _selection(rules: Rules, chosen: tuple[str, ...]) -> tuple[SelectionProblem | None, frozenset[str]]:
    """The first problem of a selection of violet buildings (None: it fills every space), and
    the violet buildings it leaves out of the game; worked out once for each selection."""
    problems = selection_problems(rules, chosen, complete=True)
    seen = set(chosen)
    return (problems[0] if problems else None), frozenset(b.id for b in rules.buildings if b.kind.endswith("violet") and b.id not in seen)


def _less(counts: Counter[str], taken: Mapping[str, int]) -> Counter[str]:
    """`counts - Counter(taken)`, as Counter's `-` gives it (taken holds positive counts): the
    positive counts left, in the order of `counts`; without its lookups of a kind `taken` lacks
    (each a call of Counter's `__missing__`): asked at every reveal."""
    get = taken.get
    return tally({kind: left for kind, n in counts.items() if (left := n - get(kind, 0)) > 0})


def open_card(card: RoleCard) -> bool:
    """May `card` be taken: is it not taken this round?"""
    return card.taken_by is None


def _set_from(targets: Sequence[Any], sources: Sequence[Any]) -> None:
    """Give each dataclass object of `targets` the field values of its peer in `sources`."""
    for target, source in zip(targets, sources, strict=True):
        for field in fields(target):
            setattr(target, field.name, getattr(source, field.name))
