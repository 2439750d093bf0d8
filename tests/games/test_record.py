"""The Ludo move list in words (games.record): what a die led to, from the
record that follows it or, for the newest die, from the view after it
(ludo-rules.txt rules 8 and 10)."""

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
