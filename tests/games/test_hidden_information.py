"""Hidden information for every registered game (docs/rules.md "Hidden information"): nothing a viewer
receives during a whole match shows what that viewer may not know.

The engine is the authority on what a viewer may know: ``Rules.hidden(state,
viewer)`` lists the facts ``view(state, viewer)`` leaves out, and
``Rules.hidden_in_move`` those a move writes into the record (Ludo and
Roundabout: none; Rondo: other racks, the bag, others' drawn and face-down
tiles). For each game of the registry (a new game is covered as soon as it is
registered), a full match from a fixed seed with two human seats and computer
seats is played through the actions (humans and computers choosing with the
easy bot from their own view and a seeded RNG; a human's consecutive plies go
in one action; computers play through ``games.tasks.computer_move``).
Checked, for each viewer (each human seat, and an anonymous spectator):

- every message any module sends through the channel layer (captured at the
  layer's ``group_send``): the match group's against a spectator, each seat
  group's against that seat, any other group's (a member's user socket among
  them) against a spectator; updates are deltas (games/frames/wire.py), read as sent;
- now and then and at the end: the match page, the WebSocket snapshot
  (``consumers._snapshot``), the replay and export endpoints, the report
  form, the play and home pages and the seats' history and profile pages;
- the inputs of the computer players (their seat's view and legal moves);
- after every action, the line the API's match stream sends each audience
  (docs/api.md "Streams": ``api.streams.match_lines``, which writes every state
  and end line of ``GET /api/match/<id>/stream``): each seat's account, and a
  spectator's (an account with no seat), read as JSON by the game's JSON reader
  (tests/hidden.SHOWN_JSON) as the markup is by its markup reader; and no
  legal moves to any but the seat to move.

What is checked in each: the game's markup reader (tests/hidden.py) finds
no fact whose subject is hidden from that viewer, and no wrong value for a
secret; no move-list line names a value its move hides from the viewer and
no hidden move's notation appears; before the end, the match seed appears
nowhere (hex or base64). After the end the seed must show (so the search
would find it). The engine's own contract for ``hidden`` is checked over
random playouts without the database.
"""

from __future__ import annotations

import hashlib
import json
import random
import re

import pytest
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers
from django.test import Client

from api import streams as api_streams
from games import actions, bots, consumers, push, tasks
from games.engine import CHANCE, available_games, get_rules
from games.models import Match, Move
from tests.factories import make_match, make_user
from tests.hidden import (
    SHOWN,
    SHOWN_JSON,
    RecordingLayer,
    parse,
    record_lines,
    seed_forms,
    silence_tasks,
    subject,
)

GAMES = available_games()
#: Actions between two looks at the pages and snapshots: while the state holds
#: secrets, and while it holds none (then only the seed can leak).
SAMPLE_EVERY = {True: 15, False: 60}
FULL_EVERY = 4  # every so many looks, fetch every other endpoint too
MAX_ACTIONS = 3000
#: An update's version tag: it alone has no data-kind (templates/games/match_parts.html).
UPDATE_TAG = re.compile(r'<div id="frame-version" data-version="\d+" hx-swap-oob=')


def seats_for(rules) -> tuple[str, ...]:
    """Seats for the match: where a new match already holds secrets, two
    humans (each kept from the other's) and a computer; where it holds none
    (then only the seed is secret), one human and a computer, a shorter match
    that still has a seat group, the match group and a computer's input."""
    if not rules.hidden(rules.new_match(max(rules.player_counts)), None):
        return ("human", "easy")
    players = 3 if 3 in rules.player_counts else max(rules.player_counts)
    return ("human", "human") + ("easy",) * (players - 2)


def human_turn(kind: str, rules, state, seat: int, rng: random.Random) -> list[str]:
    """The plies ``seat`` plays before chance or another seat is to move, each
    picked from its own view (the easy bot, or any legal move for a game
    without computer players): one action, as the Rondo page sends a chain."""
    plies = []
    while rules.to_move(state) == seat and len(plies) < actions.MAX_PLIES_PER_ACTION:
        view, legal = rules.view(state, seat), rules.legal_moves(state)
        move = (
            bots.choose_move(kind, "easy", view, seat, legal, rng)
            if kind in bots.GAMES
            else rng.choice(legal)
        )
        plies.append(str(move))
        state = rules.play(state, move)
    return plies


class Audit:
    """What each viewer may know of the match now, and the checks of what it
    received against it."""

    def __init__(self, kind: str, match: Match, viewers: list[int | None]):
        self.kind, self.rules, self.viewers = kind, get_rules(kind), viewers
        self.public_id = match.public_id
        self.seed = seed_forms(match.seed)
        self.reader = SHOWN.get(kind)
        self.replayed = self.rules.load(match.start_state)
        self.plies = 0
        #: ply -> viewer -> facts the move hides from that viewer; ply -> notation
        self.move_secrets: dict[int, dict] = {}
        self.notations: dict[int, str] = {}
        self.ever_hidden = False
        self.own_facts_seen = 0  # secrets shown to a viewer that may know them: the reader reads
        self.own_json_facts_seen = 0  # the same, by the JSON reader
        self.json_reader = SHOWN_JSON.get(kind)
        self.checked = 0

    def refresh(self, match: Match) -> None:
        """Catch up with ``match``: its state, what each viewer may not know,
        and the secrets of the moves added to its record."""
        self.match = match
        self.over = match.is_over
        self.state = self.rules.load(match.state)
        for m in Move.objects.filter(match=match, ply__gte=self.plies).order_by("ply"):
            assert m.ply == self.plies
            self.move_secrets[m.ply] = {
                v: self.rules.hidden_in_move(self.replayed, m.notation, v) for v in self.viewers
            }
            self.notations[m.ply] = m.notation
            self.replayed = self.rules.play(self.replayed, m.notation)
            self.plies += 1
        # The record rebuilds the state: the moves' secrets were read in the right states.
        assert self.rules.dump(self.replayed) == self.rules.dump(self.state)
        self.hidden = {v: self.rules.hidden(self.state, v) for v in self.viewers}
        self.secrets = self.hidden[None]
        for v in self.viewers:
            assert self.hidden[v] <= self.secrets, "a seat is kept from a secret the spectator may know"
        self.ever_hidden |= bool(self.secrets)
        for readers, where in ((self.reader, "SHOWN"), (self.json_reader, "SHOWN_JSON")):
            if self.secrets and readers is None:
                raise AssertionError(
                    f"{self.kind} hides {sorted(self.secrets, key=repr)[:3]}...: "
                    f"add a reader of its markup and JSON to tests/hidden.{where}"
                )

    def check(self, text: str, viewer: int | None, where: str) -> None:
        """``text`` (HTML, JSON or plain) was received by ``viewer`` (a seat or
        None: spectator) now."""
        self.checked += 1
        check_board_choices(parse(text), viewer, where)
        if self.over:
            return
        low = text.lower()
        for form in self.seed:
            assert form not in low, f"{where}: the seed is shown to viewer {viewer} before the end"
        move_secrets = [(ply, by[viewer]) for ply, by in self.move_secrets.items() if by[viewer]]
        if not self.secrets and not move_secrets:
            return  # nothing is secret now (Ludo, Roundabout): only the seed is
        elements = parse(text)
        if self.reader is not None:
            self.own_facts_seen += self.check_facts(self.reader(elements), viewer, where)
        lines = record_lines(elements)
        for ply, facts in move_secrets:
            assert self.notations[ply] not in text, (
                f"{where}: viewer {viewer} is shown the move {self.notations[ply]!r} (ply {ply})"
            )
            if ply not in lines:
                continue
            for fact in facts:
                word = re.escape(str(fact[-1]))
                assert not re.search(rf"\b{word}\b", lines[ply], re.I), (
                    f"{where}: the line of ply {ply} ({lines[ply]!r}) names {fact[-1]!r} to viewer {viewer}"
                )


    def check_readers_read(self) -> None:
        """Where the match ever hid something, the readers found secrets where
        they belong (each seat's own): they read this markup and this JSON."""
        if self.ever_hidden:
            assert self.own_facts_seen > 0
            assert self.own_json_facts_seen > 0

    def check_facts(self, facts, viewer: int | None, where: str) -> int:
        """None of ``facts`` (a reader's) is about what ``viewer`` may not know,
        and each secret it shows has the state's value; returns how many
        secrets it showed (the viewer's own)."""
        hidden_subjects = {subject(f) for f in self.hidden[viewer]}
        secret_subjects = {subject(f) for f in self.secrets}
        own = 0
        for fact in facts:
            assert subject(fact) not in hidden_subjects, f"{where}: viewer {viewer} is shown {fact}"
            if subject(fact) in secret_subjects:
                assert fact in self.secrets, f"{where}: viewer {viewer} is shown {fact}, not the state's"
                own += 1
        return own

    def check_json(self, obj: dict, viewer: int | None, where: str) -> None:
        """``obj`` (a JSON object, e.g. an API stream line) was received by
        ``viewer`` now: as ``check`` for its text (the seed, hidden moves'
        notation), the game's JSON reader for its facts, and legal moves only
        for the seat to move."""
        self.check(json.dumps(obj), viewer, where)
        if obj.get("type") == "state" and obj.get("legal_moves"):
            assert viewer is not None and obj["seat"] == viewer == self.rules.to_move(self.state), (
                f"{where}: viewer {viewer} is given the legal moves of seat {self.rules.to_move(self.state)}")
        if self.over or self.json_reader is None:
            return
        self.own_json_facts_seen += self.check_facts(self.json_reader(obj), viewer, where)


def api_audiences(match: Match, users: dict) -> dict:
    """The API's audiences of ``match``: each seat's account (``users``: seat
    -> user) and an account with no seat (a spectator, None), as their match
    streams open (``api.streams.open_match``)."""
    openings = {index: api_streams.open_match(match.public_id, user) for index, user in users.items()}
    openings[None] = api_streams.open_match(match.public_id, make_user())
    return openings


def check_api_streams(audit: Audit, openings: dict) -> int:
    """The line each audience's API match stream sends for the match's
    current version (``api.streams.match_lines``: the stream writes each of
    its state and end lines with it), checked; returns how many were read."""
    read = 0
    for viewer, opening in openings.items():
        assert opening["seat"] == viewer, "the stream's seat is not the account's"
        version, lines, ended = api_streams.match_lines(opening, -1)
        assert version == audit.match.version and lines and ended == audit.over
        for text in lines:
            audit.check_json(json.loads(text), viewer, f"API stream line (version {version}) for {viewer}")
            read += 1
    return read


#: Classes static/js/board.js (and rondo.js) add to the board on the seat's page only:
#: the public board must never carry them, nor the choices' data.
PAGE_ONLY = re.compile(r"\b(bd-[\w-]+|rb-can|rb-selected|rb-pending|rb-halos?|rb-preview|board-stage)\b")


def check_board_choices(elements, viewer: int | None, where: str) -> None:
    """Legal targets and previews travel only in a seat's own frame: the
    #board-choices element sits in that seat's controls, never in the public
    board or a spectator's frame, and the public board has no trace of them
    (in Rondo, which spaces a seat may cover face up tells which colours it holds)."""
    for el in elements:
        ids = [p.get("id") for p in el.parents] + [el.attrs.get("id")]
        if "board" in ids:
            assert not PAGE_ONLY.search(el.attrs.get("class") or ""), f"{where}: the board shows {el.attrs}"
            seat_only = {"data-choices", "data-first", "data-tree", "data-halo-space", "tabindex", "role"}
            assert not seat_only & set(el.attrs) \
                or el.attrs.get("role") == "img", f"{where}: the board carries a seat's choices: {el.attrs}"
            assert el.attrs.get("id") != "board-choices", f"{where}: choices inside the board"
        if el.attrs.get("id") == "board-choices" or "data-tree" in el.attrs:
            assert viewer is not None, f"{where}: a spectator receives a seat's board choices"
            assert "controls" in ids, f"{where}: board choices outside the seat's controls"


def viewer_of_group(public_id: str, group: str, players: int) -> int | None:
    """Whose sockets a group reaches: a seat's group reaches that seat only;
    the match group (and any other group) counts as reaching a spectator."""
    for s in range(players):
        if group == push.seat_group(public_id, s):
            return s
    return None


@pytest.fixture
def layer(monkeypatch):
    recording = RecordingLayer()
    monkeypatch.setitem(channel_layers.backends, DEFAULT_CHANNEL_LAYER, recording)
    return recording


@pytest.fixture
def bot_inputs(monkeypatch):
    """Computer players choose through the real task, with a seeded RNG;
    what each was given is kept as (seat, view, legal notations)."""
    real = bots.choose_move
    seen = []
    rng = random.Random(11)

    def recording(kind, level, view, seat, legal, _rng, **kw):
        seen.append((seat, view, [str(m) for m in legal]))
        return real(kind, level, view, seat, legal, rng, **kw)

    monkeypatch.setattr(bots, "choose_move", recording)
    return seen


def check_pages(audit: Audit, clients: dict, users: dict, *, full: bool) -> None:
    """What each viewer fetches: the match page and the WebSocket snapshot;
    with ``full``, also replay, export, report, play, home, history and profiles."""
    pid = audit.public_id
    over = audit.over
    for viewer, client in clients.items():
        page = client.get(f"/m/{pid}/")
        assert page.status_code == 200
        audit.check(page.content.decode(), viewer, f"match page for {viewer}")
        audit.check("".join(consumers._snapshot(pid, viewer)), viewer, f"snapshot for {viewer}")
        if not full:
            continue
        replay = client.get(f"/m/{pid}/replay/")
        assert replay.status_code == (200 if over else 302)
        audit.check(replay.content.decode(), viewer, f"replay for {viewer}")
        export = client.get(f"/m/{pid}/export.json")
        assert export.status_code == (200 if over else 404)
        audit.check(export.content.decode(), viewer, f"export for {viewer}")
        for url in [f"/m/{pid}/report/", "/play/", "/"] + [
            f"/u/{u.username}/{rest}" for u in users.values() for rest in ("", "matches/")
        ]:
            response = client.get(url)
            assert response.status_code in (200, 302), url
            audit.check(response.content.decode(), viewer, f"{url} for {viewer}")


@pytest.mark.django_db
@pytest.mark.parametrize("kind", GAMES)
def test_nothing_a_viewer_receives_during_a_full_match_shows_what_it_may_not_know(
    kind, django_capture_on_commit_callbacks, layer, bot_inputs, monkeypatch
):
    silence_tasks(monkeypatch)
    rules = get_rules(kind)
    seed = hashlib.sha256(f"parlour hidden information {kind}".encode()).digest()
    with django_capture_on_commit_callbacks(execute=True):
        public_id = re.sub("[^a-z0-9]", "", f"hid{kind}")[:16]  # with the seed, fixes every chance step
        match = make_match(kind, seats=seats_for(rules), seed=seed, public_id=public_id)
    seats = list(match.seats.select_related("user"))
    users = {s.index: s.user for s in seats if s.user_id}
    clients = {None: Client()}
    for index, user in users.items():
        clients[index] = Client()
        clients[index].force_login(user)
    audit = Audit(kind, match, [None, *range(len(seats))])
    openings = api_audiences(match, users)
    rng = random.Random(7)
    seen = inputs_seen = actions_done = looks = deltas_read = api_lines = 0
    while True:
        match.refresh_from_db()
        audit.refresh(match)
        api_lines += check_api_streams(audit, openings)
        for group, message in layer.sent[seen:]:
            assert message.get("version") in (match.version, None)
            viewer = viewer_of_group(match.public_id, group, len(seats))
            html = message.get("html")
            if isinstance(html, str) and UPDATE_TAG.search(html) and '<ol id="seats"' not in html:
                deltas_read += 1  # an update carrying only what changed (games/frames/wire.py)
            for key, value in message.items():  # the frame's HTML is read as HTML
                text = value if isinstance(value, str) else json.dumps(value)
                audit.check(text, viewer, f"{key} to {group}")
        seen = len(layer.sent)
        for seat, view, legal in bot_inputs[inputs_seen:]:
            audit.check(json.dumps([view, legal]), seat, f"computer seat {seat}'s input")
        inputs_seen = len(bot_inputs)
        if audit.over or actions_done % SAMPLE_EVERY[bool(audit.secrets)] == 0:
            check_pages(audit, clients, users, full=audit.over or looks % FULL_EVERY == 0)
            looks += 1
        if audit.over:
            break
        state = audit.state
        who = rules.to_move(state)
        assert who not in (None, CHANCE), "the actions leave no chance step or forced move unplayed"
        with django_capture_on_commit_callbacks(execute=True):
            if who in users:
                plies = human_turn(kind, rules, state, who, rng)
                actions.play_move(
                    match.public_id, users[who], plies if len(plies) > 1 else plies[0], match.version
                )
            else:
                before = len(bot_inputs)
                tasks.computer_move(match.public_id, match.version)
                # The bot was given exactly its seat's view of this state.
                assert [(s, v) for s, v, _ in bot_inputs[before:]] == [(who, rules.view(state, who))]
        actions_done += 1
        assert actions_done < MAX_ACTIONS, "the match did not end"

    assert match.status == Match.Status.FINISHED
    assert seen > actions_done  # every action pushed at least its public frame
    assert deltas_read > actions_done // 2  # the updates read were mostly deltas, not whole frames
    assert api_lines > actions_done * len(openings)  # every version, every audience, and the end lines
    audit.check_readers_read()
    # Once over, the seed shows: the search above would have found it.
    page = clients[None].get(f"/m/{match.public_id}/").content.decode().lower()
    assert audit.seed[0] in page
    assert clients[0].get(f"/m/{match.public_id}/export.json").json()["seed"] == match.seed


def random_states(rules, players: int, rng: random.Random):
    """Every state of a random match (chance by weight, random legal moves)."""
    state = rules.new_match(players)
    while True:
        yield state
        who = rules.to_move(state)
        if who is None:
            return
        if who == CHANCE:
            outcomes = rules.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            move = rng.choice(rules.legal_moves(state))
        for viewer in [None, *range(players)]:
            facts = rules.hidden_in_move(state, move, viewer)
            assert facts <= rules.hidden_in_move(state, move, None)
            assert all(isinstance(f, tuple) and len(f) >= 2 for f in facts)
        state = rules.play(state, move)


@pytest.mark.parametrize("kind", GAMES)
def test_the_engine_s_hidden_facts_keep_their_contract(kind):
    """For random matches: facts are JSON-safe tuples; a seat is kept from
    no secret the spectator may know; nothing is hidden once over; what a
    seat knows is the same in any state consistent with its view; bad seats
    are refused."""
    rules = get_rules(kind)
    rng = random.Random(3)
    players = 3 if 3 in rules.player_counts else max(rules.player_counts)
    for state in random_states(rules, players, rng):
        secrets = rules.hidden(state, None)
        json.dumps(sorted(secrets, key=repr))
        assert all(isinstance(f, tuple) and len(f) >= 2 for f in secrets)
        if rules.is_over(state):
            assert secrets == frozenset()
        for seat in range(players):
            hidden = rules.hidden(state, seat)
            assert hidden <= secrets
            sampled = rules.sample_state(rules.view(state, seat), seat, rng)
            again = rules.hidden(sampled, seat)
            assert {subject(f) for f in again} == {subject(f) for f in hidden}
            assert rules.hidden(sampled, None) - again == secrets - hidden
    with pytest.raises(ValueError):
        rules.hidden(state, players)
    start = rules.new_match(players)
    with pytest.raises(ValueError):
        rules.hidden_in_move(start, rules.legal_moves(start)[0], -1)
