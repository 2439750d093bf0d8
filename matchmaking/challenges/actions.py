"""Challenges: the only writer of Challenge and ChallengePreference rows
(STYLE habit 3). README "Playing again" holds the rules:

- From a player's profile, challenge them to a two-seat match of a game with
  a time control: live seconds (Ludo's always 60 s) or turn-based days per
  decision (``together.time_control``), casual or rated (as on Lichess, for
  people and bot accounts alike: a rated challenge is the one way a bot
  plays a rated match against a person). A rated challenge is public: a
  rated match can be watched, so rated and private together are refused.
  A pair whose rated match a moderator voided gets no rated challenge
  (``voided_pair``; a casual one is still fine), as it earns no rated
  rematch. The seats are drawn by lot when the match starts; its rematches
  follow ``together.rematch_rating`` as any rated match's.
- The challenged player accepts or declines; the challenger may withdraw; an
  open challenge lapses (``lifetime``) after CHALLENGE_SECONDS (5 minutes: a
  Celery task at the time, the queue wave as its back-up) when live, after
  one decision's days when turn-based (the queue wave alone: no task waits
  days); any answer past it is refused.
- Refusals are plain and change nothing: challenging oneself; a flood
  (CHALLENGE_RATE per challenger, at most MAX_OPEN open ones, one at a time
  to the same player); a live challenge accepted while either player is
  seated in a live rated or arena match, a turn-based one while either is in
  as many turn-based matches as one may be (``together.check_seatable``). A banned
  player and one who turned challenges off get the same refusal
  (NOT_TAKING): a refusal must not tell of a moderation action.
- Blocks (``accounts.blocks``): a player who blocked the challenger gets no
  challenge from them, and the challenger is told NOT_TAKING, as for one who
  turned challenges off (the block is not revealed); a player cannot
  challenge someone they blocked (told so); a challenge sent before a block
  cannot be accepted, and the blocker's list of incoming challenges leaves
  out those of the players they blocked.

Answers lock the challenge row (``SELECT ... FOR UPDATE``; SQLite's IMMEDIATE
transactions serialise writers) and ``Challenge.match`` is unique, so two
accepts at once start exactly one match and an accept racing the lapse
either starts it or finds it lapsed. Pushes and tasks leave after commit.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import blocks, confirmation
from accounts.models import User
from core import ratelimits
from core.errors import Refused
from games import actions as match_actions
from games import sites, time_controls
from games.engine import get_rules
from games.models import RatingVoid
from matchmaking import notices, signals, together
from matchmaking.models import Challenge, ChallengePreference, QueueEntry

log = logging.getLogger(__name__)
_shuffle = random.SystemRandom().shuffle

#: Seconds a live challenge stays open (a turn-based one: ``lifetime``).
CHALLENGE_SECONDS = 5 * 60
#: Challenges one player may send (``limits`` notation), and have open at once.
CHALLENGE_RATE = "10/10minute"
MAX_OPEN = 3
LAPSE_TASK = "matchmaking.tasks.lapse_challenge"
# English here (the API, the tests); translated where raised (``_(NOT_TAKING)``).
NOT_TAKING = gettext_noop("{name} is not taking challenges now.")
NO_SUCH = gettext_noop("There is no such challenge.")
#: What rated and private together are told (``check_rated``).
RATED_IS_PUBLIC = gettext_noop("A rated challenge is public: anyone may watch a rated match. "
                               "Untick Private or Rated.")
#: What a ``rated`` that is neither yes nor no is told.
RATED_REFUSED = gettext_noop("Rated is yes or no: tick the box for a rated challenge, "
                             "or leave it for a casual one.")
#: What a pair with a voided rated match between them is told (``voided_pair``), sending
#: a rated challenge and accepting one (a void since it was sent).
VOIDED_PAIR = gettext_noop("A moderator voided a rated match between you two, so your challenges are "
                           "casual: untick Rated.")
VOIDED_PAIR_ACCEPT = gettext_noop("A moderator voided a rated match between you two, so this rated challenge "
                                  "cannot be played; challenge each other casual.")


class ChallengeRefused(Refused):
    """A refused challenge action; ``message`` is safe to show. Nothing changed."""

    code = "challenge_refused"


def lifetime(turn_seconds: int) -> int:
    """Seconds a challenge to a match of ``turn_seconds`` per decision stays
    open: CHALLENGE_SECONDS for a live one (both players are there now),
    one decision's time for a turn-based one (its players come back when
    told; docs/features.md "Turn-based play")."""
    return turn_seconds if time_controls.is_turn_based(turn_seconds) else CHALLENGE_SECONDS


def takes_challenges(user) -> bool:
    """Whether ``user`` lets others challenge them (their profile's choice; default yes)."""
    return ChallengePreference.objects.filter(user_id=user.pk, accepts=False).first() is None


def do_set_takes_challenges(user, accepts: bool) -> None:
    """``user`` turns challenges on or off for themself."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise ChallengeRefused(_("Log in first."))
    ChallengePreference.objects.update_or_create(user=user, defaults={"accepts": bool(accepts)})


def _can_be_challenged(user) -> bool:
    """Active, not banned, taking challenges, and with a confirmed address
    (an unconfirmed one could not accept: docs/features.md "Confirming your e-mail")."""
    return user.is_active and not user.is_banned and user.email_confirmed and takes_challenges(user)


def check_settings(kind, turn_seconds) -> tuple[str, int]:
    """The (kind, turn seconds) a challenge form sent, checked: a registered
    game that has two-seat matches, and a time control offered
    (``together.time_control``: live seconds, a game with a fixed live turn
    time taking its own, or turn-based days). Raises ChallengeRefused."""
    kind = str(kind)[:16]
    if kind not in sites.kinds() or 2 not in get_rules(kind).player_counts:
        raise ChallengeRefused(_("Choose a game that can be played here."))
    if turn_seconds is None or str(turn_seconds).strip() == "":
        raise ChallengeRefused(together.time_control_refused())
    return kind, together.time_control(kind, str(turn_seconds)[:16], ChallengeRefused)


def check_rated(rated, is_public) -> bool:
    """Whether a challenge is rated, from ``rated`` as a caller sent it: a
    bool (the API), or the form's checkbox ("on", or absent: None or "").
    Raises ChallengeRefused: RATED_REFUSED for anything else ("yes", 1),
    RATED_IS_PUBLIC when rated and not ``is_public``."""
    if isinstance(rated, bool):
        value = rated
    elif rated is None or rated == "" or rated == "on":
        value = rated == "on"
    else:
        raise ChallengeRefused(_(RATED_REFUSED))
    if value and not is_public:
        raise ChallengeRefused(_(RATED_IS_PUBLIC))
    return value


def do_challenge(challenger, username, kind, turn_seconds, *, is_public: bool = True, rated=False,
                 now=None) -> Challenge:
    """``challenger`` challenges the player named ``username`` (any case) to a
    two-seat match of ``kind`` with ``turn_seconds`` per decision, public to
    watch unless ``is_public`` is false, rated when ``rated`` (``check_rated``:
    a bool, or the form's "on"). Returns the open Challenge; the challenged
    player is told after commit. Raises ChallengeRefused (not signed in or
    banned, oneself, no such player, NOT_TAKING, bad settings, RATED_REFUSED,
    RATED_IS_PUBLIC, a turn-based challenge from a player at the turn-based
    limit, already challenged, MAX_OPEN open, over CHALLENGE_RATE)."""
    if challenger is None or not getattr(challenger, "is_authenticated", False):
        raise ChallengeRefused(_("Log in to challenge a player."))
    if getattr(challenger, "is_banned", False):
        raise ChallengeRefused(_("Your account is banned, so you cannot challenge anyone."))
    confirmation.check_confirmed(challenger)
    target = User.objects.filter(username__iexact=str(username)[:150]).first()
    if target is None or not target.is_active:
        raise ChallengeRefused(_("There is no such player."))
    if target.pk == challenger.pk:
        raise ChallengeRefused(_("You cannot challenge yourself."))
    if not _can_be_challenged(target):
        raise ChallengeRefused(_(NOT_TAKING).format(name=target.username))
    _check_not_blocked(challenger, target)
    kind, seconds = check_settings(kind, turn_seconds)
    rated = check_rated(rated, bool(is_public))
    if rated and voided_pair(challenger, target):
        raise ChallengeRefused(_(VOIDED_PAIR))
    now = now or timezone.now()
    with transaction.atomic():
        # The challenger's own rows serialise their challenges (two at once count as two).
        User.objects.select_for_update().filter(pk=challenger.pk).first()
        if time_controls.is_turn_based(seconds):  # early: the accept checks again, after the claim
            _check_seatable([challenger], seconds, you=challenger)
        mine = Challenge.objects.filter(challenger=challenger, status=Challenge.Status.OPEN,
                                        expires_at__gt=now)
        if mine.filter(challenged=target).exists():
            raise ChallengeRefused(_("You have already challenged %(name)s; wait for the answer.")
                                   % {"name": target.username})
        if mine.count() >= MAX_OPEN:
            raise ChallengeRefused(_("You have %(n)s open challenges; wait for their answers first.")
                                   % {"n": MAX_OPEN})
        if not ratelimits.hit(CHALLENGE_RATE, "challenge", "user", challenger.pk):
            raise ChallengeRefused(_("Too many challenges; wait a few minutes and try again."))
        challenge = Challenge.objects.create(
            challenger=challenger, challenged=target, kind=kind, turn_seconds=seconds,
            is_public=bool(is_public), rated=rated, created_at=now,
            expires_at=now + timedelta(seconds=lifetime(seconds)))
        challenge_id, target_id, lapses_at = challenge.pk, target.pk, challenge.expires_at
        if not challenge.turn_based:  # a turn-based one lapses in the queue wave: no task waits days
            transaction.on_commit(lambda: together.send_task(LAPSE_TASK, (challenge_id,), at=lapses_at))
        transaction.on_commit(lambda: notices.challenge_received(target_id, challenge_id))
        signals.challenge_made.send(sender=Challenge, challenge=challenge)
    return challenge


def _check_not_blocked(challenger, target) -> None:
    """Refuse a challenge across a block (module docstring), in one query."""
    found = blocks.blocked_between([challenger.pk, target.pk])
    if (challenger.pk, target.pk) in found:
        raise ChallengeRefused(_("You blocked %(name)s; unblock them (your block list, "
                                 "from your profile) to challenge them.") % {"name": target.username})
    if found:
        raise ChallengeRefused(_(NOT_TAKING).format(name=target.username))


def voided_pair(one, other) -> bool:
    """Whether users ``one`` and ``other`` were both in a rated match whose
    rating a moderator voided (one indexed query): they get no rated
    challenge, as they get no rated rematch (``together.rematch_rating``)."""
    theirs = RatingVoid.objects.filter(user_id=other.pk).values("match_id")
    return RatingVoid.objects.filter(user_id=one.pk, match_id__in=theirs).exists()


def visible_challenge(challenge_id, user) -> Challenge:
    """Challenge ``challenge_id`` if ``user`` is one of its two players (an
    open one past its time reads as lapsed); else ChallengeRefused(_(NO_SUCH)),
    the same for someone else's as for none."""
    challenge = (Challenge.objects.filter(pk=_int(challenge_id))
                 .select_related("challenger", "challenged", "match").first())
    if not _is_party(challenge, user):
        raise ChallengeRefused(_(NO_SUCH))
    if challenge.status == Challenge.Status.OPEN and challenge.expires_at <= timezone.now():
        challenge.status = Challenge.Status.LAPSED
    return challenge


def _locked(challenge_id, user) -> Challenge:
    challenge = (Challenge.objects.select_for_update().filter(pk=_int(challenge_id))
                 .select_related("challenger", "challenged").first())
    if not _is_party(challenge, user):
        raise ChallengeRefused(_(NO_SUCH))
    return challenge


def _closed(status: str) -> str:
    """Why a challenge of ``status`` (not open) cannot be answered or withdrawn."""
    if status == Challenge.Status.ACCEPTED:
        return _("This challenge is no longer open (accepted).")
    if status == Challenge.Status.DECLINED:
        return _("This challenge is no longer open (declined).")
    if status == Challenge.Status.CANCELLED:
        return _("This challenge is no longer open (withdrawn).")
    return _("This challenge is no longer open (lapsed).")


def _is_party(challenge: Challenge | None, user) -> bool:
    return challenge is not None and getattr(user, "pk", None) in (challenge.challenger_id,
                                                                   challenge.challenged_id)


def _require_open(challenge: Challenge, now) -> None:
    if challenge.status == Challenge.Status.OPEN and challenge.expires_at <= now:
        raise ChallengeRefused(_("This challenge lapsed: it was not answered within %(time)s.")
                               % {"time": challenge.open_for})
    if challenge.status != Challenge.Status.OPEN:
        raise ChallengeRefused(_closed(challenge.status))


def do_answer(challenge_id, user, accept: bool, *, now=None) -> Challenge:
    """The challenged ``user`` accepts (``accept``) or declines. Accepting
    starts the match at once: two seats drawn by lot, the challenge's game,
    turn time, visibility and rating (``Match.rated``: its end moves both
    players' ratings, ``games.rating``); both leave any ranked queue.
    A second accept of an accepted challenge returns it unchanged. Raises
    ChallengeRefused (not theirs to answer, no longer open or lapsed, the
    accepting player banned, the challenger no longer able to play, either
    of them not seatable: ``together.check_seatable``)."""
    now = now or timezone.now()
    with transaction.atomic():
        challenge = _locked(challenge_id, user)
        if challenge.challenged_id != user.pk:
            raise ChallengeRefused(_("Only the challenged player answers a challenge."))
        if accept and challenge.status == Challenge.Status.ACCEPTED:
            return challenge  # a double click, another tab: the match is already there
        _require_open(challenge, now)
        if not accept:
            _close(challenge, Challenge.Status.DECLINED, now)
            return challenge
        if getattr(user, "is_banned", False):
            raise ChallengeRefused(_("Your account is banned, so you cannot start matches."))
        confirmation.check_confirmed(user)
        together.claim([user.pk, challenge.challenger_id])
        challenger = challenge.challenger
        if not challenger.is_active or challenger.is_banned or blocks.any_block([user.pk, challenger.pk]):
            raise ChallengeRefused(_("This challenge cannot be played now."))
        _check_seatable([user, challenger], challenge.turn_seconds, you=user)
        if challenge.rated and voided_pair(user, challenger):  # a void since it was sent
            raise ChallengeRefused(_(VOIDED_PAIR_ACCEPT))
        players = [challenger, challenge.challenged]
        _shuffle(players)
        match = match_actions.create_match(
            challenge.kind, [match_actions.SeatSpec(user=u) for u in players],
            rated=challenge.rated,
            is_public=challenge.is_public, turn_seconds=challenge.turn_seconds,
            options=dict(get_rules(challenge.kind).default_options))
        match = match_actions.start_match(match.public_id)
        challenge.match = match
        QueueEntry.objects.filter(user_id__in=[u.pk for u in players], match__isnull=True).delete()
        _close(challenge, Challenge.Status.ACCEPTED, now)
        log.info("challenge %s accepted: match %s", challenge.pk, match.public_id)
    return challenge


def _check_seatable(users, turn_seconds: int, *, you) -> None:
    try:
        together.check_seatable(users, turn_seconds, you=you)
    except match_actions.NotAllowed as e:
        raise ChallengeRefused(e.message) from None


def do_cancel(challenge_id, user, *, now=None) -> Challenge:
    """The challenger withdraws an open challenge. Raises ChallengeRefused."""
    now = now or timezone.now()
    with transaction.atomic():
        challenge = _locked(challenge_id, user)
        if challenge.challenger_id != user.pk:
            raise ChallengeRefused(_("Only the challenger withdraws a challenge."))
        _require_open(challenge, now)
        _close(challenge, Challenge.Status.CANCELLED, now)
    return challenge


def _close(challenge: Challenge, status: str, now) -> None:
    challenge.status, challenge.answered_at = status, now
    challenge.save(update_fields=["status", "answered_at", "match"])
    challenger_id, challenge_id = challenge.challenger_id, challenge.pk
    transaction.on_commit(lambda: notices.challenge_answered(challenger_id, challenge_id))
    signals.challenge_gone.send(sender=Challenge, challenge=challenge)


def lapse(challenge_id: int, *, now=None) -> bool:
    """Lapse challenge ``challenge_id`` if it is still open past its time
    (the Celery task at CHALLENGE_SECONDS); True if it lapsed now."""
    now = now or timezone.now()
    with transaction.atomic():
        challenge = (Challenge.objects.select_for_update()
                     .filter(pk=challenge_id, status=Challenge.Status.OPEN, expires_at__lte=now).first())
        if challenge is None:
            return False
        _close(challenge, Challenge.Status.LAPSED, now)
    return True


def lapse_overdue(now=None) -> int:
    """Lapse the open challenges past their time whose task was lost (the
    queue wave, every 2 s). Returns how many lapsed."""
    now = now or timezone.now()
    ids = list(Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now)
               .values_list("pk", flat=True)[:100])
    return sum(lapse(i, now=now) for i in ids)


def incoming(user, now=None) -> list[Challenge]:
    """The open challenges to ``user``, newest first, but for those of players
    ``user`` blocked."""
    now = now or timezone.now()
    blocked = blocks.blocked_ids_query(user.pk)
    return list(Challenge.objects.filter(challenged_id=user.pk, status=Challenge.Status.OPEN,
                                         expires_at__gt=now)
                .exclude(challenger_id__in=blocked).select_related("challenger")[:20])


def outgoing(user, now=None) -> list[Challenge]:
    """The open challenges ``user`` sent, newest first."""
    now = now or timezone.now()
    return list(Challenge.objects.filter(challenger_id=user.pk, status=Challenge.Status.OPEN,
                                         expires_at__gt=now).select_related("challenged")[:20])


def _int(value) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return -1
    return number if 0 < number < 2**63 else -1
