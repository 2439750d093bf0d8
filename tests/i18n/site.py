"""The site as the language tests read it: a small world (players, a match of
each game under way and one finished, a room, an arena, a challenge), every
page a person reads rendered through Django's test client in a chosen
language, and the pushed frames of each game (games.frames.render) rendered
in it; and the texts a person reads on each (text nodes, aria-label, title,
alt, placeholder, the label of a submit input, the texts the page hands its
CSS and scripts: READ_ATTRIBUTES, and the refusal texts of its JSON data block).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser

from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.utils import timezone, translation
from django.views import defaults

from games import actions
from games.engine import GAMES, get_rules
from games.frames import contexts, render
from games.models import Match
from tests.factories import make_match, make_user

#: Tags whose text is not a sentence for a person: code and notation is shown
#: as written (the API page's examples, a move's notation), scripts and
#: styles are not shown.
VERBATIM = {"code", "kbd", "pre", "samp", "script", "style", "template"}
#: The attributes that hold a text a person reads (or hears): the HTML ones, and
#: those the page's CSS or scripts show (a table cell's label on a phone, a
#: question before a move, the board's help).
READ_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder", "aria-valuetext", "aria-roledescription",
                   "data-label", "data-confirm", "hx-confirm", "data-help", "data-more")
#: Inputs whose value is their label on the page.
LABELLED_INPUTS = {"submit", "button", "reset"}


#: The pseudo-language's marks around each translated message (tests/i18n/test_unmarked.py).
OPEN, CLOSE = "⟦", "⟧"


class _Texts(HTMLParser):
    """The texts of a page, in order. Text between the pseudo-language's marks
    is left out even where a message holds inline elements (a paragraph with
    a <strong> in it is one message whose marks are in different text nodes):
    the marks are counted across text nodes, and forgotten when the element
    in which the first one opened closes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.open: list[str] = []
        self.json = False
        self.depth = 0  # marks opened and not yet closed
        self.owner = 0  # how many elements were open when the outermost mark opened

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in READ_ATTRIBUTES:
            if attrs.get(name):
                self.found.append(attrs[name])
        if tag == "input" and (attrs.get("type") or "").lower() in LABELLED_INPUTS and attrs.get("value"):
            self.found.append(attrs["value"])
        if tag not in {"br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area", "base"}:
            self.open.append(tag)
        self.json = tag == "script" and (attrs.get("type") or "") == "application/json"

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.open and self.open[-1] == tag:
            self.open.pop()

    def handle_endtag(self, tag):
        if tag in self.open:
            while self.open.pop() != tag:
                pass
        if self.depth and len(self.open) < self.owner:
            self.depth = 0  # an unclosed mark ends with its element
        self.json = False

    def _outside_marks(self, data: str) -> list[str]:
        pieces, piece = [], []
        for ch in data:
            if ch == OPEN:
                if not self.depth:
                    pieces.append("".join(piece))
                    piece = []
                    self.owner = len(self.open)
                self.depth += 1
            elif ch == CLOSE and self.depth:
                self.depth -= 1
            elif not self.depth:
                piece.append(ch)
        pieces.append("".join(piece))
        return [p for p in pieces if p.strip()]

    def handle_data(self, data):
        if self.json:  # a data block for the page's script: its strings are shown (close-codes)
            self.found.extend(_strings(json.loads(data)))
        elif not VERBATIM.intersection(self.open) and data.strip() and not _is_json(data):
            self.found.extend(" ".join(p.split()) for p in self._outside_marks(data))


def _is_json(text: str) -> bool:
    """Whether ``text`` is a JSON object or array: data an element holds for
    the page's script (Rondo's chain tree), not words."""
    text = text.strip()
    if not text.startswith(("{", "[")):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def texts(html: str) -> list[str]:
    """The texts a person reads in ``html``, in order."""
    parser = _Texts()
    parser.feed(html)
    parser.close()
    return parser.found


@dataclass
class World:
    me: object
    other: object
    live: dict[str, Match] = field(default_factory=dict)  # each game: a match under way, me in seat 0
    finished: Match | None = None
    room_code: str = ""
    arena_id: int = 0
    challenge_id: int = 0

    @property
    def identifiers(self) -> set[str]:
        """The ids a page shows as they are: each match's, the room's code."""
        return {m.public_id for m in Match.objects.all()} | {self.room_code}

    @property
    def names_given(self) -> set[str]:
        """Names people gave things (arenas), shown as they are."""
        from arenas.models import Arena

        return set(Arena.objects.values_list("name", flat=True))

    @property
    def user_names(self) -> set[str]:
        from accounts.models import User

        return set(User.objects.values_list("username", flat=True))


def _play(match: Match, plies: int) -> Match:
    """At least ``plies`` moves of ``match`` (each seat to move, a computer's
    too, taking its first legal move), then on to seat 0's decision, so its
    page and frame show the decision's controls."""
    from games.actions.computer import play_computer_move

    rules = get_rules(match.kind)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    for played in range(plies + 20):
        m = Match.objects.get(pk=match.pk)
        state = rules.load(m.state)
        seat = rules.to_move(state)
        if m.is_over or (played >= plies and seat == 0):
            break
        move = str(rules.legal_moves(state)[0])
        if users.get(seat) is None:
            play_computer_move(m.public_id, m.version, move)
        else:
            actions.play_move(m.public_id, users[seat], move, m.version)
    return Match.objects.get(pk=match.pk)


def build() -> World:
    """The world the pages show (in the test's database)."""
    from arenas import actions as arenas
    from arenas.models import Arena
    from matchmaking.challenges import actions as challenges
    from matchmaking.rooms import actions as rooms
    from tests.factories import play_until_every_seat_moved

    me, other = make_user("amira"), make_user("bodhi")
    world = World(me=me, other=other)
    for kind in GAMES:
        seats = ("human", "human", "normal") if kind != "rondo" else ("human", "human")
        # A fixed id fixes the dice (docs/testing.md): the same position every run.
        world.live[kind] = _play(make_match(kind, seats, users=[me, other], public_id=f"i18n{kind}"[:10]), 5)
    done = play_until_every_seat_moved(make_match("ludo", ("human", "human"), users=[me, other],
                                                  public_id="i18ndone"))
    actions.leave_match(done.public_id, other)
    world.finished = Match.objects.get(pk=done.pk)
    world.room_code = rooms.do_create_room(me, "ludo", 3, {2: "normal"}).code
    arena = Arena.objects.create(name="Ludo evening", kind="ludo", seats=4, minutes=60,
                                 starts_at=timezone.now() + timedelta(hours=1))
    world.arena_id = arena.pk
    type(me).objects.filter(pk__in=[me.pk, other.pk]).update(email_confirmed=True)
    other.email_confirmed = me.email_confirmed = True
    world.challenge_id = challenges.do_challenge(other, me.username, "rondo", 60).pk
    arenas.join(me, arena.pk)
    return world


def _get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, f"{url}: {response.status_code}"
    return response.content.decode()


def pages(world: World, language: str) -> dict[str, str]:
    """Every page (by a name that says which, and as whom) rendered in
    ``language``, and the pushed frames of each game's match."""
    me, other = world.me, world.other
    for user in (me, other):
        type(user).objects.filter(pk=user.pk).update(language=language)
    cookies = {"django_language": language}
    anon = Client(HTTP_ACCEPT_LANGUAGE=language)
    anon.cookies.load(cookies)
    signed = Client(HTTP_ACCEPT_LANGUAGE=language)
    signed.cookies.load(cookies)
    signed.force_login(me)
    found: dict[str, str] = {}
    live = {kind: m.public_id for kind, m in world.live.items()}
    done = world.finished.public_id
    visitor = [
        ("home", "/"), ("about", "/about/"), ("sign up", "/signup/"), ("log in", "/login/"),
        ("password reset", "/password/reset/"), ("password reset sent", "/password/reset/sent/"),
        ("leaderboard of ludo", "/leaderboard/ludo/"),
        ("leaderboard of rondo", "/leaderboard/rondo/"),
        ("rules", "/rules/"),
        *[(f"rules of {kind}", f"/rules/{kind}/") for kind in GAMES],
        *[(f"{kind} match as a watcher", f"/m/{pid}/") for kind, pid in live.items()],
        ("finished match as a watcher", f"/m/{done}/"), ("replay", f"/m/{done}/replay/?ply=3"),
        ("profile", f"/u/{me.username}/"), ("history", f"/u/{me.username}/matches/"),
        ("arenas", "/arenas/"), ("arena", f"/arenas/{world.arena_id}/"), ("people", "/people/?q=am"),
        ("API", "/api/"),
    ]
    for name, url in visitor:
        found[f"{name} (visitor)"] = _get(anon, url)
    found["404 (visitor)"] = _get(anon, "/no/such/page/", 404)
    refused = {"sign up with errors": ("/signup/", {"username": "", "password1": "x"}),
               "log in refused": ("/login/", {"username": "nobody", "password": "x"})}
    for name, (url, data) in refused.items():
        found[f"{name} (visitor)"] = anon.post(url, data).content.decode()
    signed_in = [
        ("home", "/"), ("play", "/play/"), ("leaderboard of ludo", "/leaderboard/ludo/"),
        *[(f"{kind} match as seat 1", f"/m/{pid}/") for kind, pid in live.items()],
        ("finished match as seat 1", f"/m/{done}/"), ("replay", f"/m/{done}/replay/?ply=3"),
        ("my matches", f"/u/{me.username}/matches/"), ("my profile", f"/u/{me.username}/"),
        ("someone's profile", f"/u/{other.username}/"), ("history", f"/u/{other.username}/matches/"),
        ("challenges", "/challenges/incoming/"),
        *([("a challenge", f"/challenges/{world.challenge_id}/")] if world.challenge_id else []),
        ("new room", "/rooms/new/"), ("room", f"/rooms/{world.room_code}/"),
        ("arenas", "/arenas/"), ("arena", f"/arenas/{world.arena_id}/"),
        ("people", "/people/?q=bo"), ("following", "/people/following/"),
        ("followers", f"/u/{me.username}/followers/"),
        ("holidays", "/account/holidays/"), ("blocked players", "/account/blocked/"),
        ("e-mail", "/account/email/"), ("tokens", "/account/tokens/"), ("close account", "/account/close/"),
        ("my data", "/account/data/"), ("mail settings", "/account/mail/"),
        ("password change", "/password/change/"), ("report a match", f"/m/{done}/report/"), ("API", "/api/"),
    ]
    for name, url in signed_in:
        found[f"{name} (signed in)"] = _get(signed, url)
    found["404 (signed in)"] = _get(signed, "/no/such/page/", 404)
    with translation.override(language):
        request = RequestFactory().get("/somewhere/")
        request.user = me
        found["403"] = defaults.permission_denied(request, PermissionDenied()).content.decode()
        for kind, match in world.live.items():
            match = Match.objects.get(pk=match.pk)
            seats = list(match.seats.select_related("user"))
            found[f"{kind} public frame"] = render.public_frame(contexts.public_context(match, seats))
            found[f"{kind} seat frame"] = render.seat_frame(match, seats[0])
        match = Match.objects.get(pk=world.finished.pk)
        seats = list(match.seats.select_related("user"))
        found["finished public frame"] = render.public_frame(contexts.public_context(match, seats))
        found["finished seat frame"] = render.seat_frame(match, seats[0])
    return found
