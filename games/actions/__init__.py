"""The only writers of matches (STYLE habit 3): start, play, chance, time out,
computer moves, leave, pause, resume, finish. One module per verb:

- ``start``: create a match with its seats, start it; who is busy (live and
  turn-based matches apart); the limits on matches against computers and on
  turn-based matches one account plays at once;
- ``move``: a player's move; ``computer``: a computer seat's move, sent again
  when its task was lost; ``timeout``: a missed decision, the overdue ones;
- ``leave``; ``pause`` (and resume); ``finish``: the result and the ratings,
  and abort;
- ``advance``: what follows every accepted change (chance, forced moves, the
  next deadline or computer move); ``clock``: the holidays that stop a
  turn-based clock;
- ``core``: locking and loading the match, the change record and its save
  (which pushes after commit); ``errors``: the refusals.

Every action runs in one transaction, takes the match row's lock (PostgreSQL
``SELECT ... FOR UPDATE``; SQLite's IMMEDIATE transactions already serialise
writers) and saves with a conditional UPDATE on the version it read, so a
stale or repeated submission changes nothing. Each accepted action bumps
``Match.version`` by one, however many plies it records. Pushes and Celery
tasks leave only after commit (``games.push``, ``games.tasks``).

After any accepted change the match is *advanced* (``advance``): chance
steps are drawn with the fair RNG (docs/rules.md "Provably fair
randomness"), forced moves are played for the seat when the match option
allows, and the next decision gets its deadline (a human) or its Celery task
and retry time (a computer). Every decision a match waits for has a time in
the database that the sweeper finds (``overdue_matches``,
``overdue_computer_moves``), so a lost task never stalls a match (README
"How live play works").

Callers use this package's names (``from games import actions``;
``actions.play_move``), not its modules.
"""

from games.actions.computer import overdue_computer_moves, play_computer_move, resend_computer_move
from games.actions.errors import (
    ActionError,
    BadMove,
    MatchNotFound,
    NoSeat,
    NotAllowed,
    NotYourTurn,
    StaleVersion,
    TooLate,
    TooManyComputerMatches,
    TooManyTurnBasedMatches,
)
from games.actions.finish import abort_match
from games.actions.leave import leave_match
from games.actions.move import MAX_PLIES_PER_ACTION, play_move
from games.actions.pause import PAUSE_RATE, pause_match, resume_match
from games.actions.start import (
    BUSY,
    SeatSpec,
    busy_matches,
    busy_users,
    check_computer_matches,
    check_turn_based_limit,
    computer_matches,
    create_match,
    playing_matches,
    start_computer_match,
    start_match,
    turn_based_count,
    turn_based_counts,
    turn_based_full,
)
from games.actions.timeout import expire_turn, overdue_matches

__all__ = [
    "BUSY",
    "MAX_PLIES_PER_ACTION",
    "PAUSE_RATE",
    "ActionError",
    "BadMove",
    "MatchNotFound",
    "NoSeat",
    "NotAllowed",
    "NotYourTurn",
    "SeatSpec",
    "StaleVersion",
    "TooLate",
    "TooManyComputerMatches",
    "TooManyTurnBasedMatches",
    "abort_match",
    "busy_matches",
    "playing_matches",
    "busy_users",
    "check_computer_matches",
    "check_turn_based_limit",
    "computer_matches",
    "create_match",
    "expire_turn",
    "leave_match",
    "overdue_computer_moves",
    "overdue_matches",
    "pause_match",
    "play_computer_move",
    "play_move",
    "resend_computer_move",
    "resume_match",
    "start_computer_match",
    "start_match",
    "turn_based_count",
    "turn_based_counts",
    "turn_based_full",
]
