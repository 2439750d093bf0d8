"""The profile's moderation section (README "Moderation"): a player's rating
corrections (voided matches), shown to everyone, and, on your own profile,
the status of the reports you sent. The profile page (games) loads it as a
template tag, so games never imports moderation."""

from django import template

from games.models import RatingVoid
from moderation.reports import my_reports

register = template.Library()


@register.inclusion_tag("moderation/profile_section.html", takes_context=True)
def profile_moderation(context, profile_user):
    viewer = context.get("user")
    own = bool(viewer is not None and viewer.is_authenticated and viewer.pk == profile_user.pk)
    voids = list(RatingVoid.objects.filter(user=profile_user).select_related("match"))
    for v in voids:  # what the void did to the rating, signed ("-12", "+8")
        v.correction = f"{v.rating_after - v.rating_before:+.0f}".replace("-", "\u2212")
    return {"own": own, "reports": my_reports(profile_user) if own else [], "voids": voids}
