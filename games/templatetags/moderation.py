"""Profile sections from moderation (issue 9): a player's rating corrections
(voided matches), shown to everyone, and, on your own profile, the status
of the reports you sent."""

from django import template

from games.models import RatingVoid
from games.reports import my_reports

register = template.Library()


@register.inclusion_tag("games/profile_moderation.html", takes_context=True)
def profile_moderation(context, profile_user):
    viewer = context.get("user")
    own = bool(viewer is not None and viewer.is_authenticated and viewer.pk == profile_user.pk)
    voids = list(RatingVoid.objects.filter(user=profile_user).select_related("match"))
    for v in voids:  # what the void did to the rating, signed ("-12", "+8")
        v.correction = f"{v.rating_after - v.rating_before:+.0f}".replace("-", "\u2212")
    return {"own": own, "reports": my_reports(profile_user) if own else [], "voids": voids}
