"""What the games app tells the apps above it, without importing them
(README "Where things live": an app imports only the ones below it).

``match_ended``: sent by ``games.actions`` inside the transaction that ends a
match (finished or aborted), after its result is set and before it is saved;
keyword arguments ``match`` (the locked Match row, status and ``end_reason``
set) and ``seats`` (its Seat rows by index, ranks and statuses set: they are
saved after the receivers run, in the same transaction). A receiver's
writes commit with the result or not at all, so it must not raise for
anything but a bug. ``matchmaking`` takes a room back to its lobby with it
(README "Private rooms"); ``arenas`` scores the match (README "Arenas").

``match_started``: sent by ``games.actions.start_match`` inside the
transaction that starts a match, after it is saved; keyword arguments
``match`` (the Match row, status ``active``) and ``seats`` (its Seat rows).
``api`` tells the players' event streams after commit (docs/api.md).
"""

from django.dispatch import Signal

match_ended = Signal()
match_started = Signal()
