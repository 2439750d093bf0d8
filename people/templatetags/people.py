"""The profile's follow section: followers and following counts (links to
the public lists) and, for another signed-in person, the Follow or Unfollow
button. The profile page (games) loads it as a template tag, so games never
imports people."""

from django import template

from people import following

register = template.Library()


@register.inclusion_tag("people/profile_section.html", takes_context=True)
def profile_follow(context, profile_user):
    viewer = context.get("user")
    signed_in = bool(viewer is not None and viewer.is_authenticated)
    return {"profile_user": profile_user, "counts": following.counts(profile_user),
            "own": signed_in and viewer.pk == profile_user.pk,
            "signed_in": signed_in, "follows": following.follows(viewer, profile_user),
            "csrf_token": context.get("csrf_token"), "request": context.get("request")}
