"""What matchmaking tells the apps above it, without importing them
(README "Where things live"). Each is sent inside the action's transaction,
so a receiver's effects belong after commit (``transaction.on_commit``).

- ``challenge_made``: ``challenge`` (the new open Challenge row);
- ``challenge_gone``: ``challenge`` (no longer open: its ``status`` says
  accepted, declined, cancelled or lapsed; ``match`` set when accepted);
- ``rematch_offered``: ``match`` (the ended Match), ``by`` (the offering
  User), ``to`` (the ids of the other human players, who are asked).

``api`` sends them to the players' event streams (docs/api.md).
"""

from django.dispatch import Signal

challenge_made = Signal()
challenge_gone = Signal()
rematch_offered = Signal()
