"""The site-wide notices of rematch offers and challenges: the one place
matchmaking's rematches and challenges tell a player on whatever page they
have open (README "Playing again"), through the user socket's notes
(notifications.notify, README "Notifications"). A rematch offer's note
names its match, so that match's own page, which shows the offer itself,
shows no toast for it.

Called after commit; never raises (a lost note is logged:
``notify.send_quietly``), and tells nothing to a player who is not there.
"""

from __future__ import annotations

import logging

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games import sites
from games.models import Match
from matchmaking import languages
from matchmaking.models import Challenge
from notifications import notify

log = logging.getLogger(__name__)


def rematch_offered(user_ids: list[int], match_id: int, offered_by: str) -> None:
    """Players ``user_ids`` were offered a rematch of match row ``match_id``
    by ``offered_by`` (a username); they answer on that match's page."""
    match = Match.objects.filter(pk=match_id).values("public_id", "kind").first()
    if match is None:
        return
    href = reverse("match", args=[match["public_id"]])
    events = []
    for code, users in languages.by_language(user_ids).items():  # each in their own language
        with translation.override(code):
            text = _("%(name)s offers a rematch of your %(game)s match") % {
                "name": offered_by, "game": sites.name(match["kind"])}
        events += [notify.note_event(u, "rematch", text, href, match=match["public_id"]) for u in users]
    notify.send_quietly(events)


def challenge_received(user_id: int, challenge_id: int) -> None:
    """Player ``user_id`` was challenged (Challenge row ``challenge_id``);
    they answer on ``/challenges/<id>/``, their play page or their profile."""
    challenge = Challenge.objects.filter(pk=challenge_id).select_related("challenger").first()
    if challenge is None:
        return
    with translation.override(languages.of_users([user_id])[user_id]):
        text = _challenge_text(challenge)
    href, key = reverse("challenge", args=[challenge.pk]), f"challenge:{challenge.pk}"
    # It stays until dismissed, with the time left to answer when live: a
    # challenge is open for minutes, and a note that faded after seconds was
    # easy to miss. A turn-based one is open for days: no countdown in seconds.
    deadline = None if challenge.turn_based else challenge.expires_at
    notify.send_quietly([notify.note_event(user_id, "challenge", text, href, key=key, sticky=True,
                                           deadline=deadline)])


def challenge_answered(user_id: int, challenge_id: int) -> None:
    """The challenger ``user_id``'s challenge ``challenge_id`` was accepted,
    declined or lapsed (told to every page of theirs; the challenge page
    follows it by itself). Withdrawn by themself: nothing to tell."""
    challenge = Challenge.objects.filter(pk=challenge_id).select_related("challenged", "match").first()
    if challenge is None or challenge.status in (Challenge.Status.OPEN, Challenge.Status.CANCELLED):
        return
    href, match = reverse("challenge", args=[challenge.pk]), None
    if challenge.status == Challenge.Status.ACCEPTED and challenge.match is not None:
        match = challenge.match.public_id
        href = reverse("match", args=[match])
    with translation.override(languages.of_users([user_id])[user_id]):
        text = _answer_text(challenge)
    notify.send_quietly([notify.note_event(user_id, "challenge", text, href, match=match,
                                           key=f"challenge:{challenge.pk}:{challenge.status}")])


def _challenge_text(challenge: Challenge) -> str:
    """The note of a challenge received, in the active language."""
    values = {"name": challenge.challenger.username, "game": sites.name(challenge.kind),
              "control": challenge.time_control}
    if challenge.turn_based:
        if challenge.rated:
            return _("%(name)s challenges you to %(game)s (turn-based, %(control)s per decision, "
                     "rated)") % values
        return _("%(name)s challenges you to %(game)s (turn-based, %(control)s per decision, "
                 "casual)") % values
    if challenge.rated:
        return _("%(name)s challenges you to %(game)s (%(control)s turns, rated)") % values
    return _("%(name)s challenges you to %(game)s (%(control)s turns, casual)") % values


def _answer_text(challenge: Challenge) -> str:
    """The note of a challenge accepted, declined or lapsed, in the active language."""
    values = {"name": challenge.challenged.username, "game": sites.name(challenge.kind)}
    accepted = challenge.status == Challenge.Status.ACCEPTED and challenge.match is not None
    if challenge.rated:
        if accepted:
            return _("%(name)s accepted your rated %(game)s challenge: the match has begun") % values
        if challenge.status == Challenge.Status.DECLINED:
            return _("%(name)s declined your rated %(game)s challenge") % values
        return _("Your rated %(game)s challenge to %(name)s lapsed") % values
    if accepted:
        return _("%(name)s accepted your casual %(game)s challenge: the match has begun") % values
    if challenge.status == Challenge.Status.DECLINED:
        return _("%(name)s declined your casual %(game)s challenge") % values
    return _("Your casual %(game)s challenge to %(name)s lapsed") % values
