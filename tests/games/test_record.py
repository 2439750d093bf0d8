"""The Ludo move list in words (games.record): what a die led to, from the
record that follows it or, for the newest die, from the view after it
(the Ludo rule text rules 8 and 10)."""

from types import SimpleNamespace

from games.record import describe

NAMES = {0: "ada", 1: "bo"}


def rec(*entries):
    """Moves from (actor, seat, notation) triples, plies in order."""
    return [SimpleNamespace(ply=i, actor=a, seat=s, notation=n) for i, (a, s, n) in enumerate(entries)]


def texts(moves, after=None):
    return [line.text for line in describe("ludo", moves, NAMES, after=after)]


def test_a_die_followed_by_a_piece_move_reads_plainly():
    moves = rec(("seat", 0, "roll"), ("chance", None, "d6"), ("seat", 0, "p1"))
    assert texts(moves) == ["ada rolled 6.", "ada moved piece 1."]


def test_no_possible_move_passes_the_turn_and_a_six_rolls_again():
    moves = rec(("seat", 0, "roll"), ("chance", None, "d3"), ("seat", 1, "roll"), ("chance", None, "d6"),
                ("seat", 1, "roll"), ("chance", None, "d2"), ("seat", 1, "p0"))
    assert texts(moves) == [
        "ada rolled 3: no piece can move; the turn passes.",
        "bo rolled 6: no piece can move; a six rolls again.",
        "bo rolled 2.",
        "bo moved piece 0.",
    ]


def test_a_third_six_forfeits_the_roll():
    moves = rec(("seat", 0, "roll"), ("chance", None, "d6"), ("seat", 0, "p0"),
                ("seat", 0, "roll"), ("chance", None, "d6"), ("seat", 0, "p0"),
                ("seat", 0, "roll"), ("chance", None, "d6"), ("seat", 1, "roll"))
    assert texts(moves)[-1] == ("ada rolled 6, a third six in a row: "
                                "the roll is forfeited and the turn passes.")


def test_the_newest_die_reads_from_the_view_after_it():
    moves = rec(("seat", 0, "roll"), ("chance", None, "d4"))
    passed = texts(moves, after={"phase": "roll", "turn": 1})
    assert passed == ["ada rolled 4: no piece can move; the turn passes."]
    assert texts(moves, after={"phase": "move", "turn": 0}) == ["ada rolled 4."]  # a piece to choose
    assert texts(moves) == ["ada rolled 4."]  # nothing known after it


def test_the_page_s_move_list_names_who_rolled_when_it_starts_on_a_die(db):
    """The page shows the last MOVE_LIST_LENGTH + 1 plies; when the first of
    them is a die, the roll before it (not shown) still names the roller."""
    from games import fragments
    from games.models import Move
    from tests.factories import make_match

    match = make_match(seats=("human", "human"))
    start = Move.objects.filter(match=match).count()
    shown = fragments.MOVE_LIST_LENGTH + 1
    window = [("chance", None, "d2"), ("seat", 1, "p0")]
    while len(window) < shown:
        window += [("seat", 1, "roll"), ("chance", None, "d4"), ("seat", 1, "p1")]
    plies = [("seat", 0, "p2"), ("seat", 1, "roll"), *window[:shown]]
    Move.objects.bulk_create(
        Move(match=match, ply=start + i, actor=a, seat=s, notation=n, version_after=match.version)
        for i, (a, s, n) in enumerate(plies)
    )
    lines = fragments.move_lines(match, {0: "ada", 1: "bo"})
    assert lines[0].ply == start + 2  # the die: the roll before it and ada's move are not shown
    assert lines[0].text.startswith("bo rolled 2")
    assert len(lines) == sum(1 for _, _, n in window[:shown] if n != "roll")
