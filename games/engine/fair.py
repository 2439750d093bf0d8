"""Provably fair chance outcomes (docs/rules.md "Common": Provably fair randomness).

Each match has a secret 32-byte seed; its commitment, SHA-256(seed) in hex, is
shown when the match starts and the seed (hex) is revealed when it ends.
Chance steps are numbered k = 0, 1, 2, ... in the order the match meets them
(``rules.chance_count(state)`` is k of the next one). For attempt j = 0, 1, ...
x is the big-endian integer of HMAC-SHA256(key=seed, msg=ASCII
"<match-id>:<k>:<j>"); if x < floor(2**256 / W) * W (W = sum of the weights)
then r = x mod W picks the outcome whose cumulative weight range holds r,
otherwise the next j is tried.

Test vector: seed = bytes 0..31, match id "42": commitment
630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd; die rolls
k = 0..9 give 6, 6, 6, 2, 1, 1, 3, 6, 2, 3.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from .base import CHANCE, EngineError
from .registry import get_rules

SEED_BYTES = 32
_TWO_256 = 1 << 256


def new_seed() -> bytes:
    """A fresh secret seed: 32 random bytes from ``secrets``."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """SHA-256 of the seed, 64 lowercase hex digits (shown at the start)."""
    return hashlib.sha256(seed).hexdigest()


def draw(seed: bytes, match_id: str, k: int, weights: Sequence[int]) -> int:
    """Index of the outcome that chance step ``k`` of match ``match_id`` draws.

    ``seed``: 32 bytes. ``weights``: positive integers, in the chance step's
    documented order. Raises ``ValueError`` for an empty or non-positive
    weight list or a seed that is not 32 bytes.
    """
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
    if not weights or any(type(w) is not int or w <= 0 for w in weights):
        raise ValueError(f"weights must be positive integers: {list(weights)!r}")
    total = sum(weights)
    limit = (_TWO_256 // total) * total
    j = 0
    while True:
        message = f"{match_id}:{k}:{j}".encode("ascii")
        x = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest(), "big")
        if x < limit:
            r = x % total
            for index, w in enumerate(weights):
                if r < w:
                    return index
                r -= w
        j += 1


def fair_outcome(rules, state, seed: bytes, match_id: str):
    """The move that resolves the chance step ``state`` is at, drawn fairly.

    Raises ``IllegalMoveError`` (from ``rules.chance_outcomes``) when the next
    step is not a chance step.
    """
    outcomes = rules.chance_outcomes(state)
    index = draw(seed, match_id, rules.chance_count(state), [w for _, w in outcomes])
    return outcomes[index][0]


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A chance outcome in a record that the seed does not give.

    ``ply``: index into the record (0-based); ``expected``/``recorded``: move
    notation."""

    ply: int
    expected: str
    recorded: str


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``verify_record`` found.

    ``ok``: every chance outcome matches, the record replays, and the seed
    matches the commitment (when one was given). ``seed_matches_commitment``:
    None when no commitment was given. ``mismatch``: the first chance outcome
    that differs, or None. ``error``: why replay stopped (an illegal or
    unparsable move, a bad seed), or None. ``chance_steps``: chance steps checked.
    ``plies``: record entries replayed.
    """

    ok: bool
    seed_matches_commitment: bool | None
    mismatch: Mismatch | None
    error: str | None
    chance_steps: int
    plies: int


def verify_record(
    kind: str,
    seed_hex: str,
    match_id: str,
    start_state: dict,
    record: list[str],
    commitment_hex: str | None = None,
) -> VerifyReport:
    """Replay ``record`` (move notation, one entry per ply, server events
    included) from ``start_state`` (a ``dump``) with ``play``, recomputing
    every chance outcome from the revealed seed; stop at the first one that
    does not match. Also checks the seed against the commitment, if given.

    Raises ``UnknownGameError`` for an unknown ``kind``; every other problem
    is reported in the ``VerifyReport``.
    """
    rules = get_rules(kind)
    seed_ok = None
    try:
        seed = bytes.fromhex(seed_hex)
        if len(seed) != SEED_BYTES:
            raise ValueError(f"the seed must be {SEED_BYTES} bytes")
    except ValueError as e:
        return VerifyReport(False, None if commitment_hex is None else False, None, f"bad seed: {e}", 0, 0)
    if commitment_hex is not None:
        seed_ok = hmac.compare_digest(commitment(seed), commitment_hex.strip().lower())
    try:
        state = rules.load(start_state)
    except EngineError as e:
        return VerifyReport(False, seed_ok, None, f"bad start state: {e}", 0, 0)
    steps = 0
    for ply, text in enumerate(record):
        try:
            if rules.to_move(state) == CHANCE:
                expected = str(fair_outcome(rules, state, seed, match_id))
                steps += 1
                if str(rules.parse_move(text)) != expected:
                    return VerifyReport(False, seed_ok, Mismatch(ply, expected, text), None, steps, ply)
            state = rules.play(state, text)
        except EngineError as e:
            return VerifyReport(False, seed_ok, None, f"ply {ply} ({text!r}): {e}", steps, ply)
    return VerifyReport(seed_ok is not False, seed_ok, None, None, steps, len(record))
