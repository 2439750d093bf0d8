"""Profiles with their games (ratings, rating charts, recent matches) and
the leaderboards (README "Ranked play").

The profile page lives here, not in ``accounts``, because it shows matches
and ``accounts`` imports no other app (STYLE "Models point one way"); it
renders ``accounts/profile.html`` through ``games/profile.html``.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_safe

from accounts.elo import PROVISIONAL_GAMES
from accounts.models import Rating, User
from games import history, luck_summary, sites
from games.chart import rating_chart

RECENT_MATCHES = 10


@require_safe
def profile(request, username):
    """Public profile at ``/u/<username>/`` (case-insensitive); 404 for an unknown user."""
    user = get_object_or_404(User, username__iexact=username, is_active=True)
    have = {r.kind: r for r in Rating.objects.filter(user=user)}
    games = []
    for kind, label in sites.choices():
        rating = have.get(kind)
        chart = rating_chart(history.rating_history(user, kind)) if rating else None
        games.append({"kind": kind, "label": label, "rating": rating, "chart": chart})
    recent = history.history_rows(user, history.user_seats(user, request.user)[:RECENT_MATCHES])
    viewer = request.user if request.user.is_authenticated else None
    return render(request, "games/profile.html",
                  {"profile_user": user, "games": games, "recent": recent,
                   "dice_games": luck_summary.profile_dice(user, viewer),
                   "dice_private": viewer is not None and viewer.pk == user.pk})


@require_safe
def leaderboard(request, kind=None):
    """One game's leaderboard: the top 100 established ratings, then the top 100
    provisional ones, marked; ``/leaderboard/`` shows the first game.
    ``?control=live`` or ``turn-based`` lists only the players who played rated
    matches of that time control, with how many (one rating per game: the
    filter is over who is listed, docs/decisions.md "The turn-based ranked
    queue"); any other value gets the whole board and says so (400)."""
    kinds = sites.choices()
    if kind is None:
        return redirect("leaderboard_kind", kind=kinds[0][0])
    label = dict(kinds).get(kind)
    if label is None:
        raise Http404("No leaderboard for that game.")
    control = request.GET.get("control", "")
    refused = control not in ("", *history.CONTROLS)
    if refused:
        control = ""
    return render(request, "games/leaderboard.html",
                  {"kind": kind, "label": label, "kinds": kinds,
                   "rows": history.leaderboard(kind, control),
                   "provisional": history.provisional_board(kind, control),
                   "provisional_games": PROVISIONAL_GAMES, "control": control,
                   "controls": [("", "All"), ("live", "Live"), ("turn-based", "Turn-based")],
                   "refused": refused},
                  status=400 if refused else 200)
