"""Delta updates (games/frames/wire.py): what an update carries, from marked frames
and from the real frames of a played match."""

import random
import re

import pytest

from games import actions, push
from games.engine import get_rules
from games.frames import contexts, render, wire
from games.models import Match
from tests.factories import make_match


def frame(title="t", piece="p", dice="<div id=\"dice\">1</div>", shell="s", version=1, marks="m"):
    """A marked frame shaped like the public frame: a board holding inner
    parts, the dice, and the text around them (the lines and the version)."""
    return (f'<!--@o:board--><div id="board" class="{shell}"><svg>'
            f'<title id="t"><!--@s:t-->{title}<!--/t--></title>'
            f'<g id="m"><!--@s:m-->{marks}<!--/m--></g>'
            f'<g id="p0"><!--@s:p0-->{piece}<!--/p0--></g></svg></div><!--/board-->\n'
            f'<!--@o:dice-->{dice}<!--/dice-->\n'
            f'<ol class="lines">line {version}</ol><div id="frame-version" data-version="{version}"></div>')


def test_a_first_update_is_the_whole_frame_without_markers():
    out = wire.update(("first", 1), 1, frame())
    assert out == wire.strip(frame())
    assert "<!--" not in out and '<div id="board"' in out and '<div id="dice">1</div>' in out


def test_the_next_version_carries_only_the_parts_that_changed():
    key = ("next", 1)
    wire.update(key, 1, frame())
    out = wire.update(key, 2, frame(piece="q", version=2))
    assert '<svg hx-swap-oob="innerHTML:#p0">q</svg>' in out
    assert '<div id="board"' not in out and "innerHTML:#t" not in out and 'id="dice"' not in out
    assert "line 2" in out and 'data-version="2"' in out  # the text outside the parts, always
    # Compared with what the page shows now (version 2), not with version 1.
    out = wire.update(key, 3, frame(piece="q", dice='<div id="dice">4</div>', version=3))
    assert "#p0" not in out and '<div id="dice">4</div>' in out


def test_without_the_version_before_the_update_is_whole():
    key = ("gap", 1)
    wire.update(key, 1, frame())
    out = wire.update(key, 3, frame(piece="q", version=3))  # 2 was sent by another process
    assert out == wire.strip(frame(piece="q", version=3))
    # An older version arriving late is sent whole and does not replace the newer one.
    assert wire.update(key, 2, frame(version=2)) == wire.strip(frame(version=2))
    assert "innerHTML:#p0" in wire.update(key, 4, frame(piece="r", version=4))


def test_a_changed_shell_sends_the_whole_part():
    key = ("shell", 1)
    wire.update(key, 1, frame())
    out = wire.update(key, 2, frame(shell="other", piece="q", version=2))
    assert '<div id="board" class="other">' in out and "hx-swap-oob=\"innerHTML" not in out


def test_keep_the_marks_sends_nothing_and_keeps_them_as_shown():
    key = ("keep", 1)
    wire.update(key, 1, frame(marks="M"))
    out = wire.update(key, 2, frame(marks=wire.KEEP_MARKS, version=2))
    assert "#m" not in out and "lm-keep" not in out
    # The page still shows M: the same marks again send nothing, new ones are sent.
    assert "#m" not in wire.update(key, 3, frame(marks="M", version=3))
    assert '<svg hx-swap-oob="innerHTML:#m">N</svg>' in wire.update(key, 4, frame(marks="N", version=4))


def test_an_element_part_inside_another_is_sent_as_its_own_swap():
    key = ("element", 1)

    def seats(turn):
        return ('<!--@o:seats--><ol id="seats">'
                + "".join(f'<li><!--@o:st{i}--><span id="st{i}" class="{"on" if i == turn else ""}"></span>'
                          f'<!--/st{i}--></li>' for i in range(2)) + '</ol><!--/seats-->')

    wire.update(key, 1, seats(0))
    out = wire.update(key, 2, seats(1))
    assert out == ('<span hx-swap-oob="true" id="st0" class=""></span>'
                   '<span hx-swap-oob="true" id="st1" class="on"></span>')


#: Each game whose board has parts of its own: (a class of its grid, which never
#: travels in an update; its last-move marks' part, which a change may keep; the
#: largest and the median update in bytes: a Roundabout move sends the board's
#: title, which names every dart, about 1.6 KB; a Rondo ply sends the title, its
#: tiles, the bag line and one or two scores, about 1.9 KB).
BOARD_PARTS = {"ludo": ("lb-cells", "lb-last", 4000, 2000),
               "roundabout": ("ra-territories", "ra-last", 6000, 3000),
               "rondo": ("rb-edges", "rb-last", 6000, 2500)}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(BOARD_PARTS))
def test_the_updates_of_a_played_match_carry_every_part_that_changed_and_little_else(
        django_capture_on_commit_callbacks, kind):
    """Over a four-seat match: each update carries, as the page's swaps,
    exactly the markup of the whole frame of its version for every part that
    differs from the version before (the marks may be kept), and nothing of
    the board's grid."""
    grid, last_marks, largest, median = BOARD_PARTS[kind]
    rules = get_rules(kind)
    rng = random.Random(3)
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(kind=kind, seats=("human",) * 4, public_id=f"deltas{kind[:4]}")  # its dice
    users = {s.index: s.user for s in match.seats.select_related("user")}
    sizes, before = [], None
    for _ in range(40):
        m = Match.objects.get(pk=match.pk)
        state = rules.load(m.state)
        notation = str(rng.choice(rules.legal_moves(state)))
        with push.collect() as sent, django_capture_on_commit_callbacks(execute=True):
            actions.play_move(m.public_id, users[rules.to_move(state)], notation, m.version)
        m = Match.objects.get(pk=match.pk)
        update = next(e["html"] for g, e in sent if g == push.match_group(m.public_id))
        now = marked_parts(m)
        if before is not None:
            sizes.append(len(update.encode()))
            assert grid not in update  # the grid never travels in an update
            carried = carried_parts(update)
            for key, markup in now.items():
                if key == last_marks and kind != "ludo":
                    # An update marks its own change (games.marks.from_change); a
                    # Roundabout or Rondo snapshot marks the turn so far, read from
                    # the record (this test plays one ply a change).
                    continue
                if key in carried:
                    assert carried[key] == markup, (m.version, key)
                elif key != last_marks:  # marks a change without a board move keeps
                    assert markup == before[key], (m.version, key, "changed but not sent")
        before = now
    assert max(sizes) < largest and sorted(sizes)[len(sizes) // 2] < median, sizes  # deltas, not whole frames


_MARKED = re.compile(r"<!--@[os]:([\w-]+)-->(.*?)<!--/\1-->", re.S)
_AGE = re.compile(r'<span id="dice-age"[^>]*></span>')


def marked_parts(m) -> dict[str, str]:
    """The inner parts of the board and the seats list, the dice (its age
    mark apart) and the status (its clock's reading left out) of ``m``'s
    whole frame, by id."""
    seats = list(m.seats.select_related("user"))
    marked = render._marked_frame(contexts.public_context(m, seats), [])
    out = {}
    for key, body in _MARKED.findall(marked):
        if key in ("board", "seats"):
            out.update(_MARKED.findall(body))
        else:
            out[key] = wire.strip(body).strip()
    out["dice-age"] = _AGE.search(out["dice"]).group(0)
    out["dice"] = _AGE.sub("", out["dice"])
    out["status"] = _no_clock(out["status"])
    return out


def carried_parts(update: str) -> dict[str, str]:
    """What ``update`` swaps in, by id (the same shape as marked_parts)."""
    out = dict(re.findall(r'<svg hx-swap-oob="innerHTML:#([\w-]+)">(.*?)</svg>', update, re.S))
    for key, rest in re.findall(r'<span hx-swap-oob="true" id="([\w-]+)"(.*?</span>(?:</span>)?)', update):
        out[key] = f'<span id="{key}"{rest}'
    for key, rest in re.findall(r'<i hx-swap-oob="true" id="([\w-]+)"(.*?</i>)', update):
        out[key] = f'<i id="{key}"{rest}'  # the seats' turn marks
    for found in re.finditer(r'<(p|li) hx-swap-oob="true"([^>]*? id="([\w-]+)")', update):
        tag, key = found.group(1), found.group(3)
        out[key] = f"<{tag}{found.group(2)}" + _to_close(update, tag, found.end())
    for key in ("dice", "status"):
        found = re.search(rf'<div id="{key}".*?</div>', update, re.S)
        if found:
            out[key] = found.group(0)
    if "dice" in out:
        out["dice-age"] = _AGE.search(out["dice"]).group(0)
        out["dice"] = _AGE.sub("", out["dice"])
    if "status" in out:
        out["status"] = _no_clock(out["status"])
    return out


def _to_close(html: str, tag: str, at: int) -> str:
    """``html`` from ``at`` (inside an opening ``<tag``) to the end of the tag that closes it."""
    depth, tags = 1, re.compile(rf"<(/?){tag}[\s>]")
    for found in tags.finditer(html, at):
        depth += -1 if found.group(1) else 1
        if not depth:
            return html[at:html.index(">", found.start()) + 1]
    raise AssertionError(f"<{tag}> not closed")


def _no_clock(status: str) -> str:
    return re.sub(r'data-server-now="\d+">\d+ s<', "", status)


def test_part_writes_the_markers_of_an_element_or_an_svg_content():
    assert wire.part("dice", '<div id="dice"></div>') == '<!--@o:dice--><div id="dice"></div><!--/dice-->'
    assert wire.part("lb-last", "<g></g>", svg=True) == "<!--@s:lb-last--><g></g><!--/lb-last-->"


def test_the_part_tag_writes_the_same_markers():
    from django.template import engines

    django = engines["django"]
    html = django.from_string('{% load board_parts %}{% part "rb-score-" n %}<li id="rb-score-{{ n }}">'
                              '</li>{% endpart %}{% part "t" svg=True %}{{ text }}{% endpart %}')
    out = html.render({"n": 2, "text": "<b>"})
    assert out == (wire.part("rb-score-2", '<li id="rb-score-2"></li>')
                   + wire.part("t", "&lt;b&gt;", svg=True))
