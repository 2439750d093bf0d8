"""Roundabout board geometry, seating and set-ups as data.

Sources: docs/rules.md "Roundabout" (Board, Territories by seat, Darts, Set-up,
Ringers, Every match ends); the Roundabout rulebook "Set Up", "Rules for Three
& Four Players".

Spaces: 5 concentric rings (1 = inner .. 5 = outer) cross 16 bars (0..15,
clockwise); a space exists where a ring crosses a bar, so 80 spaces, numbered
``space = 16 * (ring - 1) + bar`` (0..79). Rings are closed loops: bar 15 and
bar 0 are consecutive. Home territory t (0..3) is bars 4t..4t+3 on every ring.

Facing: ``CW`` (+1, towards higher bars) or ``CCW`` (-1). A ring move goes k
steps along its ring in the facing direction; a bar move goes k steps inward
(towards ring 1) or outward (towards ring 5) along its bar.

Everything a later correction of the rules could change is kept here as data:
the set-ups, the ringer run length, the turn limit.
"""

from __future__ import annotations

RINGS = 5
BARS = 16
SPACES = RINGS * BARS
REMOVED = -1
CW = 1
CCW = -1

#: Territory colours by territory index 0..3 (docs/rules.md "Territories by seat").
COLOUR_NAMES = ("red", "green", "yellow", "blue")

#: The home territory (0..3) of each seat, by player count.
SEAT_TERRITORIES = {
    2: (0, 2),
    3: (0, 1, 2),
    4: (0, 1, 2, 3),
}

#: Set-ups by player count (docs/rules.md "Set-up"): the rings on which darts stand on
#: both centre bars of the home territory: bar 4t+1 facing CCW, bar 4t+2
#: facing CW. Dart 2k stands on bar 4t+1, dart 2k+1 on bar 4t+2, both on
#: ``rings[k]``. 10 darts with 2 players, 8 with 3, 6 with 4.
SETUPS = {
    2: {"rings": (1, 2, 3, 4, 5), "bars": ((1, CCW), (2, CW))},
    3: {"rings": (1, 2, 4, 5), "bars": ((1, CCW), (2, CW))},
    4: {"rings": (2, 3, 4), "bars": ((1, CCW), (2, CW))},
}

#: How many consecutive bars of one ring in the opposite territory make a
#: ringer, by player count (docs/rules.md "Ringers").
RINGER_RUN = {2: 4, 3: 3, 4: 3}

#: A match ends when every remaining seat has had this many turns (docs/rules.md
#: "Every match ends").
TURN_LIMIT = 300

#: Jumping doubles and reversing doubles (rulebook "Offensive Moves").
JUMPING = frozenset((2, 4, 6))
REVERSING = frozenset((1, 3, 5))


def space(ring: int, bar: int) -> int:
    """The space index 0..79 of ``ring`` (1..5) and ``bar`` (0..15)."""
    return 16 * (ring - 1) + bar


def ring_of(s: int) -> int:
    """Ring 1..5 of space ``s``."""
    return s // 16 + 1


def bar_of(s: int) -> int:
    """Bar 0..15 of space ``s``."""
    return s % 16


def territory_of(s: int) -> int:
    """Territory 0..3 of space ``s`` (its bar // 4)."""
    return (s % 16) // 4


def darts_per_seat(players: int) -> int:
    """10, 8 or 6 darts for 2, 3 or 4 players."""
    setup = SETUPS[players]
    return len(setup["rings"]) * len(setup["bars"])


def initial_darts(players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(spaces, facings) of every dart at the start, seat-major: dart i of
    seat s is index ``s * darts_per_seat(players) + i``."""
    setup = SETUPS[players]
    spaces, facings = [], []
    for t in SEAT_TERRITORIES[players]:
        for ring in setup["rings"]:
            for offset, facing in setup["bars"]:
                spaces.append(space(ring, 4 * t + offset))
                facings.append(facing)
    return tuple(spaces), tuple(facings)


def _ring_paths():
    # RING_PATHS[s][facing_index][k]: spaces passed for k steps (landing last);
    # facing_index 0 = CW, 1 = CCW.
    out = []
    for s in range(SPACES):
        ring, bar = ring_of(s), bar_of(s)
        per_facing = []
        for step in (CW, CCW):
            per_facing.append(
                (None,)
                + tuple(
                    tuple(space(ring, (bar + step * j) % BARS) for j in range(1, k + 1)) for k in range(1, 7)
                )
            )
        out.append(tuple(per_facing))
    return tuple(out)


def _bar_paths():
    # BAR_PATHS[s][0 inward / 1 outward][k]: spaces passed (landing last), or None off the board.
    out = []
    for s in range(SPACES):
        ring, bar = ring_of(s), bar_of(s)
        per_dir = []
        for step in (-1, 1):
            paths = [None]
            for k in range(1, 7):
                end = ring + step * k
                paths.append(
                    tuple(space(ring + step * j, bar) for j in range(1, k + 1)) if 1 <= end <= RINGS else None
                )
            per_dir.append(tuple(paths))
        out.append(tuple(per_dir))
    return tuple(out)


RING_PATHS = _ring_paths()
BAR_PATHS = _bar_paths()


def _steps():
    # STEPS[s][facing_index][die]: ((direction 0 ring / 1 in / 2 out, landing, spaces passed over), ...)
    out = []
    for s in range(SPACES):
        per_facing = []
        for fi in (0, 1):
            per_die = [()]
            for v in range(1, 7):
                opts = [(0, RING_PATHS[s][fi][v])]
                opts += [(d, BAR_PATHS[s][d - 1][v]) for d in (1, 2)]
                per_die.append(tuple((d, path[-1], path[:-1]) for d, path in opts if path is not None))
            per_facing.append(tuple(per_die))
        out.append(tuple(per_facing))
    return tuple(out)


STEPS = _steps()

#: RING_TERRITORIES[s][facing_index][die]: the set of territories a ring move
#: lands on or passes over.
RING_TERRITORIES = tuple(
    tuple(
        (None,) + tuple(frozenset((bar_of(t) // 4) for t in per_facing[v]) for v in range(1, 7))
        for per_facing in paths
    )
    for paths in RING_PATHS
)

#: NEIGHBOURS[s]: the spaces next to ``s`` along its ring (both ways) and its bar.
NEIGHBOURS = tuple(
    tuple(
        n
        for n in (
            space(ring_of(s), (bar_of(s) + 1) % BARS),
            space(ring_of(s), (bar_of(s) - 1) % BARS),
            s - 16 if ring_of(s) > 1 else None,
            s + 16 if ring_of(s) < RINGS else None,
        )
        if n is not None
    )
    for s in range(SPACES)
)

#: TERRITORY[s]: territory 0..3 of each space.
TERRITORY = tuple(territory_of(s) for s in range(SPACES))
