"""Where a move's server time goes: the synchronous parts of one move, timed
in the driver process on one thread (no event loop, no other load).

These moves are made by calling ``actions.play_move`` directly, not over a
WebSocket: this is a breakdown of the cost ``live.py`` measures end to end,
not a load test. The parts:

- the action (lock, checks, engine, UPDATE/INSERTs, commit), with the push
  and the Celery deadline stubbed out;
- the Celery deadline tasks the actions publish after commit (a move sends
  one only when no pending task of its match covers its deadline);
- the renders of ``push.match_changed`` (public context + frame, the
  frames of the seats whose controls changed), from the objects the action
  handed it (the states after and before the change): no queries. They are
  the last CHANGES_TIMED changes of the timed moves, rendered again.
- the user sockets' events of a change (``games.your_matches.change_events``:
  each human member's "Your matches" row and, when the decision passed, a
  "your turn" note), part of those renders, timed alone too.

What daphne spends per move beyond their sum is the asynchronous side: the
consumer's receive, the thread hops to the database thread, the group sends to
Redis and the forwarding of every frame to every socket.
"""

from __future__ import annotations

import random
import time
from unittest import mock

from django.utils import timezone

CHANGES_TIMED = 100  # the last changes of the timed moves, rendered again for the renders' cost


def _play_random(public_id: str, rules, rng: random.Random, users: dict) -> bool:
    """One random legal move of the seat to move; False when the match is over."""
    from games import actions
    from games.models import Match

    match = Match.objects.get(public_id=public_id)
    state = rules.load(match.state)
    seat = rules.to_move(state)
    if seat is None or match.status != Match.Status.ACTIVE:
        return False
    move = rng.choice(rules.legal_moves(state))
    user = users[match.seats.get(index=seat).user_id]
    actions.play_move(public_id, user, str(move), match.version)
    return True


def breakdown(players, make_match, moves: int = 300, seed: int = 1) -> list[tuple[str, float]]:
    """[(part, CPU milliseconds per move)] for the synchronous parts of a move.

    ``players``: four (user, session key) pairs; ``make_match(players)``
    returns a Target of a new started match.
    """

    from games import push, tasks, your_matches
    from games.engine import get_rules
    from games.models import Match

    push_match_changed = push.match_changed

    rules = get_rules("ludo")
    rng = random.Random(seed)
    users = {u.pk: u for u, _ in players}

    def timed_moves(n: int) -> float:
        public_id = make_match(players).key
        cpu, done = 0.0, 0
        while done < n:
            t = time.process_time()
            if not _play_random(public_id, rules, rng, users):
                public_id = make_match(players).key
                continue
            cpu += time.process_time() - t
            done += 1
        return 1000 * cpu / n

    def per_call(fn, n: int = 200) -> float:
        t = time.process_time()
        for _ in range(n):
            fn()
        return 1000 * (time.process_time() - t) / n

    # _play_random's own reads (the match, the seat's user) are timed with the
    # action: subtract them, measured alone.
    public_id = make_match(players).key
    read_ms = per_call(lambda: (Match.objects.get(public_id=public_id).seats.get(index=0)))

    published = []  # a move sends a deadline task only when no pending one covers it
    changes = []  # what each action handed push.match_changed: (args, kwargs)
    with mock.patch.object(push, "match_changed", lambda *a, **k: changes.append((a, k))), \
            mock.patch.object(tasks.expire_turn, "apply_async", lambda *a, **k: published.append(1)):
        action_ms = timed_moves(moves) - read_ms

    match = Match.objects.filter(status=Match.Status.ACTIVE).order_by("-version").first()
    task_ms = per_call(lambda: tasks.expire_turn.apply_async((match.public_id, -1), eta=timezone.now()))
    deadline_ms = task_ms * len(published) / moves

    # The renders of the last CHANGES_TIMED changes, as the actions handed them
    # over (the match, its seats, the new moves, the states after and before,
    # the seats whose controls changed), each sent nowhere (push.collect).
    timed = changes[-CHANGES_TIMED:]

    def renders():
        for args, kwargs in timed:
            with push.collect():
                push_match_changed(*args, **kwargs)

    render_ms = per_call(renders, n=5) / len(timed)

    # Of those, the user sockets' part (README "Notifications"): each human
    # member's "Your matches" row and the "your turn" note of a passed decision.
    def user_events():
        for (match_, seats_, _new, state_, _controls, before_), _kw in timed:
            your_matches.change_events(match_, seats_, state_, before_)

    user_ms = per_call(user_events, n=5) / len(timed)
    return [
        ("action (play_move: lock, checks, engine, writes, commit)", action_ms),
        (f"Celery deadline tasks ({len(published)} for {moves} moves, {task_ms:.2f} ms each)", deadline_ms),
        ("push: renders (public frame + the changed seats' frames + the user sockets' events)", render_ms),
        ("  of which the user sockets' events (4 Your matches rows, a your-turn note)", user_ms),
    ]
