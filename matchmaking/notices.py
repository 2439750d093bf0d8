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

from games import sites
from games.models import Match
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
    text = f"{offered_by} offers a rematch of your {sites.name(match['kind'])} match"
    notify.send_quietly([notify.note_event(u, "rematch", text, href, match=match["public_id"])
                         for u in user_ids])


def challenge_received(user_id: int, challenge_id: int) -> None:
    """Player ``user_id`` was challenged (Challenge row ``challenge_id``);
    they answer on ``/challenges/<id>/``, their play page or their profile."""
    challenge = Challenge.objects.filter(pk=challenge_id).select_related("challenger").first()
    if challenge is None:
        return
    if challenge.turn_based:
        terms = f"turn-based, {challenge.time_control} per decision"
    else:
        terms = f"{challenge.time_control} turns"
    terms += ", rated" if challenge.rated else ", casual"
    text = f"{challenge.challenger.username} challenges you to {sites.name(challenge.kind)} ({terms})"
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
    who = challenge.challenged.username
    game = f"{'rated' if challenge.rated else 'casual'} {sites.name(challenge.kind)}"
    href, match = reverse("challenge", args=[challenge.pk]), None
    if challenge.status == Challenge.Status.ACCEPTED and challenge.match is not None:
        text, match = f"{who} accepted your {game} challenge: the match has begun", challenge.match.public_id
        href = reverse("match", args=[match])
    elif challenge.status == Challenge.Status.DECLINED:
        text = f"{who} declined your {game} challenge"
    else:
        text = f"Your {game} challenge to {who} lapsed"
    notify.send_quietly([notify.note_event(user_id, "challenge", text, href, match=match,
                                           key=f"challenge:{challenge.pk}:{challenge.status}")])
