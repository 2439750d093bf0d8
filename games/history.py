"""Queries behind match history, profiles and leaderboards (README "Ranked play").

Read-only. Visibility (docs/rules.md "Public and private matches"): private-room
matches (``is_public=False``) appear only to their members (and staff).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from accounts.elo import PROVISIONAL_GAMES
from accounts.models import Rating, User
from games import sites, time_controls
from games.models import Match, RatingChange, RatingVoid, Seat

#: Leaderboard length per game.
LEADERBOARD_SIZE = 100
#: The Match columns a history list reads (engine states can be large).
LIST_MATCH_FIELDS = ("public_id", "kind", "status", "rated", "is_public", "created_at", "event", "event_url",
                     "turn_seconds")
#: The time control filters of the history and the leaderboards
#: (``time_controls.kind_label``); no filter ("") is all.
CONTROLS = ("live", "turn-based")


def of_control(control: str) -> Q:
    """The condition on a Seat's or a RatingChange's match that it is of time
    control ``control`` ("live" or "turn-based"; games/time_controls.py)."""
    if control == "turn-based":
        return Q(match__turn_seconds__gte=time_controls.DAY)
    return Q(match__turn_seconds__lt=time_controls.DAY)
#: Matches per history page.
HISTORY_PAGE_SIZE = 25


def _game_choices() -> list[tuple[str, str]]:
    return [("", _("Any game")), *sites.choices()]


class HistoryFilter(forms.Form):
    """The history page's filters (GET); every field optional."""

    kind = forms.ChoiceField(label=gettext_lazy("Game"), required=False, choices=_game_choices)
    rated = forms.ChoiceField(label=gettext_lazy("Type"), required=False,
                              choices=[("", gettext_lazy("Rated and casual")),
                                       ("rated", gettext_lazy("Rated")), ("casual", gettext_lazy("Casual"))])
    result = forms.ChoiceField(label=gettext_lazy("Result"), required=False,
                               choices=[("", gettext_lazy("Any result")),
                                        ("won", pgettext_lazy("result", "Won")),
                                        ("lost", pgettext_lazy("result", "Lost")),
                                        ("unranked", gettext_lazy("No result (aborted or in play)"))])
    control = forms.ChoiceField(label=gettext_lazy("Time control"), required=False,
                                choices=[("", gettext_lazy("Live and turn-based")),
                                         ("live", gettext_lazy("Live")),
                                         ("turn-based", gettext_lazy("Turn-based"))])
    opponent = forms.CharField(label=gettext_lazy("Opponent"), required=False, max_length=150)

    def clean_opponent(self):
        name = self.cleaned_data["opponent"].strip()
        if not name:
            return None
        user = User.objects.filter(username__iexact=name).only("pk").first()
        if user is None:
            raise forms.ValidationError(_("There is no player called %(name)s.") % {"name": repr(name)})
        return user


def visible_to(viewer) -> Q | Exists:
    """The condition on Seat rows that keeps private matches to their members
    (staff included: README "Moderation")."""
    public = Q(match__is_public=True)
    if viewer is None or not viewer.is_authenticated:
        return public
    return public | Q(Exists(Seat.objects.filter(match=OuterRef("match"), user_id=viewer.pk)))


def user_seats(user, viewer, filters: dict | None = None) -> QuerySet:
    """``user``'s seats (newest first, one per match they played), with their
    match, as ``viewer`` may see them, narrowed by HistoryFilter's cleaned
    data: kind, rated ("rated"/"casual"), control ("live"/"turn-based"),
    result ("won"/"lost"/"unranked"), opponent (a User)."""
    seats = Seat.objects.filter(user=user)
    condition = None if viewer is not None and viewer.pk == user.pk else visible_to(viewer)
    if condition is not None:
        seats = seats.filter(condition)
    f = filters or {}
    if f.get("kind"):
        seats = seats.filter(match__kind=f["kind"])
    if f.get("rated") == "rated":
        seats = seats.filter(match__rated=True)
    elif f.get("rated") == "casual":
        seats = seats.filter(match__rated=False)
    if f.get("control") in CONTROLS:
        seats = seats.filter(of_control(f["control"]))
    if f.get("result") == "won":
        seats = seats.filter(rank=1)
    elif f.get("result") == "lost":
        seats = seats.filter(rank__gt=1)
    elif f.get("result") == "unranked":
        seats = seats.filter(rank__isnull=True)
    if f.get("opponent"):
        seats = seats.filter(Exists(Seat.objects.filter(match=OuterRef("match"), user=f["opponent"])))
    # Newest first by seat id (seats are made with their match), which the
    # index on Seat.user serves in order.
    return (
        seats.select_related("match")
        .only("match_id", "index", "colour", "user_id", "computer_level", "status", "rank",
              *(f"match__{f}" for f in LIST_MATCH_FIELDS))
        .order_by("-pk")
    )


@dataclass
class Page:
    """One page of a keyset-paginated history: ``seats`` newest first, and
    the cursors (seat ids) of the older and newer pages, None at either end."""

    seats: list
    older: int | None
    newer: int | None


def parse_cursor(value) -> int | None:
    """A page cursor from the URL (a positive seat id), or None for anything else."""
    try:
        cursor = int(value)
    except (TypeError, ValueError):
        return None
    return cursor if 0 < cursor < 2**62 else None


def keyset_page(seats: QuerySet, before: int | None = None, after: int | None = None,
                size: int = HISTORY_PAGE_SIZE) -> Page:
    """The ``size`` seats of ``user_seats`` older than seat id ``before``, or
    newer than ``after`` (else the newest). Keyset pagination: each page costs
    an index seek, however deep, and no count of all the matches."""
    if after is not None:
        rows = list(seats.filter(pk__gt=after).order_by("pk")[: size + 1])
        newer = rows[size - 1].pk if len(rows) > size else None
        rows = rows[:size][::-1]
        older = rows[-1].pk if rows and seats.filter(pk__lt=rows[-1].pk).exists() else None
        return Page(rows, older, newer)
    if before is not None:
        seats = seats.filter(pk__lt=before)
    rows = list(seats[: size + 1])
    older = rows[size - 1].pk if len(rows) > size else None
    rows = rows[:size]
    newer = rows[0].pk if before is not None and rows else None
    return Page(rows, older, newer)


@dataclass
class HistoryRow:
    """One line of a history list: the match, the player's seat, the other
    seats, the player's rating change (or None), and whether a moderator voided
    the match (README "Moderation", Void: its changes were taken back, so the
    list shows "voided" and no rating change)."""

    match: Match
    seat: Seat
    others: list
    change: RatingChange | None
    voided: bool = False

    @property
    def control(self) -> str:
        """"live" or "turn-based" (``time_controls.kind_label``)."""
        return time_controls.kind_label(self.match.turn_seconds)

    @property
    def control_label(self) -> str:
        """The time per decision: "60 s", "3 days" (``time_controls.label``)."""
        return time_controls.label(self.match.turn_seconds)

    @property
    def result(self) -> str:
        """The result in words: "Won", "Lost (3rd)", "Left (2nd)" (a seat that
        left), "No result" (ended unranked), "In play"."""
        rank = self.seat.rank
        if rank == 1:
            return pgettext("result", "Won")
        if rank:
            place = _ordinal(rank)
            if self.seat.status != Seat.Status.PLAYING:
                return _("Left (%(place)s)") % {"place": place}
            return _("Lost (%(place)s)") % {"place": place}
        return _("No result") if self.match.is_over else _("In play")

    @property
    def rating_tag(self) -> str:
        """The row's tag: "voided"; "rated" (a rated match with this seat's change,
        or not over yet); "not rated" (a rated match that ended without one: a
        player left before every seat had moved, or a moderator aborted it);
        "casual"."""
        if self.voided:
            return "voided"
        if not self.match.rated:
            return "casual"
        return "rated" if self.change is not None or not self.match.is_over else "not rated"


def _ordinal(rank: int) -> str:
    """A place in words: "2nd", "3rd", "4th" (a match has at most four seats)."""
    if rank == 2:
        return pgettext("place", "2nd")
    if rank == 3:
        return pgettext("place", "3rd")
    return pgettext("place", "%(rank)sth") % {"rank": rank}


def history_rows(user, seats) -> list[HistoryRow]:
    """Rows for one page of ``user_seats``: 3 queries for any page size."""
    seats = list(seats)
    match_ids = [s.match_id for s in seats]
    others: dict[int, list] = {}
    other_seats = (
        Seat.objects.filter(match_id__in=match_ids).exclude(user=user).select_related("user")
        .only("match_id", "index", "user_id", "computer_level", "user__username", "user__is_bot")
    )
    for s in other_seats:
        others.setdefault(s.match_id, []).append(s)
    mine = RatingChange.objects.filter(match_id__in=match_ids, user=user).only("match_id", "after", "delta")
    changes = {c.match_id: c for c in mine}
    voided = set(RatingVoid.objects.filter(match_id__in=match_ids).values_list("match_id", flat=True))
    return [HistoryRow(s.match, s, others.get(s.match_id, []), changes.get(s.match_id), s.match_id in voided)
            for s in seats]


def _listed_ratings(kind: str, bots: bool = False) -> QuerySet:
    # Banned and suspended players are left out while their ban lasts (README
    # "Decisions"); their ratings are kept. Bots have their own board, people
    # theirs (docs/api.md "Bot accounts").
    return (Rating.objects.filter(kind=kind, user__is_active=True, user__is_bot=bots)
            .exclude(user__banned_until__gt=timezone.now())
            .select_related("user").order_by("-rating", "user__username"))


def _who_played(ratings: QuerySet, kind: str, control: str) -> QuerySet:
    """``ratings`` of the players with at least one rated ``control`` match
    ("live"/"turn-based") of ``kind`` that counted (not voided), each with
    ``control_games``: how many. One rating per game (docs/decisions.md "The
    turn-based ranked queue"), so this filters who is listed, never the rating."""
    counted = (RatingChange.objects.filter(user_id=OuterRef("user_id"), kind=kind)
               .filter(of_control(control))
               .exclude(Exists(RatingVoid.objects.filter(match_id=OuterRef("match_id"),
                                                         user_id=OuterRef("user_id"))))
               .order_by().values("user_id").annotate(n=Count("pk")).values("n"))
    return (ratings.annotate(control_games=Coalesce(Subquery(counted, output_field=IntegerField()), 0))
            .filter(control_games__gte=1))


def leaderboard(kind: str, control: str = "", bots: bool = False) -> list[Rating]:
    """The top LEADERBOARD_SIZE established ratings (PROVISIONAL_GAMES or
    more rated matches) in ``kind``, best first; with ``control`` ("live",
    "turn-based"), of the players who played rated matches of that time
    control, each with ``control_games`` (``_who_played``). People's ratings,
    or with ``bots`` bot accounts' only (docs/api.md "Bot accounts")."""
    ratings = _listed_ratings(kind, bots).filter(games__gte=PROVISIONAL_GAMES)
    if control in CONTROLS:
        ratings = _who_played(ratings, kind, control)
    return list(ratings[:LEADERBOARD_SIZE])


def provisional_board(kind: str, control: str = "", bots: bool = False) -> list[Rating]:
    """The top LEADERBOARD_SIZE provisional ratings in ``kind`` (1 to
    PROVISIONAL_GAMES - 1 rated matches), best first: the leaderboard lists them
    below the established ones, marked, so it is never empty once anyone has
    played a rated match (README "Ranked play"). ``control``, ``bots`` as ``leaderboard``."""
    ratings = _listed_ratings(kind, bots).filter(games__gte=1, games__lt=PROVISIONAL_GAMES)
    if control in CONTROLS:
        ratings = _who_played(ratings, kind, control)
    return list(ratings[:LEADERBOARD_SIZE])


@dataclass(frozen=True)
class RatingStep:
    """One step of a rating chart: a rated match (``voided`` False) or a
    moderator taking a voided match's change back (``voided`` True). Rating
    points, unrounded; ``delta`` is ``after - before`` as recorded."""

    before: float
    after: float
    delta: float
    created: object  # datetime
    voided: bool = False


def rating_history(user, kind: str) -> list[RatingStep]:
    """``user``'s rating in ``kind`` step by step, oldest first: one step per
    rated match, and one per voided match when its change was taken back
    (RatingVoid), so the chart ends at the current rating."""
    steps = [RatingStep(c.before, c.after, c.delta, c.created)
             for c in RatingChange.objects.filter(user=user, kind=kind).order_by("created", "pk")]
    steps += [RatingStep(v.rating_before, v.rating_after, v.rating_after - v.rating_before,
                         v.created_at, voided=True)
              for v in RatingVoid.objects.filter(user=user, kind=kind)]
    return sorted(steps, key=lambda s: s.created)
