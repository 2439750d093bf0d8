"""Profiles with their games (ratings, rating charts, recent matches) and
the leaderboards (README "Ranked play").

The profile page lives here, not in ``accounts``, because it shows matches
and ``accounts`` imports no other app (STYLE "Models point one way"); it
renders ``accounts/profile.html`` through ``games/profile.html``.
"""

from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_safe

from accounts.elo import PROVISIONAL_GAMES
from accounts.models import Rating, User
from games import history, luck_summary, sites
from games.chart import rating_chart

RECENT_MATCHES = 10
#: The leaderboard's time control tabs: ``?control=`` value, label.
CONTROL_TABS = [("", gettext_lazy("All")), ("live", gettext_lazy("Live")),
                ("turn-based", gettext_lazy("Turn-based"))]

#: A time control's name inside a sentence ("rated live matches").
CONTROL_NAMES = {"live": lambda: pgettext("time control", "live"),
                 "turn-based": lambda: pgettext("time control", "turn-based")}


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
    queue"); any other value gets the whole board and says so (400).
    People only; ``?bots=1`` the bot accounts' board instead (docs/api.md
    "Bot accounts"), any other value of ``bots`` the people's, said so (400)."""
    kinds = sites.choices()
    if kind is None:
        url = reverse("leaderboard_kind", args=[kinds[0][0]])
        return redirect(f"{url}?{request.GET.urlencode()}" if request.GET else url)
    label = dict(kinds).get(kind)
    if label is None:
        raise Http404("No leaderboard for that game.")
    control = request.GET.get("control", "")
    refused = control not in ("", *history.CONTROLS)
    if refused:
        control = ""
    bots_arg = request.GET.get("bots", "")
    bots_refused = bots_arg not in ("", "0", "1")
    bots = bots_arg == "1"
    return render(request, "games/leaderboard.html",
                  {"kind": kind, "label": label, "kinds": kinds,
                   "rows": history.leaderboard(kind, control, bots),
                   "provisional": history.provisional_board(kind, control, bots),
                   "provisional_games": PROVISIONAL_GAMES, "control": control, "bots": bots,
                   "control_name": CONTROL_NAMES[control]() if control else "",
                   "game_query": _query(control=control, bots=bots),
                   "controls": [(value, name, _query(control=value, bots=bots))
                                for value, name in CONTROL_TABS],
                   "whose": [(False, gettext_lazy("People"), _query(control=control)),
                             (True, gettext_lazy("Bots"), _query(control=control, bots=True))],
                   "refused": refused, "bots_refused": bots_refused},
                  status=400 if refused or bots_refused else 200)


def _query(control: str = "", bots: bool = False) -> str:
    """A leaderboard link's query string ("" or "?..."): each tab keeps the other filters."""
    params = {"control": control, "bots": "1" if bots else ""}
    params = {k: v for k, v in params.items() if v}
    return f"?{urlencode(params)}" if params else ""
