"""Provably fair chance draws: the docs/rules.md test vector and record checking."""

import pytest

from games.engine import CHANCE, get_rules
from games.engine.fair import commitment, draw, fair_outcome, new_seed, verify_record

SEED = bytes(range(32))
LUDO = get_rules("ludo")


def test_the_commitment_is_sha256_of_the_seed_in_hex():
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def test_ten_die_rolls_match_the_test_vector():
    assert [draw(SEED, "42", k, [1] * 6) + 1 for k in range(10)] == [6, 6, 6, 2, 1, 1, 3, 6, 2, 3]


def test_a_two_dice_step_matches_the_test_vector():
    i = draw(SEED, "42", 0, [1] * 36)
    assert (i // 6 + 1, i % 6 + 1) == (2, 6)


def test_a_tile_draw_from_a_full_bag_matches_the_test_vector():
    colours = ("yellow", "red", "purple", "blue", "green")
    assert colours[draw(SEED, "42", 0, [24] * 5)] == "green"


def test_draw_rejects_bad_weights_and_seeds():
    for weights in ([], [0, 1], [1, -1], [1.5]):
        with pytest.raises(ValueError):
            draw(SEED, "42", 0, weights)
    with pytest.raises(ValueError):
        draw(b"short", "42", 0, [1])
    assert len(new_seed()) == 32 and new_seed() != new_seed()


def test_draw_follows_the_cumulative_weight_ranges():
    counts = [0, 0, 0]
    for k in range(3000):
        counts[draw(SEED, "w", k, [1, 2, 7])] += 1
    assert counts[0] < counts[1] < counts[2]
    assert 0.6 < counts[2] / 3000 < 0.8


def fair_match(match_id: str, plies: int):
    state = LUDO.new_match(2)
    start = LUDO.dump(state)
    record = []
    for _ in range(plies):
        if LUDO.to_move(state) == CHANCE:
            move = fair_outcome(LUDO, state, SEED, match_id)
        else:
            move = LUDO.legal_moves(state)[-1]
        record.append(str(move))
        state = LUDO.play(state, move)
    return start, record


def test_the_first_chance_steps_of_match_42_are_the_test_vector():
    start, record = fair_match("42", 3)
    # k=0 draws the starting seat from 2 outcomes; k=1 is the first die.
    assert record[0] == f"s{draw(SEED, '42', 0, [1, 1])}"
    assert record[1:] == ["roll", "d6"]


def test_verify_record_accepts_an_honest_record():
    start, record = fair_match("7", 200)
    report = verify_record("ludo", SEED.hex(), "7", start, record, commitment(SEED))
    assert report.ok and report.seed_matches_commitment and report.mismatch is None
    assert report.plies == 200 and report.chance_steps > 50


def test_verify_record_detects_a_tampered_roll():
    start, record = fair_match("7", 200)
    ply = next(i for i, m in enumerate(record) if m.startswith("d") and i > 40)
    tampered = record[:ply] + ["d6" if record[ply] != "d6" else "d5"] + record[ply + 1 :]
    report = verify_record("ludo", SEED.hex(), "7", start, tampered, commitment(SEED))
    assert not report.ok
    assert (report.mismatch.ply, report.mismatch.expected) == (ply, record[ply])
    assert report.mismatch.recorded == tampered[ply]


def test_verify_record_detects_a_seed_that_does_not_match_the_commitment():
    start, record = fair_match("7", 30)
    report = verify_record("ludo", SEED.hex(), "7", start, record, "00" * 32)
    assert not report.ok and report.seed_matches_commitment is False and report.mismatch is None


def test_verify_record_reports_an_illegal_record_entry():
    start, record = fair_match("7", 30)
    report = verify_record("ludo", SEED.hex(), "7", start, [record[0], "p3"], None)
    assert not report.ok and "p3" in report.error and report.plies == 1
