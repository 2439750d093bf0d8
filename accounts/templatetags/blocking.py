"""``{% profile_blocking profile_user %}``: on someone else's profile, the
Block or Unblock button (a POST form to the block list, with CSRF); on your
own, the link to your block list (``accounts.views_blocks``). One query, and
none for a visitor or on your own profile."""

from django import template

from accounts import blocks

register = template.Library()


@register.inclusion_tag("accounts/profile_blocking.html", takes_context=True)
def profile_blocking(context, profile_user):
    viewer = context.get("user")
    signed_in = viewer is not None and viewer.is_authenticated
    own = signed_in and viewer.pk == profile_user.pk
    return {
        "request": context.get("request"), "csrf_token": context.get("csrf_token"),
        "profile_user": profile_user, "own": own, "signed_in": signed_in,
        "blocked": signed_in and not own and blocks.has_blocked(viewer.pk, profile_user.pk),
    }
