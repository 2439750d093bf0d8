"""The search page, the follow buttons' forms, the list of the people you
follow and the public lists of a player's followers and follows. Plain
forms that work without JavaScript; each write calls one action
(``people.actions``)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.models import User
from people import actions, following
from people.search import SearchForm, search

#: Names per page of the public follower and following lists.
LIST_PAGE = 50


@require_safe
def search_page(request):
    """``/people/?q=<start of a name>[&after=<last name of the page before>]``.
    No ``q``: the empty form. A bad query (empty, too long) gets the form
    with the reason, 400, and no query runs."""
    if "q" not in request.GET:
        return render(request, "people/search.html", {"form": SearchForm()})
    form = SearchForm(request.GET)
    if not form.is_valid():
        return render(request, "people/search.html", {"form": form}, status=400)
    q, after = form.cleaned_data["q"], form.cleaned_data["after"]
    return render(request, "people/search.html",
                  {"form": form, "q": q, "after": after, "results": search(q, after)})


def _back_to_profile(request, username):
    return redirect("profile", username=username)


@login_required
@require_POST
def follow(request, username):
    try:
        target = actions.follow(request.user, username)
    except actions.FollowRefused as e:
        messages.error(request, e.message)
        return _back_to_profile(request, username)
    messages.success(request, _("You follow %(name)s.") % {"name": target.username})
    return _back_to_profile(request, target.username)


@login_required
@require_POST
def unfollow(request, username):
    try:
        target = actions.unfollow(request.user, username)
    except actions.FollowRefused as e:
        messages.error(request, e.message)
        return _back_to_profile(request, username)
    messages.success(request, _("You no longer follow %(name)s.") % {"name": target.username})
    return _back_to_profile(request, target.username)


@login_required
@require_safe
def following_page(request):
    """The people you follow: who is online, who is playing (watch or challenge)."""
    return render(request, "people/following.html", {"rows": following.following(request.user)})


def _list_page(request, username, which):
    user = get_object_or_404(User, username__iexact=username, is_active=True)
    rows = following.followers(user) if which == "followers" else following.followed_by(user)
    page = Paginator(rows, LIST_PAGE).get_page(request.GET.get("page"))
    people = [f.follower if which == "followers" else f.followed for f in page]
    return render(request, "people/list.html",
                  {"profile_user": user, "which": which, "page": page, "people": people})


@require_safe
def followers_page(request, username):
    return _list_page(request, username, "followers")


@require_safe
def followed_page(request, username):
    return _list_page(request, username, "following")
