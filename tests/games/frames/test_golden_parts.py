"""Golden HTML of the match page's frames, part by part: for fixed positions of
each game (a seeded match, its players' moves from a seeded RNG), the marked
public frame's parts (board with its inner parts, dice, status, seats list, and
the text around them: move list and frame version), every seat's controls, the
update each change sends, the snapshot a socket gets, and the match and replay
pages, compared byte for byte with the files under tests/games/frames/golden/.

Times are the only thing that moves between runs (the clock's deadline, the
server's time, the seconds left, a page's CSRF token): they are blanked before
comparing. Regenerate after a deliberate change with ``UPDATE_GOLDEN=1``, then
read the diff.
"""

import os
import random
import re
from pathlib import Path

import pytest
from django.test import Client

from games import actions, consumers, push
from games.engine import get_rules
from games.frames import contexts, render
from games.models import Match
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "golden"

#: Each game: its seats, and the plies after which its frames are stored.
GAMES = {"ludo": (4, (1, 2, 7, 24)), "roundabout": (4, (1, 2, 9, 30)), "rondo": (3, (1, 2, 6, 20))}

_TIMES = (
    (re.compile(r'data-deadline="\d+"'), 'data-deadline="D"'),
    (re.compile(r'data-server-now="\d+"'), 'data-server-now="N"'),
    (re.compile(r">\d+ s</time>"), ">S s</time>"),
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), 'name="csrfmiddlewaretoken" value="T"'),
    (re.compile(r'"X-CSRFToken": "[^"]*"'), '"X-CSRFToken": "T"'),
)
_TOKEN = re.compile(r"<!--(@[os]:|/)([\w-]+)-->")


def _steady(html: str) -> str:
    for pattern, blank in _TIMES:
        html = pattern.sub(blank, html)
    return html


def _top_parts(frame: str) -> dict[str, str]:
    """The marked frame's outermost parts, by id (markers and inner parts
    kept), and "rest": the text outside them."""
    parts, rest, depth, start, key = {}, [], 0, 0, None
    pos = 0
    for m in _TOKEN.finditer(frame):
        if m.group(1) != "/":
            if depth == 0:
                rest.append(frame[pos:m.start()])
                start, key = m.start(), m.group(2)
            depth += 1
            continue
        depth -= 1
        if depth == 0:
            assert m.group(2) == key
            parts[key] = frame[start:m.end()]
            pos = m.end()
    rest.append(frame[pos:])
    parts["rest"] = "".join(rest)
    return parts


def _marked(match: Match) -> str:
    seats = list(match.seats.select_related("user"))
    ctx = dict(contexts.public_context(match, seats), frame_kind="snapshot")
    return render._marked_frame(ctx)


def _check(kind: str, name: str, got: dict[str, str]) -> None:
    folder = GOLDEN / kind / name
    got = {key: _steady(html) for key, html in got.items()}
    if os.environ.get("UPDATE_GOLDEN"):
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.html"):
            old.unlink()
        for key, html in got.items():
            (folder / f"{key}.html").write_text(html)
    assert folder.is_dir(), f"no golden frames for {kind}/{name}: UPDATE_GOLDEN=1 makes them; read them"
    stored = {p.stem: p.read_text() for p in folder.glob("*.html")}
    assert sorted(got) == sorted(stored)
    for key in sorted(got):
        assert got[key] == stored[key], f"{kind}/{name}/{key}.html differs"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_frames_of_fixed_positions_are_the_golden_ones(django_capture_on_commit_callbacks, kind):
    count, stops = GAMES[kind]
    rules = get_rules(kind)
    rng = random.Random(11)
    users = [make_user(f"gold{i}") for i in range(count)]
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(kind=kind, seats=("human",) * count, users=users, public_id=f"golden{kind[:4]}")
    by_seat = {s.index: s.user for s in match.seats.select_related("user")}
    for ply in range(1, max(stops) + 1):
        m = Match.objects.get(pk=match.pk)
        state = rules.load(m.state)
        notation = str(rng.choice(rules.legal_moves(state)))
        with push.collect() as sent, django_capture_on_commit_callbacks(execute=True):
            actions.play_move(m.public_id, by_seat[rules.to_move(state)], notation, m.version)
        if ply not in stops:
            continue
        m = Match.objects.get(pk=match.pk)
        got = {f"sent-{i}-{e['type']}-{g.replace('.', '_')}": e.get("html", repr(e))
               for i, (g, e) in enumerate(sent)
               if g.startswith("match.")}
        got.update({f"part-{key}": html for key, html in _top_parts(_marked(m)).items()})
        seats = list(m.seats.select_related("user"))
        for seat in seats:
            got[f"controls-seat{seat.index}"] = render.seat_frame(m, seat)
        got["snapshot-seat0"] = "\n<!--message-->\n".join(consumers._snapshot(m.public_id, 0))
        _check(kind, f"ply{ply:02d}", got)
    client = Client()
    client.force_login(by_seat[0])
    got = {"page-seat0": client.get(f"/m/{match.public_id}/").content.decode()}
    # Every seat but the first leaves: the match is over (the last player standing).
    for index in range(count - 1, 0, -1):
        if Match.objects.get(pk=match.pk).is_over:
            break
        with push.collect() as sent, django_capture_on_commit_callbacks(execute=True):
            actions.leave_match(match.public_id, by_seat[index])
        got.update({f"left{index}-{i}-{g.replace('.', '_')}": e.get("html", repr(e))
                    for i, (g, e) in enumerate(sent) if g.startswith("match.")})
    m = Match.objects.get(pk=match.pk)
    assert m.is_over
    got.update({f"over-part-{key}": html for key, html in _top_parts(_marked(m)).items()})
    got["over-controls-seat0"] = render.seat_frame(m, m.seats.get(index=0))
    got["over-page-watcher"] = Client().get(f"/m/{match.public_id}/").content.decode()
    got["over-page-seat0"] = client.get(f"/m/{match.public_id}/").content.decode()
    for ply in (0, 3):
        got[f"replay-ply{ply}"] = client.get(f"/m/{match.public_id}/replay/?ply={ply}").content.decode()
        got[f"replay-step-ply{ply}"] = client.get(f"/m/{match.public_id}/replay/?ply={ply}",
                                                  HTTP_HX_REQUEST="true").content.decode()
    _check(kind, "pages", got)
