"""Match positions for the layout tests and the README's screenshots
(docs/screenshots/): one per decision a seat can face in each game, made
with tests.factories from a known state and seed, with a 150-character name
and four seats where the game allows them."""

from __future__ import annotations

from playwright.sync_api import expect

from games.engine import get_rules
from tests.engine.rondo_helpers import position as rondo_position
from tests.engine.roundabout_helpers import position as roundabout_position
from tests.factories import ludo_state, make_match, make_user

LONG_NAME = ("Longname" + "x" * 142)[:150]


def _human(prefix: str):
    """A user whose name is 150 characters long (the longest allowed)."""
    from accounts.models import User

    n = User.objects.count()
    return make_user((f"{prefix}{n}" + LONG_NAME)[:150])


def _roundabout_rolled(players: int, darts: dict, dice: tuple[int, int]) -> dict:
    """A Roundabout dump where seat 0 has rolled ``dice`` and is to move."""
    rules = get_rules("roundabout")
    state = rules.play(roundabout_position(players, darts, turn=0), "roll")
    state = rules.play(state, f"d{dice[0]}-{dice[1]}")
    return rules.dump(state)


RA_DARTS_2 = {0: {0: (3, 14, "cw"), 1: (1, 2, "cw"), 2: (5, 7, "ccw")},
              1: {0: (5, 6, "cw"), 1: (2, 9, "ccw")}}
RA_DARTS_4 = {0: {0: (3, 14, "cw"), 1: (1, 2, "cw")}, 1: {0: (5, 6, "cw")}, 2: {0: (2, 9, "ccw")},
              3: {0: (4, 3, "cw")}}
#: Seat 0 with eight darts on the board (of which a 1-1 lets four turn around).
RA_DARTS_8 = {0: {i: (i % 5 + 1, (i * 2 + 1) % 16, "cw" if i % 2 else "ccw") for i in range(8)},
              1: {0: (5, 6, "cw")}, 2: {0: (2, 9, "ccw")}, 3: {0: (4, 3, "cw")}}


def _start_darts(players: int) -> dict:
    """Every dart where a match of ``players`` starts, as roundabout_position takes them:
    two darts a ring, on neighbouring bars (20 px apart on ring 1 on a 390 px phone)."""
    from games.roundabout.engine.board import CW, bar_of, darts_per_seat, initial_darts, ring_of

    spaces, facings = initial_darts(players)
    n = darts_per_seat(players)
    return {s: {i % n: (ring_of(spaces[i]), bar_of(spaces[i]), "cw" if facings[i] == CW else "ccw")
                for i in range(s * n, (s + 1) * n)} for s in range(players)}


RONDO_COLOURS = ("yellow", "red", "purple", "blue", "green")


def _rondo_start():
    """The blue side's first start space: (its id, its colour)."""
    board = get_rules("rondo").board("blue")
    start = next(i for i in range(board.size) if board.start_mask >> i & 1)
    return board.ids[start], RONDO_COLOURS[board.colour[start]]


def _rondo_state(rack=None):
    rules = get_rules("rondo")
    _, colour = _rondo_start()
    racks = [rack or [colour, colour, "red", "blue", "green"], ["red", "blue"], ["green", "yellow"]]
    return rules.dump(rondo_position(rules, racks, turn=0, starter=0, scores=[10, 12, 9]))


def _rondo_rack_of_five():
    """Three tiles of the start space's colour and two others: that space offers
    six placements (1, 2 or 3 face up; one of three colours face down)."""
    _, colour = _rondo_start()
    others = [c for c in RONDO_COLOURS if c != colour]
    return _rondo_state([colour] * 3 + others[:2])


def _open_rondo_picker(page):
    """Click the start space: its tile picker opens under the board."""
    space, _ = _rondo_start()
    page.locator(f"#rs-{space}").click()
    expect(page.locator("#rondo-picker button")).to_have_count(7)  # six placements and Cancel


def _choose_ludo_piece_3(page):
    """Pick red's piece 3 on the board: its way into the home lane is previewed."""
    page.locator('#board .bd-target[data-target="p3"]').click()
    expect(page.locator("#board .bd-ghost.is-preview")).to_have_count(1)


def _roundabout_offered() -> dict:
    """Four seats: seat 1 rolled and offered its roll to seat 0, who is to accept or decline."""
    rules = get_rules("roundabout")
    state = rules.play(roundabout_position(4, RA_DARTS_4, turn=1), "roll")
    state = rules.play(state, "d2-5")
    state = rules.play(state, "offer 0")
    return rules.dump(state)


def _rondo_second_start():
    board = get_rules("rondo").board("blue")
    start = [i for i in range(board.size) if board.start_mask >> i & 1][1]
    return board.ids[start], RONDO_COLOURS[board.colour[start]]


def _rondo_before_a_chain():
    """Two seats, seat 1 to move first (its chain is played by ``_rondo_chain_played``)."""
    rules = get_rules("rondo")
    _, mine = _rondo_start()
    _, theirs = _rondo_second_start()
    racks = [[mine, mine, "red", "blue", "green"], [theirs, theirs, "red"]]
    return rules.dump(rondo_position(rules, racks, turn=1, starter=1, scores=[10, 12]))


def _rondo_chain_played(match):
    """Seat 1 places a chain of two (one tile face up, one face down) and draws:
    seat 0 is to move with the last chain marked on the board."""
    from games import actions
    from games.models import Match

    rules = get_rules("rondo")
    state = rules.load(match.state)
    space, _ = _rondo_second_start()
    first = f"place {space} 1"
    after = rules.play(state, first)
    bridge = next(m for m in rules.legal_moves(after) if m.kind == "place" and m.count == 0)
    user = match.seats.get(index=1).user
    actions.play_move(match.public_id, user, [first, str(bridge), "end"], match.version)
    return Match.objects.get(pk=match.pk)


def _roundabout_second_reversal():
    """Seat 0 turned dart 3 on a 1-1: it may turn one more (on the board too) or pass."""
    rules = get_rules("roundabout")
    return rules.dump(rules.play(rules.load(_roundabout_rolled(4, RA_DARTS_8, (1, 1))), "rev 3"))


LUDO_PIECES = [[10, -1, -1, 30], [5, -1, -1, -1], [-1] * 4, [20, -1, -1, -1]]
FOUR = ("human", "easy", "easy", "easy")
#: Pieces sharing squares: red 0 and 1 on cell 20 (one choice), red 2 with green
#: 0 on the star cell 8, yellow 0 and 1 on their start, three blue on cell 44;
#: red 3 at progress 49, which a 3 takes round into its home lane.
LUDO_STACKS = [[20, 20, 8, 49], [47, -1, -1, -1], [0, 0, -1, -1], [5, 5, 5, -1]]

#: name -> (game, seat kinds, a function making the state dump); seat 0 decides.
DECISIONS = {
    "ludo-roll": ("ludo", FOUR, lambda: ludo_state(4, pieces=LUDO_PIECES)),
    "ludo-choose": ("ludo", FOUR, lambda: ludo_state(4, phase="move", die=6, pieces=LUDO_PIECES)),
    "ludo-stacks": ("ludo", FOUR, lambda: ludo_state(4, phase="move", die=3, pieces=LUDO_STACKS)),
    "roundabout-roll": ("roundabout", ("human", "easy"),
                        lambda: get_rules("roundabout").dump(roundabout_position(2, RA_DARTS_2, turn=0))),
    "roundabout-darts": ("roundabout", ("human", "easy"), lambda: _roundabout_rolled(2, RA_DARTS_2, (2, 5))),
    "roundabout-start": ("roundabout", ("human", "easy"),
                         lambda: _roundabout_rolled(2, _start_darts(2), (2, 5))),
    "roundabout-reversal": ("roundabout", ("human", "easy"),
                            lambda: _roundabout_rolled(2, RA_DARTS_2, (3, 3))),
    "roundabout-reversal-eight": ("roundabout", FOUR, lambda: _roundabout_rolled(4, RA_DARTS_8, (1, 1))),
    "roundabout-second-reversal": ("roundabout", FOUR, _roundabout_second_reversal),
    "roundabout-offer": ("roundabout", FOUR, lambda: _roundabout_rolled(4, RA_DARTS_4, (2, 5))),
    "roundabout-accept": ("roundabout", ("human", "human", "easy", "easy"), _roundabout_offered),
    "rondo-place": ("rondo", ("human", "easy", "easy"), _rondo_state),
    "rondo-pick": ("rondo", ("human", "easy", "easy"), _rondo_rack_of_five),
    "rondo-after-chain": ("rondo", ("human", "human"), _rondo_before_a_chain),
}

#: name -> what happens after the match is made (the record the decision follows).
THEN = {"rondo-after-chain": _rondo_chain_played}

#: name -> what the seat does on the page before it is measured or shown (the
#: decision it then faces: "rondo-pick" is the tile picker of a space, open;
#: "ludo-stacks" a piece chosen, its destination previewed).
ON_PAGE = {"rondo-pick": _open_rondo_picker, "ludo-stacks": _choose_ludo_piece_3}


def make_decision(name: str, **options):
    """The match of ``DECISIONS[name]``, started, seat 0 a human with a
    150-character name (other human seats get names as long). Returns the match."""
    kind, seats, state = DECISIONS[name]
    users = [_human("p") for s in seats if s == "human"]
    match = make_match(kind, seats, users=users, state=state(), **options)
    return THEN[name](match) if name in THEN else match
