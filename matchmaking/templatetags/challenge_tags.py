"""``{% challenge_section profile_user %}`` (the profile's challenge form, or
on your own profile your challenges and the choice to take them) and
``{% challenges_for_you %}`` (the play page's list of challenges to you).
Tags, so the pages of ``games`` need no import of matchmaking (README "Playing again")."""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import blocks
from games import sites
from matchmaking import together
from matchmaking.challenges import actions as challenges

register = template.Library()


def _viewer(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


@register.inclusion_tag("matchmaking/challenges.html#profile_section", takes_context=True)
def challenge_section(context, profile_user):
    viewer = _viewer(context)
    own = viewer is not None and viewer.pk == profile_user.pk
    return {
        "request": context.get("request"), "csrf_token": context.get("csrf_token"),
        "viewer": viewer, "profile_user": profile_user, "own": own,
        "games": sites.choices(), "turn_choices": together.time_control_choices(),
        "turn_help": _(together.TIME_CONTROL_HELP),
        "fixed": {sites.name(k): sites.get_site(k).fixed_turn_seconds for k in sites.kinds()
                  if sites.get_site(k).fixed_turn_seconds},
        "takes": challenges.takes_challenges(viewer) if own else None,
        "incoming": challenges.incoming(viewer) if own else [],
        "outgoing": challenges.outgoing(viewer) if own else [],
        "next": reverse("profile", args=[profile_user.username]),
        # The viewer blocked them: no form that would be refused (the blocked side sees
        # the form and a neutral refusal, as for anyone not taking challenges).
        "you_blocked": viewer is not None and not own and blocks.has_blocked(viewer.pk, profile_user.pk),
    }


@register.inclusion_tag("matchmaking/challenges.html#incoming", takes_context=True)
def challenges_for_you(context):
    viewer = _viewer(context)
    return {"request": context.get("request"), "csrf_token": context.get("csrf_token"), "viewer": viewer,
            "incoming": challenges.incoming(viewer) if viewer else [], "next": reverse("play"),
            "poll": viewer is not None}
