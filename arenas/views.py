"""Arena pages: the list (upcoming, running, finished), one arena's page
(header, standings, join / withdraw / pause / resume), and its forms. Views
parse, call one action, redirect (STYLE habit 3); the page is live over
``/ws/arena/<id>/`` (README "Arenas")."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST, require_safe

from arenas import actions, standings
from arenas.models import Arena, ArenaPlayer
from core import ratelimits
from core.errors import Refused

#: How often one person may join, withdraw, pause or resume, over all arenas
#: (core.ratelimits; README "Arenas"): more is a flood, refused with a
#: message and no change.
ENTRY_RATE = "20/minute"
FLOODED = gettext_noop("Too many changes to your arena entries; wait a minute and try again.")

@require_safe
def arena_list(request):
    now = timezone.now()
    arenas = list(Arena.objects.filter(finished_at__isnull=True).order_by("starts_at")[:100])
    finished = list(Arena.objects.filter(finished_at__isnull=False).order_by("-starts_at")[:30])
    counts = dict(ArenaPlayer.objects.filter(arena__in=arenas + finished)
                  .exclude(status=ArenaPlayer.Status.DISQUALIFIED).values("arena")
                  .annotate(n=Count("pk")).values_list("arena", "n"))
    for a in arenas + finished:
        a.joined = counts.get(a.pk, 0)
        a.phase_now = a.phase(now)
    return render(request, "arenas/list.html", {
        "running": [a for a in arenas if a.phase_now in ("running", "closing")],
        "upcoming": [a for a in arenas if a.phase_now == "upcoming"],
        "finished": finished,
    })


def _arena(arena_id) -> Arena:
    try:
        return actions.find_arena(arena_id)
    except Refused:
        raise Http404(_("There is no such arena.")) from None


@require_safe
def arena_page(request, arena_id):
    """The arena's header, the viewer's own block and one page of the
    standings (``?page=N``, standings.PAGE_SIZE rows; the first is live and
    shows the viewer's own row below it). 404 for a page past the last."""
    arena = _arena(arena_id)
    now = timezone.now()
    me = None
    if request.user.is_authenticated:
        me = ArenaPlayer.objects.filter(arena=arena, user=request.user).select_related("user").first()
    try:
        table = standings.table_context(arena, standings.page_number(request.GET.get("page")), me)
    except ValueError:
        raise Http404(_("There is no such page of standings.")) from None
    playing = None
    if me is not None:
        mine = table["own"] or next((r for r in table["rows"] if r.player.pk == me.pk), None)
        playing = mine.playing if mine else None
    return render(request, "arenas/arena.html", {
        **standings.header_context(arena, now), **table,
        **standings.me_context(arena, request.user, now, me, playing),
    })


def _act(request, arena_id, action):
    arena = _arena(arena_id)  # 404 first: a bad id is not a change
    if not ratelimits.hit(ENTRY_RATE, "arena-entry", request.user.pk):
        messages.error(request, _(FLOODED))
        return redirect("arena", arena_id=arena.pk)
    try:
        action(request.user, arena.pk)
    except Refused as e:
        messages.error(request, e.message)
    return redirect("arena", arena_id=arena.pk)


@login_required
@require_POST
def arena_join(request, arena_id):
    return _act(request, arena_id, actions.join)


@login_required
@require_POST
def arena_withdraw(request, arena_id):
    return _act(request, arena_id, actions.withdraw)


@login_required
@require_POST
def arena_pause(request, arena_id):
    return _act(request, arena_id, actions.pause)


@login_required
@require_POST
def arena_resume(request, arena_id):
    return _act(request, arena_id, actions.resume)
