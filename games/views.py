"""Play page, match page, and the no-JavaScript move/leave/pause forms.

Views parse, call one action, render (STYLE habit 3). With JavaScript the
match page sends moves over its WebSocket instead (consumers.py).
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core import database
from core.errors import Refused
from games import actions, chat, lobby, luck_summary, sites, themes
from games.forms import SoloMatchForm
from games.frames.contexts import public_context
from games.frames.moves import move_list
from games.frames.render import render_page, seat_frame
from games.models import Match


@require_http_methods(["GET", "POST"])
def play(request):
    """GET: a card per game with its quick choices, the live public matches
    worth watching, and the full solo-match form (open, with that game chosen,
    for ``?kind=<game>``). POST: start a match against computers; one over
    PARLOUR_COMPUTER_MATCHES_PER_USER is refused (HTTP 429, the page says why)."""
    kind = request.GET.get("kind", "")
    initial = {"kind": kind} if kind in sites.kinds() else {}
    form = SoloMatchForm(request.POST if request.method == "POST" else None, initial=initial)
    refused = ""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("/login/?next=/play/")
        if form.is_valid():
            try:
                match = actions.start_computer_match(
                    request.user, form.cleaned_data["kind"], form.computer_levels(),
                    computer_speed=form.cleaned_data["speed"], theme=form.cleaned_data["theme"])
            except actions.TooManyComputerMatches as e:
                refused = e.message  # nothing was created
            else:
                return redirect("match", public_id=match.public_id)
    live = list(lobby.worth_watching())
    status = 400 if form.is_bound and form.errors else 429 if refused else 200
    return render(request, "games/play.html", {
        "form": form, "live": live, "cards": lobby.game_cards(live),
        "open_form": bool(initial) or status == 400, "refused": refused,
    }, status=status)


def visible_match(public_id: str, user) -> Match:
    """The match if ``user`` may watch it (public, or a seat of theirs); else
    404, the same for a private match as for none. Staff are no exception:
    moderators review private matches in the admin (README "Moderation")."""
    match = Match.objects.filter(public_id=str(public_id)[:16]).first()
    if match is None:
        raise Http404("No such match.")
    if match.is_public or (user.is_authenticated and match.seats.filter(user_id=user.pk).exists()):
        return match
    raise Http404("No such match.")


@require_safe
def match_page(request, public_id):
    match = visible_match(public_id, request.user)
    seats = list(match.seats.select_related("user"))
    ctx = public_context(match, seats)
    my_seat = next((s for s in seats if request.user.is_authenticated and s.user_id == request.user.pk), None)
    ctx.update(
        **move_list(match, ctx),
        snapshot=True,
        frame_kind="snapshot",
        my_seat=my_seat,
        controls_html=seat_frame(match, my_seat, request=request, page=True) if my_seat else "",
        chat_phrases=chat.PHRASES,
        chat_emoji=chat.EMOJI,
        heartbeat_ms=round(settings.PARLOUR_HEARTBEAT_SECONDS * 1000),
        dice=luck_summary.match_table(match, seats),  # None while the match is live
    )
    return render_page(request, "games/match.html", ctx)


def _act(request, public_id, action, *args):
    # A match the user may not watch does not exist for them: no message that
    # would confirm it (or show its version) on their next page.
    def once():
        visible_match(public_id, request.user)
        return action(public_id, request.user, *args)

    try:
        # Run once more on a fresh connection if the database ended this one
        # before the commit (core/database.py; README "Decisions").
        database.retry_if_connection_lost(once)
    except (Refused, database.ConnectionLost) as e:
        messages.error(request, e.message)
    return redirect("match", public_id=public_id)


@login_required
@require_POST
def match_move(request, public_id):
    moves = [m for m in request.POST.getlist("move") if m.strip()]  # a chain form's unused rows are blank
    return _act(request, public_id, actions.play_move, moves if len(moves) > 1 else (moves or [""])[0],
                request.POST.get("version"))


@login_required
@require_POST
def match_leave(request, public_id):
    return _act(request, public_id, actions.leave_match)


@login_required
@require_POST
def match_pause(request, public_id):
    return _act(request, public_id, actions.pause_match, request.POST.get("version"))


@login_required
@require_POST
def match_resume(request, public_id):
    return _act(request, public_id, actions.resume_match, request.POST.get("version"))


@require_safe
@cache_control(max_age=86400, public=True)
def board_backdrop(request, name):
    """A map theme's backdrop as SVG (games/themes.py: drawn from the vendored
    Natural Earth data, once per process); 404 for the plain board or an unknown name."""
    try:
        svg = themes.backdrop_svg(str(name)[:32])
    except KeyError:
        raise Http404("No such board backdrop.") from None
    return HttpResponse(svg, content_type="image/svg+xml")


@require_safe
def rules_page(request, kind):
    """A game's rulebook: ``games/<game>/rules.html`` in its folder; 404 for
    anything but a registered game that has one."""
    name = f"games/{kind}/rules.html"
    try:
        template = get_template(name) if kind in sites.kinds() else None
    except TemplateDoesNotExist:
        template = None
    if template is None:
        raise Http404("No rules page for that game.")
    return render(request, name)


@require_safe
def rules_index(request):
    return render(request, "games/rules_index.html",
                  {"games": [(kind, name, sites.get_site(kind).blurb) for kind, name in sites.choices()]})
