"""The only writers of follows. Each refuses (``FollowRefused``, nothing
changed) or does what was asked; following twice or unfollowing someone
not followed changes nothing and is no error."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import Refused
from people.models import Follow

#: The most people one person may follow (Lichess has a cap too): the list
#: of the people you follow is one bounded page.
MAX_FOLLOWING = 500


class FollowRefused(Refused):
    code = "follow_refused"


def _target(username: str) -> User:
    try:
        return User.objects.get_by_natural_key(username)
    except User.DoesNotExist:
        raise FollowRefused(_("There is no player with that name.")) from None


def follow(user: User, username: str) -> User:
    """``user`` follows the active account named ``username`` (any case)."""
    target = _target(username)
    if target.pk == user.pk:
        raise FollowRefused(_("You cannot follow yourself."))
    if not target.is_active:
        raise FollowRefused(_("That account is closed."))
    with transaction.atomic():
        if Follow.objects.filter(follower=user, followed=target).exists():
            return target
        if Follow.objects.filter(follower=user).count() >= MAX_FOLLOWING:
            raise FollowRefused(_("You follow %(n)d players already: unfollow one first.")
                                % {"n": MAX_FOLLOWING})
        try:
            with transaction.atomic():
                Follow.objects.create(follower=user, followed=target)
        except IntegrityError:  # the same follow from another tab a moment ago
            pass
    return target


def unfollow(user: User, username: str) -> User:
    """``user`` no longer follows ``username`` (closed accounts included).
    Raises ``FollowRefused`` when ``user`` did not follow them (nothing to undo)."""
    target = _target(username)
    removed = Follow.objects.filter(follower=user, followed=target).delete()[0]
    if not removed:
        raise FollowRefused(_("You were not following %(name)s.") % {"name": target.display_name})
    return target
