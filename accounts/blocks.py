"""Blocking a player: the only writer of ``Block`` rows (STYLE habit 3) and
the one query everything a block closes asks (docs/features.md "Blocking a
player", docs/decisions.md "Blocking").

A block is made by one person (the blocker) against another and is shown
only to the blocker. What it closes, and in which direction:

- challenges, from the blocked to the blocker (refused with the words a
  player who turned challenges off gets: the block is not revealed); the
  blocker cannot challenge someone they blocked either (told why: it is
  their own block);
- rematch offers and ranked pairing (live and turn-based queues): both
  ways, as any pairing of the two is avoided;
- a private room's invite, redeemed by someone the host (or a player
  already seated there) blocked: refused as an unusable link;
- preset chat: the blocker's sockets do not show the blocked player's lines
  (one way).

``blocked_between(user_ids)`` answers every question about a group of
players in one query.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import Block, User
from core.errors import Refused


class BlockRefused(Refused):
    """A refused block or unblock; ``message`` is safe to show. Nothing changed."""

    code = "block_refused"


def _target(username) -> User | None:
    if not isinstance(username, str) or not username.strip() or len(username) > 150:
        return None
    return User.objects.filter(username__iexact=username.strip()).first()


def check_block(blocker, username) -> User:
    """The account ``blocker`` may block, named ``username`` (any case).
    Raises BlockRefused: not signed in, no such player, oneself, a closed
    (inactive) account."""
    if blocker is None or not getattr(blocker, "is_authenticated", False):
        raise BlockRefused(_("Log in to block a player."))
    target = _target(username)
    if target is None:
        raise BlockRefused(_("There is no such player."))
    if target.pk == blocker.pk:
        raise BlockRefused(_("You cannot block yourself."))
    if not target.is_active:
        raise BlockRefused(_("That account is closed; there is no one to block."))
    return target


def do_block(blocker, username) -> Block:
    """``blocker`` blocks the player named ``username``. Raises BlockRefused
    (``check_block``; already blocked). The caller tells the blocker's sockets
    (``accounts.sockets.blocks_changed``)."""
    target = check_block(blocker, username)
    try:
        with transaction.atomic():
            block = Block.objects.create(blocker_id=blocker.pk, blocked=target)
    except IntegrityError:
        raise BlockRefused(_("You have already blocked %(name)s.") % {"name": target.username}) from None
    return block


def do_unblock(blocker, username) -> User:
    """``blocker`` unblocks the player named ``username``; returns them.
    Raises BlockRefused (not signed in, not blocked). The caller tells the
    blocker's sockets, as for ``do_block``."""
    if blocker is None or not getattr(blocker, "is_authenticated", False):
        raise BlockRefused(_("Log in first."))
    target = _target(username)
    if target is None or not Block.objects.filter(blocker_id=blocker.pk, blocked=target).delete()[0]:
        raise BlockRefused(_("You have not blocked that player."))
    return target


def blocked_list(user) -> list[Block]:
    """``user``'s blocks, newest first, with the blocked accounts."""
    return list(Block.objects.filter(blocker_id=user.pk).select_related("blocked").order_by("-created_at"))


def has_blocked(blocker_id, blocked_id) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id``."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_ids(user_id) -> frozenset[int]:
    """The ids of everyone ``user_id`` blocked (a chat socket's hidden set)."""
    if user_id is None:
        return frozenset()
    return frozenset(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocked_ids_query(user_id):
    """The ids of everyone ``user_id`` blocked, as a subquery (``exclude(x__in=...)``)."""
    return Block.objects.filter(blocker_id=user_id).values("blocked_id")


def blocked_between(user_ids: Iterable[int]) -> set[tuple[int, int]]:
    """Every block among ``user_ids``, as (blocker id, blocked id) pairs: one
    query (none for fewer than two players)."""
    ids = {i for i in user_ids if i is not None}
    if len(ids) < 2:
        return set()
    return set(Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids)
               .values_list("blocker_id", "blocked_id"))


def apart(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs of ``user_ids`` never to be seated together: a block either
    way (``blocked_between``, one query)."""
    return {frozenset(pair) for pair in blocked_between(user_ids)}


def any_block(user_ids: Iterable[int]) -> bool:
    """Whether any two of ``user_ids`` are apart (a block either way)."""
    return bool(blocked_between(user_ids))


def blocked_by_any(blocker_ids, user_id) -> bool:
    """Whether any of ``blocker_ids`` (ids, or a subquery of them) blocked
    ``user_id``: one query."""
    return Block.objects.filter(blocker_id__in=blocker_ids, blocked_id=user_id).exists()
