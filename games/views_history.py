"""Match history, replays and exports (README "Ranked play").

History: ``/u/<username>/matches/`` (and ``/matches/`` for one's own),
filters by game, rated/casual, result and opponent, paginated by keyset
(``?before=`` / ``?after=`` a seat id). Replay: ``/m/<id>/replay/?ply=N``
for a finished or aborted match: the board after ply N rebuilt with the
engine from the start state and the record, and a fairness panel that
recomputes every chance outcome from the revealed seed; both read once per
match and kept (games.replays), and visitors without an account limited.
Export: ``/m/<id>/export.json``. Private-room matches only for their members.
"""

from __future__ import annotations

import copy

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from core import ratelimits
from core.proxy import client_ip
from games import exports, history, luck_summary, record, replays
from games.frames.contexts import public_context
from games.frames.ratings import SeatRating
from games.frames.render import render_page
from games.models import Match, Move, Seat
from games.views import visible_match


@login_required
@require_safe
def my_history(request):
    return redirect("history", username=request.user.username)


@require_safe
@vary_on_headers("HX-Request")
def history_page(request, username):
    """One player's matches, newest first, filtered and paginated; bad
    filters are shown as form errors and ignored (400). The filter form and the
    page links through htmx (``request.htmx``) get the "results" partial only,
    with the ignored filters named in it (200, so htmx swaps it)."""
    user = get_object_or_404(User, username__iexact=username, is_active=True)
    form = history.HistoryFilter(request.GET or None)
    filters = {}
    if form.is_bound:
        form.is_valid()
        filters = {k: v for k, v in getattr(form, "cleaned_data", {}).items() if k not in form.errors}
    seats = history.user_seats(user, request.user, filters)
    page = history.keyset_page(seats, before=history.parse_cursor(request.GET.get("before")),
                               after=history.parse_cursor(request.GET.get("after")))
    query = request.GET.copy()
    for key in ("before", "after"):
        query.pop(key, None)
    partial = _wants_partial(request)
    return render(request, "games/history.html#results" if partial else "games/history.html", {
        "profile_user": user, "form": form, "page": page, "htmx_results": partial,
        "rows": history.history_rows(user, page.seats), "query": query.urlencode(),
    }, status=400 if form.errors and not partial else 200)


def _wants_partial(request) -> bool:
    """An htmx request for a page's part: not a boosted link (it swaps the whole
    body) and not htmx restoring a page its history cache no longer holds."""
    return bool(request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request)


def _ended_match(request, public_id) -> Match:
    match = visible_match(public_id, request.user)
    if not match.is_over:
        raise Http404("Replays and exports are for matches that have ended.")
    return match


@require_safe
@vary_on_headers("HX-Request")
def replay(request, public_id):
    """The board after ply ``?ply=N`` (0 = the start, default; clamped to the record).

    A step asked for by htmx (``request.htmx``, not a history restore: a replay
    link, a key, autoplay) gets the page's "step" partial only, out-of-band swaps of the nav, the
    move's words, the board, the dice and the seats (README "Replays"); so the
    response varies on HX-Request. A match not over yet sends the page to the
    match (HX-Redirect for htmx). What every step needs is read from the
    record once per match and kept (games.replays). A visitor without an
    account past the replay budget of their address gets 429 (``_over_budget``)."""
    match = visible_match(public_id, request.user)
    if not match.is_over:
        messages.info(request, _("A match can be replayed once it has ended."))
        if request.htmx:
            return HttpResponseClientRedirect(reverse("match", args=[match.public_id]))
        return redirect("match", public_id=match.public_id)
    if not request.user.is_authenticated:
        refused = _over_budget(request, match)
        if refused is not None:
            return refused
    kept = replays.get(match)
    seats = all_seats = list(match.seats.select_related("user"))
    total = kept.total
    try:
        ply = min(max(int(request.GET.get("ply", 0)), 0), total)
    except (TypeError, ValueError):
        ply = 0
    position = kept.position(ply)
    if ply < total:
        seats = _seats_at(seats, position.left)
    # The board and the seats through the live page's own context (fragments), so
    # the replay draws each position, and its last move's marks, as the match page does.
    ctx = public_context(match, seats, state=position.state,
                                   last_move=kept.marks(match, ply, position.state) or {})
    if ply < total:  # the rating changes, like the places, wait for the end of the record
        for row in ctx["seat_rows"]:
            if row["rating"]:
                row["rating"] = SeatRating(row["rating"].before)
    names = ctx["labels"]
    words = kept.wording(names, ctx["colours"])
    current = kept.moves[ply - 1] if ply else None
    ctx.update(
        ply=ply, total=total, current=current, error=position.error,
        current_text=_describe_ply(match.kind, current, words.lines_at(ply - 1), names),
        first_ply=0, prev_ply=max(ply - 1, 0), next_ply=min(ply + 1, total),
        show_die="die" in ctx["view"] or "dice" in ctx["view"],  # the games that roll
    )
    step = _wants_partial(request)
    if not step:  # the whole page: the record list and the fairness check, both kept
        ctx.update(
            report=kept.report(match), turns=words.turns, record_html=words.html(ply),
            dice=luck_summary.match_table(match, all_seats),
            # The record's line for this position: the last at or before the ply (a
            # line may stand for several plies: a roll and the move it forced).
            record_ply=words.record_ply(ply),
        )
    return render_page(request, "games/replay.html#step" if step else "games/replay.html", ctx)


def _over_budget(request, match):
    """None while the visitor's address (``core.proxy.client_ip``) is within
    ``PARLOUR_REPLAY_VISITOR_RATE``, counting this request: one, or, when
    this process must first read the match's record (games.replays), one more
    per ``replays.BUILD_COST_PLIES`` plies of it, up to half the budget. Past
    it: 429 with ``Retry-After``, nothing read; the page says so, and an htmx
    step is sent to that page (HX-Redirect: htmx swaps no error response)."""
    rate = settings.PARLOUR_REPLAY_VISITOR_RATE
    address = client_ip(request) or "?"
    cost = 1 if replays.is_kept(match) else 1 + match.ply_count // replays.BUILD_COST_PLIES
    cost = min(cost, max(ratelimits.amount(rate) // 2, 1))  # a record too long for the budget still replays
    if ratelimits.hit(rate, "replay", address, cost=cost):
        return None
    wait = ratelimits.retry_after(rate, "replay", address)
    if _wants_partial(request):
        response = HttpResponseClientRedirect(request.get_full_path())
        response.status_code = 429
    else:
        response = render(request, "games/replay_limited.html", {"wait": wait}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _seats_at(seats, left: frozenset[int]) -> list:
    """Copies of ``seats`` as they stood at an earlier ply: no final places
    yet, and a seat that has not left by then (``left``: seat indices) still
    playing (the rows must not give the result away before the replay
    reaches it)."""
    out = []
    for seat in seats:
        s = copy.copy(seat)
        s.rank = None
        if seat.index not in left:
            s.status = Seat.Status.PLAYING
        out.append(s)
    return out


def _describe_ply(kind, move, lines, names) -> str:
    """Who did what at ``move`` (a Move or None for the start), with the actor."""
    text = record.ply_text(kind, move, lines, names)
    if move is None:
        return text
    who = names.get(move.seat, "") if move.seat is not None else ""
    if move.actor == Move.Actor.CHANCE:
        return _("Chance: %(move)s") % {"move": text}
    if move.actor == Move.Actor.SERVER and not (who and who in text):
        # A move the server made for a seat (a forced move, a timeout) whose line
        # does not name the seat; the record's lines name their actor now.
        if who:
            return _("Played for %(name)s: %(move)s") % {"name": who, "move": text}
        return _("Server: %(move)s") % {"move": text}
    return text


@require_safe
def export(request, public_id):
    """A finished or aborted match as JSON: seed, options, the time control
    (live or turn-based, its time a decision), players, moves, result.
    Matches not over yet have no export (404)."""
    match = _ended_match(request, public_id)
    data = exports.match_data(match)
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="parlour-{match.kind}-{match.public_id}.json"'
    return response
