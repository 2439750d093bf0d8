"""Test-only factories (never reachable from the web): users, and matches
started from a chosen engine state and seed, so a test can begin near the
position it needs."""

from __future__ import annotations

import itertools
from unittest import mock

from accounts.models import User
from games import actions
from games.engine import get_rules
from games.models import Match

_names = itertools.count(1)

SEED = bytes(range(32))  # the docs/rules.md test-vector seed: every draw is known


def make_user(username: str | None = None, password: str = "a sturdy pass 42") -> User:
    username = username or f"player{next(_names)}"
    return User.objects.create_user(username, f"{username}@example.com", password)


def ludo_state(players: int = 2, *, phase: str = "roll", turn: int = 0, die: int = 0,
               pieces=None, chance_count: int = 1, autoplay_forced: bool = True,
               left=(), sixes: int = 0) -> dict:
    """A Ludo state dump with the given fields (pieces: per seat, 4 progresses, -1 = base)."""
    rules = get_rules("ludo")
    data = rules.dump(rules.new_match(players, {"autoplay_forced": autoplay_forced}))
    data.update(phase=phase, turn=turn, die=die, sixes=sixes, chance_count=chance_count,
                left=list(left))
    if pieces is not None:
        data["pieces"] = [list(p) for p in pieces]
    rules.load(data)  # validate
    return data


def make_match(
    kind: str = "ludo",
    seats=("human", "normal"),
    *,
    users=None,
    state: dict | None = None,
    seed: bytes = SEED,
    start: bool = True,
    public_id: str | None = None,
    **options,
) -> Match:
    """A match with ``seats`` ("human" or a computer level per seat); humans
    are ``users`` in order (made if not given). Started unless ``start=False``.
    ``public_id`` fixes the match id, and with the seed every chance outcome
    (docs/rules.md "Provably fair randomness"), so a browser test is repeatable.
    Extra keyword arguments go to ``actions.create_match``."""
    users = list(users or [])
    specs = []
    for s in seats:
        if s == "human":
            user = users.pop(0) if users else make_user()
            specs.append(actions.SeatSpec(user=user))
        else:
            specs.append(actions.SeatSpec(computer_level=s))
    match = actions.create_match(kind, specs, state=state, seed=seed, **options)
    if public_id is not None:
        Match.objects.filter(pk=match.pk).update(public_id=public_id)
        match.public_id = public_id
    if start:
        match = actions.start_match(match.public_id)
    return match


def start_room_match(host, friends, *, kind: str = "ludo", computers=(), state: dict | None = None,
                     seed: bytes = SEED, turn_seconds: int | None = None, **room_settings) -> Match:
    """A private room hosted by ``host`` that ``friends`` join by invite (in
    order), with computer seats of ``computers`` levels after them, started
    through ``rooms.do_start_room``. Test-only overrides: the match begins
    from engine ``state`` (a dump) with ``seed``, and ``turn_seconds`` sets its
    clock (rooms give Ludo 60 s)."""
    from matchmaking.rooms import actions as rooms

    levels = {1 + len(friends) + i: level for i, level in enumerate(computers)}
    room = rooms.do_create_room(host, kind, 1 + len(friends) + len(computers), levels, **room_settings)
    for friend in friends:
        _invite, token = rooms.do_create_invite(room.code, host)
        rooms.do_redeem_invite(token, friend)
    real = actions.create_match

    def create(kind_, seats, **kw):
        kw.update(state=state, seed=seed)
        if turn_seconds:
            kw["turn_seconds"] = turn_seconds
        return real(kind_, seats, **kw)

    with mock.patch.object(actions, "create_match", create):
        return rooms.do_start_room(room.code, host)


def play_to_the_end(match: Match) -> Match:
    """Play ``match`` to its end through the actions, each seat to move taking
    its first legal move (dice and all); returns the match as it ended.
    Raises AssertionError after 2000 moves without an end."""
    rules = get_rules(match.kind)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    for _ in range(2000):
        m = Match.objects.get(pk=match.pk)
        if m.is_over:
            return m
        state = rules.load(m.state)
        move = str(rules.legal_moves(state)[0])
        actions.play_move(m.public_id, users[rules.to_move(state)], move, m.version)
    raise AssertionError("the match did not end")


def play_until_every_seat_moved(match: Match) -> Match:
    """Play ``match`` on, each seat to move (humans only) taking its first
    legal move, until every seat has made a move of its own (a roll counts):
    a player leaving after that leaves the match rated (``games.rating.is_ratable``).
    Returns the match as it is then."""
    from games import rating

    rules = get_rules(match.kind)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    for _ in range(200):
        m = Match.objects.get(pk=match.pk)
        if m.is_over or rating.every_seat_moved(m):
            return m
        state = rules.load(m.state)
        move = str(rules.legal_moves(state)[0])
        actions.play_move(m.public_id, users[rules.to_move(state)], move, m.version)
    raise AssertionError("some seat never moved")


def restart_match_from(match: Match, state: dict) -> Match:
    """Make a started match begin again from engine ``state`` (a dump), as if
    it had been created from it: start state and state replaced, record
    cleared, version bumped, and the new position pushed to its pages (call
    it away from Playwright's event loop). Lets a browser test bring a match
    it could not create itself (a paired ranked match) near its end, with a
    record that still rebuilds and verifies from the new start."""
    from django.db.models import F

    from games import push
    from games.models import Move

    get_rules(match.kind).load(state)  # validate
    Move.objects.filter(match=match).delete()
    Match.objects.filter(pk=match.pk).update(start_state=state, state=state, ply_count=0,
                                             version=F("version") + 1)
    match.refresh_from_db()
    push.match_updated(match.public_id, match.version)
    return match


def every_seat_moves(match: Match) -> Match:
    """Play the first legal move of whoever is to move until every seat of
    ``match`` has made a move of its own (chance steps are the server's);
    returns the match reloaded. For tests whose leaver must have played: an
    arena scores a leave before one's first move as no game for the others
    (README "Arenas", Scoring)."""
    from games.engine import get_rules
    from games.models import Move

    rules = get_rules(match.kind)
    for _ in range(200):
        m = Match.objects.get(pk=match.pk)
        seats = {s.index: s.user for s in m.seats.select_related("user")}
        moved = set(Move.objects.filter(match=m, actor="seat").values_list("seat", flat=True))
        if set(seats) <= moved or m.status != Match.Status.ACTIVE:
            return m
        state = rules.load(m.state)
        mover = seats[rules.to_move(state)]
        actions.play_move(m.public_id, mover, str(rules.legal_moves(state)[0]), m.version)
    raise AssertionError(f"not every seat of {match.public_id} moved in 200 moves")
