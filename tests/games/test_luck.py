"""The dice in numbers (docs/features.md "The dice in numbers").

The figures the pages show are checked against an independent recomputation:
real matches are played to their end through the actions (computer seats
included), their export is fetched over HTTP, and every seat's counts, luck
figure and the profile's p-value are recomputed here from the export alone,
with plain Python and scipy (nothing of ``games.luck`` or ``games.stats`` is
imported for that), then compared with the numbers the match page, the replay
and the profile carry in data attributes."""

from __future__ import annotations

import math
import re
from html.parser import HTMLParser

import pytest
from scipy import stats as sp

from games import actions
from games.engine import CHANCE, get_rules
from games.models import Match, SeatLuck
from tests.factories import ludo_state, make_match, make_user

# -- the pure statistics module, against scipy ------------------------------------------


@pytest.mark.parametrize("dof", [1, 2, 3, 4, 5, 7, 20, 35])
def test_chi2_survival_function_matches_scipy(dof):
    from games.stats import chi2_sf

    for x in (0.0, 1e-4, 0.3, 1, 2.5, dof, 2 * dof, 11.07, 31.41, 80, 400):
        assert chi2_sf(x, dof) == pytest.approx(sp.chi2.sf(x, dof), rel=1e-9, abs=1e-300)


def test_chi_square_and_normal_match_scipy():
    from games.stats import chi_square, normal_sf

    observed = [13, 9, 11, 6, 12, 21]
    statistic, dof, p = chi_square(observed, [1 / 6] * 6)
    reference = sp.chisquare(observed)
    assert (statistic, dof) == (pytest.approx(reference.statistic), 5)
    assert p == pytest.approx(reference.pvalue, rel=1e-9)
    for z in (-3.2, -1, 0, 0.5, 2.7):
        assert normal_sf(z) == pytest.approx(sp.norm.sf(z), rel=1e-12)


def test_the_roundabout_verdict_is_the_chi_square_over_the_21_pairs():
    """The profile's test for two dice, on made-up counts (a real match has too
    few rolls for it): the 36 ordered pairs folded into 21 unordered cells."""
    import random

    from games.luck import luck_rules, verdict

    rng = random.Random(7)
    counts = [rng.randrange(3, 12) for _ in range(36)]
    cells = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    def face(a, b):
        return counts[(a - 1) * 6 + b - 1]

    observed = [face(a, b) + (face(b, a) if a != b else 0) for a, b in cells]
    n = sum(counts)
    expected = [n * (1 if a == b else 2) / 36 for a, b in cells]
    got = verdict(luck_rules("roundabout"), counts)
    assert got.dof == 20 and got.needed == 180
    assert got.p_value == pytest.approx(sp.chisquare(observed, expected).pvalue, rel=1e-9)
    assert verdict(luck_rules("roundabout"), [1] * 36).word == "too-few"


def test_bad_statistics_input_is_refused():
    from games.stats import chi2_sf, chi_square, z_score

    with pytest.raises(ValueError):
        chi2_sf(3.0, 0)
    with pytest.raises(ValueError):
        chi2_sf(3.0, 2.5)
    with pytest.raises(ValueError):
        chi_square([0, 0], [0.5, 0.5])
    with pytest.raises(ValueError):
        chi_square([1, 2], [1.0])
    assert z_score(0, 0, 3.5, 35 / 12) is None


# -- reading the pages ------------------------------------------------------------------


class DataAttributes(HTMLParser):
    """Every element's attributes whose name starts with ``data-``, in page order."""

    def __init__(self):
        super().__init__()
        self.elements = []

    def handle_starttag(self, tag, attrs):
        data = {k[5:]: v for k, v in attrs if k.startswith("data-")}
        if data:
            self.elements.append(data)


def data_of(html: str) -> list[dict]:
    parser = DataAttributes()
    parser.feed(html)
    return parser.elements


def page_seats(html: str) -> dict[int, dict]:
    """The "Dice in numbers" table's rows, seat -> data attributes (cells under "cells")."""
    rows, current = {}, None
    for el in data_of(html):
        if "seat" in el and "count" in el:
            current = rows[int(el["seat"])] = dict(el, cells={})
        elif current is not None and "key" in el and "value" in el:
            current["cells"][el["key"]] = el
    return rows


def profile_games(html: str) -> dict[str, dict]:
    return {el["luck-kind"]: el for el in data_of(html) if "luck-kind" in el and "matches" in el}


# -- the independent recomputation, from the export alone --------------------------------

DIE = re.compile(r"^d([1-6])$")
DICE = re.compile(r"^d([1-6])-([1-6])$")


def export_rolls(export: dict) -> dict[int, list[tuple[int, ...]]]:
    """Seat -> the dice its rolls brought, from the export's moves: a chance
    outcome right after a seat's ``roll`` is that seat's (Ludo ``dN``,
    Roundabout ``dA-B``); any other chance step (who starts, the roll-off)
    belongs to no one."""
    pattern = DIE if export["game"] == "ludo" else DICE
    out = {p["seat"]: [] for p in export["players"]}
    previous = None
    for m in export["moves"]:
        found = pattern.match(m["move"])
        if m["actor"] == "chance" and found and previous is not None and previous["move"] == "roll":
            out[previous["seat"]].append(tuple(int(g) for g in found.groups()))
        previous = m
    return out


def z_of(rolls) -> float | None:
    """The luck figure by its written definition: (pips - n * mean) / sqrt(n * variance)
    of fair dice (one die: 3.5 and 35/12; two dice: 7 and 35/6)."""
    if not rolls:
        return None
    dice = len(rolls[0])
    pips = sum(sum(r) for r in rolls)
    return (pips - len(rolls) * 3.5 * dice) / math.sqrt(len(rolls) * dice * 35 / 12)


def p_value_of(kind: str, rolls) -> float:
    if kind == "ludo":
        observed = [sum(1 for (f,) in rolls if f == face) for face in range(1, 7)]
        return sp.chisquare(observed).pvalue
    cells = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    observed = [sum(1 for r in rolls if tuple(sorted(r)) == c) for c in cells]
    probabilities = [1 / 36 if a == b else 2 / 36 for a, b in cells]
    return sp.chisquare(observed, [len(rolls) * p for p in probabilities]).pvalue


# -- playing real matches -----------------------------------------------------------------


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def play_out(match: Match) -> Match:
    """Play ``match`` to its end through the actions: each seat to move, human
    or computer, takes its first legal move; the server draws every chance step."""
    rules = get_rules(match.kind)
    users = {s.index: s.user for s in match.seats.select_related("user")}
    for _ in range(5000):
        m = Match.objects.get(pk=match.pk)
        if m.is_over:
            return m
        state = rules.load(m.state)
        seat = rules.to_move(state)
        assert seat not in (None, CHANCE)
        move = str(rules.legal_moves(state)[0])
        if users[seat] is None:
            actions.play_computer_move(m.public_id, m.version, move)
        else:
            actions.play_move(m.public_id, users[seat], move, m.version)
    raise AssertionError("the match did not end")


def near_the_end(kind):
    """A short match: Ludo from a position near its end; None: from the start."""
    return ludo_state(pieces=[[56, 56, 56, 38], [56, 56, 56, 38]]) if kind == "ludo" else None


def halfway(kind):
    """A match of some length, but not the whole: Ludo from half its pieces home
    (with the test's match id and seed, 195 plies and 37 rolls of seat 0, enough
    for the profile's test); None: from the start."""
    return ludo_state(pieces=[[56, 56, -1, -1], [56, 56, -1, -1]]) if kind == "ludo" else None


@pytest.mark.django_db
@pytest.mark.parametrize("kind, seats, matches", [("ludo", ("human", "normal"), 2),
                                                  ("roundabout", ("human", "easy"), 1)])
def test_luck_figures_match_an_independent_recomputation_from_the_export(client, kind, seats, matches):
    ada = make_user("ada")
    starts = [halfway(kind), near_the_end(kind)]
    played = [play_out(make_match(kind, seats, users=[ada], state=starts[i], seed=bytes([i + 1] * 32),
                                  public_id=f"dice{kind[:5]}{'fz'[i]}"))
              for i in range(matches)]
    client.force_login(ada)
    everyone = {p: [] for p in ("ada",)}
    for match in played:
        export = client.get(f"/m/{match.public_id}/export.json").json()
        assert export["status"] == "finished"
        rolls = export_rolls(export)
        assert all(rolls.values()), "every seat rolled, computers too"
        for page in (f"/m/{match.public_id}/", f"/m/{match.public_id}/replay/"):
            shown = page_seats(client.get(page).content.decode())
            assert sorted(shown) == sorted(rolls)
            for seat, own in rolls.items():
                row = shown[seat]
                assert int(row["count"]) == len(own)
                assert float(row["luck"]) == pytest.approx(z_of(own), abs=1e-6)
                if kind == "ludo":
                    assert int(row["cells"]["sixes"]["value"]) == sum(1 for (f,) in own if f == 6)
                    mean = sum(f for (f,) in own) / len(own)
                    assert float(row["cells"]["mean"]["value"]) == pytest.approx(mean)
                else:
                    assert int(row["cells"]["doubles"]["value"]) == sum(1 for a, b in own if a == b)
                    assert float(row["cells"]["doubles"]["expected"]) == pytest.approx(len(own) / 6, abs=1e-6)
        ada_seat = next(p["seat"] for p in export["players"] if p["username"] == "ada")
        everyone["ada"] += rolls[ada_seat]
    profile = profile_games(client.get("/u/ada/").content.decode())[kind]
    mine = everyone["ada"]
    assert int(profile["count"]) == len(mine) and int(profile["matches"]) == matches
    assert float(profile["luck"]) == pytest.approx(z_of(mine), abs=1e-6)
    needed = 30 if kind == "ludo" else 180
    assert int(profile["needed"]) == needed
    assert kind != "ludo" or len(mine) >= needed  # the p-value is compared for Ludo (fixed ids and seeds)
    if len(mine) >= needed:
        assert profile["verdict"] in ("fair", "unusual", "very-unusual")
        assert float(profile["p-value"]) == pytest.approx(p_value_of(kind, mine), rel=1e-6)
    else:
        assert profile["verdict"] == "too-few" and "p-value" not in profile


@pytest.mark.django_db
def test_rondo_tiles_are_counted_against_the_bag_and_have_no_luck_figure(client):
    ada = make_user("ada")
    match = play_out(make_match("rondo", ("human", "normal"), users=[ada], state=None, public_id="dicerondo"))
    client.force_login(ada)
    export = client.get(f"/m/{match.public_id}/export.json").json()
    drawn = {p["seat"]: 0 for p in export["players"]}
    rules = get_rules("rondo")  # only to know whose rack a tile goes to (the deal and the draws)
    state = rules.load(export["start_state"])
    for m in export["moves"]:
        if m["actor"] == "chance" and m["move"].startswith("tile "):
            drawn[state.turn] += 1
        state = rules.play(state, m["move"])
    shown = page_seats(client.get(f"/m/{match.public_id}/").content.decode())
    assert {s: int(r["count"]) for s, r in shown.items()} == drawn
    assert all("luck" not in r for r in shown.values())
    for r in shown.values():  # what a fair bag gives adds up to the tiles drawn
        assert sum(float(c["expected"]) for c in r["cells"].values()) == pytest.approx(int(r["count"]))
    assert "rondo" not in profile_games(client.get("/u/ada/").content.decode())  # no dice, no verdict


@pytest.mark.django_db
def test_a_live_match_shows_no_dice_in_numbers(client):
    ada, bob = make_user("ada"), make_user("bob")
    match = make_match("ludo", ("human", "human"), users=[ada, bob], state=None)
    m = Match.objects.get(pk=match.pk)
    actions.play_move(m.public_id, (ada, bob)[m.seat_to_move], "roll", m.version)
    client.force_login(ada)
    assert 'id="dice-in-numbers"' not in client.get(f"/m/{match.public_id}/").content.decode()
    assert not SeatLuck.objects.exists()
    assert 'data-luck-kind' not in client.get("/u/ada/").content.decode()


@pytest.mark.django_db
def test_profiles_with_no_ended_match_or_only_private_ones(client):
    ada, bob = make_user("ada"), make_user("bob")
    page = client.get("/u/ada/").content.decode()
    assert 'id="dice-in-numbers"' in page and not profile_games(page)  # no matches at all
    private = make_match("ludo", ("human", "normal"), users=[ada], state=near_the_end("ludo"),
                         is_public=False)
    play_out(private)
    client.force_login(bob)
    assert not profile_games(client.get("/u/ada/").content.decode())  # another person: public ones only
    client.logout()
    assert not profile_games(client.get("/u/ada/").content.decode())
    client.force_login(ada)
    assert int(profile_games(client.get("/u/ada/").content.decode())["ludo"]["matches"]) == 1


@pytest.mark.django_db
def test_an_aborted_match_with_no_rolls(client):
    ada = make_user("ada")
    match = make_match("ludo", ("human", "human"), users=[ada], state=None)
    actions.abort_match(match.public_id)
    rows = SeatLuck.objects.filter(seat__match=match)
    assert rows.count() == 2 and all(sum(r.counts) == 0 for r in rows)
    client.force_login(ada)
    shown = page_seats(client.get(f"/m/{match.public_id}/").content.decode())
    assert {s: int(r["count"]) for s, r in shown.items()} == {0: 0, 1: 0}
    assert all("luck" not in r for r in shown.values())  # no rolls, no figure
    page = client.get("/u/ada/").content.decode()
    assert not profile_games(page)  # nothing rolled: nothing to sum


@pytest.mark.django_db
def test_the_migration_fills_ended_matches_as_the_match_end_does():
    """games 0015's data step replays ended matches' records into the same rows."""
    import importlib

    from django.apps import apps

    match = play_out(make_match("ludo", ("human", "easy"), state=near_the_end("ludo")))
    written = {r.seat_id: (r.counts, r.expected) for r in SeatLuck.objects.all()}
    SeatLuck.objects.all().delete()
    importlib.import_module("games.migrations.0015_seat_luck").fill(apps, None)
    assert {r.seat_id: (r.counts, r.expected) for r in SeatLuck.objects.all()} == written
    assert len(written) == 2 and match.is_over


@pytest.mark.django_db
def test_a_bot_seat_is_marked_bot_in_the_dice_table(client):
    from accounts import tokens

    ada, robo = make_user("ada"), tokens.make_bot(make_user("robo"))
    match = play_out(make_match("ludo", ("human", "human"), users=[ada, robo], state=near_the_end("ludo")))
    page = client.get(f"/m/{match.public_id}/").content.decode()
    rows = dict(re.findall(r'<tr data-seat="(\d)".*?<th scope="row">(.*?)</th>', page, re.S))
    assert "bot-badge" in rows["1"] and "bot-badge" not in rows["0"], rows
