"""The match actions: the only writers. Versions, races, deadlines, leaving,
finishing exactly once; effects only after commit."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games import actions, push
from games.engine import fair
from games.models import Match, Move, Seat
from tests.factories import SEED, ludo_state, make_match, make_user
from tests.races import race

#: How long after its deadline a move may still arrive; deadline tasks run then.
ALLOWANCE = timedelta(seconds=settings.PARLOUR_MOVE_ALLOWANCE_SECONDS)


@pytest.fixture
def sent(monkeypatch):
    """Frames push.py sends, as (group, version, html), instead of the channel layer."""
    frames = []

    async def capture(messages, version, served=()):
        frames.extend((group, version, html) for group, html in messages)

    monkeypatch.setattr(push, "_send_all", capture)
    return frames


@pytest.fixture
def scheduled(monkeypatch):
    """Celery tasks the actions schedule, as (task name, args, options)."""
    from games import tasks

    calls = []
    for name in ("expire_turn", "computer_move", "auto_resume"):
        task = getattr(tasks, name)
        monkeypatch.setattr(
            task, "apply_async",
            lambda args, _n=name, **kw: calls.append((_n, tuple(args), kw)),
        )
    return calls


def moves_of(match):
    return list(Move.objects.filter(match=match).order_by("ply").values_list("actor", "seat", "notation"))


@pytest.mark.django_db
class TestStart:
    def test_start_draws_the_starting_seat_fairly_and_sets_a_deadline(
        self, django_capture_on_commit_callbacks, sent, scheduled
    ):
        with django_capture_on_commit_callbacks(execute=True):
            match = make_match(seats=("human", "human"), start=False)
            match = actions.start_match(match.public_id)
        first = Move.objects.get(match=match, ply=0)
        assert first.actor == "chance" and first.chance_index == 0
        assert first.notation == f"s{fair.draw(SEED, match.public_id, 0, [1, 1])}"
        assert match.status == "active" and match.version == 1 and match.started_at
        assert match.deadline is not None
        assert scheduled[-1][0] == "expire_turn" and scheduled[-1][1] == (match.public_id, 1)
        # At the deadline plus the network allowance (README "Decisions").
        assert scheduled[-1][2]["eta"] == match.deadline + ALLOWANCE
        groups = {g for g, _, _ in sent}
        assert groups == {push.match_group(match.public_id), push.seat_group(match.public_id, 0),
                          push.seat_group(match.public_id, 1)}

    def test_a_computer_to_move_gets_a_task_not_a_deadline(self, django_capture_on_commit_callbacks,
                                                           scheduled):
        with django_capture_on_commit_callbacks(execute=True):
            match = make_match(seats=("human", "easy"), state=ludo_state(turn=1))
        assert match.deadline is None
        assert scheduled == [("computer_move", (match.public_id, 1), {"countdown": None})]

    def test_starting_twice_is_refused(self):
        match = make_match()
        with pytest.raises(actions.NotAllowed):
            actions.start_match(match.public_id)


@pytest.mark.django_db
class TestPlay:
    def test_roll_is_followed_by_its_chance_step_in_one_version(self, django_capture_on_commit_callbacks,
                                                                 sent, scheduled):
        match = make_match(seats=("human", "human"), state=ludo_state())
        user = match.seats.get(index=0).user
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            after = actions.play_move(match.public_id, user, "roll", match.version)
        assert after.version == match.version + 1
        rows = list(Move.objects.filter(match=match).order_by("ply"))
        assert [(r.actor, r.notation) for r in rows[:2]] == [
            ("seat", "roll"), ("chance", f"d{fair.draw(SEED, match.public_id, 1, [1] * 6) + 1}")]
        assert all(r.version_after == after.version for r in rows)
        assert callbacks, "effects go out on commit"
        public = [html for g, v, html in sent if g == push.match_group(match.public_id)]
        assert public and all(v == after.version for _, v, _ in sent)
        assert f'data-version="{after.version}"' in public[-1]
        assert match.seed not in "".join(html for _, _, html in sent)

    def test_a_roll_with_no_possible_move_says_so_live(self, django_capture_on_commit_callbacks, sent):
        # All pieces in base: only a six can move, so some match of a few rolls
        # gets a die with no move; its live frame says the turn passed.
        for i in range(30):
            match = make_match(seats=("human", "human"), state=ludo_state(), public_id=f"nomove{i:04d}")
            user = match.seats.get(index=0).user
            sent.clear()
            with django_capture_on_commit_callbacks(execute=True):
                after = actions.play_move(match.public_id, user, "roll", match.version)
            if after.state["turn"] == 1:
                break
        else:
            pytest.fail("30 first rolls were all sixes")
        public = next(html for g, _, html in sent if g == push.match_group(match.public_id))
        assert "rolled" in public and "no piece can move; the turn passes." in public

    def test_stale_or_repeated_submission_changes_nothing(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        user = match.seats.get(index=0).user
        actions.play_move(match.public_id, user, "roll", match.version)
        before = Match.objects.get(pk=match.pk)
        with pytest.raises(actions.StaleVersion) as e:
            actions.play_move(match.public_id, user, "roll", match.version)
        assert e.value.current == before.version
        after = Match.objects.get(pk=match.pk)
        assert (after.version, after.state, after.ply_count) == (
            before.version, before.state, before.ply_count)

    @pytest.mark.parametrize("notation", ["", "p9", "fly away", "timeout", "leave 1", "d6", "x" * 500, "p0"])
    def test_malformed_illegal_or_server_only_moves_are_refused(self, notation):
        match = make_match(seats=("human", "human"), state=ludo_state())
        user = match.seats.get(index=0).user
        with pytest.raises(actions.BadMove) as e:
            actions.play_move(match.public_id, user, notation, match.version)
        assert Match.objects.get(pk=match.pk).version == match.version
        if notation == "fly away":  # says what it refused once, and what a move looks like
            assert e.value.message.count("fly away") == 1 and "expected" in e.value.message

    @pytest.mark.parametrize("version", [None, "", "abc", -1, "1e3", 10**9])
    def test_bad_versions_are_stale(self, version):
        match = make_match(seats=("human", "human"), state=ludo_state())
        user = match.seats.get(index=0).user
        with pytest.raises(actions.StaleVersion):
            actions.play_move(match.public_id, user, "roll", version)

    def test_other_peoples_seats_and_strangers_are_refused(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        other = match.seats.get(index=1).user
        with pytest.raises(actions.NotYourTurn):
            actions.play_move(match.public_id, other, "roll", match.version)
        with pytest.raises(actions.NotAllowed):
            actions.play_move(match.public_id, make_user(), "roll", match.version)
        with pytest.raises(actions.MatchNotFound):
            actions.play_move("nosuchmatch", other, "roll", match.version)
        assert Match.objects.get(pk=match.pk).version == match.version

    def test_forced_move_is_played_for_the_seat_and_recorded_as_the_servers(self):
        # Seat 0 has one piece out; rolling anything but 6 leaves one move.
        state = ludo_state(pieces=[[5, -1, -1, -1], [-1] * 4])
        match = make_match(seats=("human", "human"), state=state)
        user = match.seats.get(index=0).user
        die = fair.draw(SEED, match.public_id, 1, [1] * 6) + 1
        actions.play_move(match.public_id, user, "roll", match.version)
        rows = moves_of(match)
        if die != 6:
            assert rows[2] == ("server", 0, "p0")

    def test_several_plies_in_one_action_apply_all_or_nothing(self):
        state = ludo_state(pieces=[[5, 9, -1, -1], [-1] * 4], autoplay_forced=False)
        match = make_match(seats=("human", "human"), state=state)
        user = match.seats.get(index=0).user
        with pytest.raises(actions.BadMove):  # after a roll the die is the chance step's
            actions.play_move(match.public_id, user, ["roll", "roll"], match.version)
        assert Match.objects.get(pk=match.pk).version == match.version
        assert not Move.objects.filter(match=match).exists()
        with pytest.raises(actions.BadMove):
            actions.play_move(match.public_id, user, ["roll"] * 13, match.version)
        after = actions.play_move(match.public_id, user, ["roll"], match.version)
        assert after.version == match.version + 1

    def test_computer_move_after_a_human_moved_is_a_no_op(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        old = match.version
        actions.play_move(match.public_id, match.seats.get(index=0).user, "roll", old)
        assert actions.play_computer_move(match.public_id, old, "roll") is None
        assert actions.play_computer_move(match.public_id, old + 1, "roll") is None  # a human is to move

    def test_computer_move_plays_at_its_version(self):
        match = make_match(seats=("human", "easy"), state=ludo_state(turn=1))
        after = actions.play_computer_move(match.public_id, match.version, "roll")
        assert after.version == match.version + 1
        assert moves_of(match)[0] == ("seat", 1, "roll")


@pytest.mark.django_db
class TestDeadlines:
    def _overdue(self, match):
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    def test_expiry_records_a_timeout_and_is_idempotent(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        assert actions.expire_turn(match.public_id, match.version) is None  # not due yet
        self._overdue(match)
        after = actions.expire_turn(match.public_id, match.version)
        assert after.version == match.version + 1
        assert moves_of(match)[0] == ("server", 0, "timeout")
        assert Seat.objects.get(match=match, index=0).missed_turns == 1
        assert actions.expire_turn(match.public_id, match.version) is None  # duplicate task

    def test_three_missed_turns_idle_the_seat_out_and_the_other_wins(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        for _ in range(3):
            m = Match.objects.get(pk=match.pk)
            # seat 1 plays its turns; seat 0 keeps missing
            while m.status == "active" and m.state["turn"] == 1:
                seat1 = m.seats.get(index=1)
                notation = "roll" if m.state["phase"] == "roll" else None
                if notation is None:
                    from games.engine import get_rules
                    rules = get_rules("ludo")
                    notation = str(rules.legal_moves(rules.load(m.state))[0])
                actions.play_move(m.public_id, seat1.user, notation, m.version)
                m = Match.objects.get(pk=match.pk)
            self._overdue(m)
            actions.expire_turn(m.public_id, m.version)
        m = Match.objects.get(pk=match.pk)
        seat0 = m.seats.get(index=0)
        assert seat0.status == "idle_out"
        assert m.status == "finished" and m.end_reason == "last_player_standing"
        assert m.seats.get(index=1).rank == 1 and seat0.rank == 2
        assert [r[2] for r in moves_of(m) if r[0] == "server"][-2:] == ["timeout", "leave 0"]

    def test_a_solo_match_whose_human_idles_out_is_aborted(self):
        match = make_match(seats=("human", "easy", "easy"), state=ludo_state(3), idle_limit=1)
        self._overdue(match)
        after = actions.expire_turn(match.public_id, match.version)
        assert after.status == "aborted" and after.end_reason == "no_humans_left"
        assert after.deadline is None

    def test_a_pending_deadline_task_covers_later_moves_and_hands_over(
        self, django_capture_on_commit_callbacks, scheduled
    ):
        with django_capture_on_commit_callbacks(execute=True):
            match = make_match(seats=("human", "human"), state=ludo_state())
        started = Match.objects.get(pk=match.pk)
        assert [c[0] for c in scheduled] == ["expire_turn"]
        (_, old_version), eta = scheduled[0][1], scheduled[0][2]["eta"]
        assert started.deadline_task_at == eta - ALLOWANCE <= started.deadline
        user = started.seats.get(index=0).user
        with django_capture_on_commit_callbacks(execute=True):
            moved = actions.play_move(match.public_id, user, "roll", started.version)
        assert moved.deadline > eta - ALLOWANCE
        assert len(scheduled) == 1, "the pending task (due first) covers the new deadline"
        assert Match.objects.get(pk=match.pk).deadline_task_at == eta - ALLOWANCE
        # The pending task runs at its eta: the match moved on, so it hands over.
        Match.objects.filter(pk=match.pk).update(deadline_task_at=timezone.now() - timedelta(seconds=1))
        with django_capture_on_commit_callbacks(execute=True):
            assert actions.expire_turn(match.public_id, old_version) is None
        assert scheduled[-1][:2] == ("expire_turn", (match.public_id, moved.version))
        assert scheduled[-1][2]["eta"] == moved.deadline + ALLOWANCE
        assert Match.objects.get(pk=match.pk).deadline_task_at == moved.deadline
        # A duplicate of the old task finds the new one pending and sends nothing.
        with django_capture_on_commit_callbacks(execute=True):
            assert actions.expire_turn(match.public_id, old_version) is None
        assert len(scheduled) == 2
        assert moves_of(match)[-1][2] != "timeout"  # nobody missed a turn

    def test_a_deadline_before_the_pending_task_gets_its_own_task(
        self, django_capture_on_commit_callbacks, scheduled
    ):
        with django_capture_on_commit_callbacks(execute=True):
            match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
        later = timezone.now() + timedelta(hours=1)
        Match.objects.filter(pk=match.pk).update(deadline_task_at=later)  # a task due after the next deadline
        m = Match.objects.get(pk=match.pk)
        with django_capture_on_commit_callbacks(execute=True):
            moved = actions.play_move(m.public_id, m.seats.get(index=0).user, "roll", m.version)
        assert scheduled[-1][:2] == ("expire_turn", (match.public_id, moved.version))
        assert Match.objects.get(pk=match.pk).deadline_task_at == moved.deadline < later

    def test_overdue_matches_lists_only_live_overdue_ones(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        assert (match.public_id, match.version) not in actions.overdue_matches()
        self._overdue(match)
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        assert (match.public_id, match.version) in actions.overdue_matches()


@pytest.mark.django_db
class TestLeaveAndFinish:
    def test_leaving_removes_the_pieces_and_the_last_player_wins(self):
        state = ludo_state(3, pieces=[[3, -1, -1, -1]] * 3)
        match = make_match(seats=("human", "human", "human"), state=state)
        users = {s.index: s.user for s in match.seats.all()}
        actions.leave_match(match.public_id, users[1])
        m = Match.objects.get(pk=match.pk)
        assert m.status == "active" and m.seats.get(index=1).status == "left"
        assert m.state["left"] == [1]
        with pytest.raises(actions.NotAllowed):
            actions.leave_match(match.public_id, users[1])
        actions.leave_match(match.public_id, users[2])
        m = Match.objects.get(pk=match.pk)
        assert m.status == "finished"
        assert [m.seats.get(index=i).rank for i in range(3)] == [1, 3, 2]

    def test_the_winning_move_finishes_the_match_once(self):
        state = ludo_state(phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4], autoplay_forced=False)
        match = make_match(seats=("human", "human"), state=state)
        user = match.seats.get(index=0).user
        after = actions.play_move(match.public_id, user, "p3", match.version)
        assert after.status == "finished" and after.end_reason == "finished"
        assert after.finished_at and after.deadline is None
        assert [s.rank for s in after.seats.order_by("index")] == [1, 2]
        with pytest.raises(actions.StaleVersion):
            actions.play_move(match.public_id, user, "p3", match.version)
        with pytest.raises(actions.NotAllowed):
            actions.leave_match(match.public_id, user)
        assert after.revealed_seed == SEED.hex()


@pytest.mark.django_db
class TestPause:
    def test_pause_keeps_the_remaining_time_and_resume_sets_a_new_deadline(self, scheduled):
        match = make_match(seats=("human", "human"), state=ludo_state(), turn_seconds=60)
        host = match.seats.get(index=0).user
        Match.objects.filter(pk=match.pk).update(host=host)
        with pytest.raises(actions.NotAllowed):
            actions.pause_match(match.public_id, match.seats.get(index=1).user, match.version)
        paused = actions.pause_match(match.public_id, host, match.version)
        assert paused.status == "paused" and paused.deadline is None
        assert 55 < paused.paused_remaining <= 60
        with pytest.raises(actions.NotAllowed):
            actions.play_move(match.public_id, host, "roll", paused.version)
        resumed = actions.resume_match(match.public_id, host, paused.version)
        assert resumed.status == "active"
        left = (resumed.deadline - timezone.now()).total_seconds()
        assert 50 < left <= paused.paused_remaining + 1


@pytest.mark.django_db(transaction=True)
class TestRaces:
    def test_double_submit_from_two_tabs_applies_once(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        user = match.seats.get(index=0).user
        results = race(*[lambda: actions.play_move(match.public_id, user, "roll", match.version)] * 2)
        assert sum(isinstance(r, Match) for r in results) == 1
        assert sum(isinstance(r, actions.StaleVersion) for r in results) == 1
        assert [r[2] for r in moves_of(match)].count("roll") == 1
        assert Match.objects.get(pk=match.pk).version == match.version + 1

    def test_a_move_and_its_deadline_racing_exactly_one_wins(self):
        match = make_match(seats=("human", "human"), state=ludo_state())
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(milliseconds=1))
        user = match.seats.get(index=0).user
        results = race(
            lambda: actions.play_move(match.public_id, user, "roll", match.version),
            lambda: actions.expire_turn(match.public_id, match.version),
        )
        applied = [r for r in results if isinstance(r, Match)]
        assert len(applied) == 1
        notations = [r[2] for r in moves_of(match)]
        assert ("roll" in notations) != ("timeout" in notations)
        assert Match.objects.get(pk=match.pk).version == match.version + 1

    def test_two_paths_finishing_at_once_finish_once(self):
        state = ludo_state(phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4], autoplay_forced=False)
        match = make_match(seats=("human", "human"), state=state)
        users = {s.index: s.user for s in match.seats.all()}
        results = race(
            lambda: actions.play_move(match.public_id, users[0], "p3", match.version),
            lambda: actions.leave_match(match.public_id, users[1]),
        )
        m = Match.objects.get(pk=match.pk)
        assert m.status == "finished"
        assert sum(1 for r in results if isinstance(r, Match)) == 1
        assert m.version == match.version + 1
        assert sorted(s.rank for s in m.seats.all()) == [1, 2]


@pytest.mark.django_db
def test_a_whole_match_of_computers_and_timeouts_rebuilds_from_its_record_and_verifies(monkeypatch):
    """Start state + record (server events and chance included) rebuild the final
    state, and every chance outcome checks out against the revealed seed."""
    from games import tasks
    from games.actions import advance
    from games.engine import get_rules

    monkeypatch.setattr(advance, "_schedule_computer", lambda match, version: None)
    monkeypatch.setattr(advance, "_schedule_deadline", lambda *a: None)
    match = make_match(seats=("human", "easy", "normal", "normal"), state=None, start=True)
    rules = get_rules("ludo")
    human = match.seats.get(index=0).user
    human_decisions = 0
    for _ in range(20000):
        m = Match.objects.get(pk=match.pk)
        if m.status != "active":
            break
        if m.deadline is None:
            tasks.computer_move(m.public_id, m.version)
            continue
        human_decisions += 1
        if human_decisions % 5 == 0:  # now and then the human lets the clock run out
            Match.objects.filter(pk=m.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            actions.expire_turn(m.public_id, m.version)
        else:
            legal = rules.legal_moves(rules.load(m.state))
            actions.play_move(m.public_id, human, str(legal[-1]), m.version)
    m = Match.objects.get(pk=match.pk)
    assert m.status == "finished"
    assert Move.objects.filter(match=m, notation="timeout").exists()
    record = list(Move.objects.filter(match=m).order_by("ply").values_list("notation", flat=True))
    state = rules.load(m.start_state)
    for notation in record:
        state = rules.play(state, notation)
    assert rules.dump(state) == m.state
    report = fair.verify_record("ludo", m.revealed_seed, m.public_id, m.start_state, record, m.seed_hash)
    assert report.ok and report.chance_steps == Move.objects.filter(match=m, actor="chance").count()
    tampered = list(record)
    die_at = next(i for i, n in enumerate(record) if n.startswith("d"))
    tampered[die_at] = "d6" if record[die_at] != "d6" else "d1"
    assert not fair.verify_record("ludo", m.revealed_seed, m.public_id, m.start_state, tampered).ok


@pytest.mark.django_db
def test_the_seat_to_move_is_stored_with_each_decision_and_cleared_at_the_end(sent, scheduled):
    """Match.seat_to_move follows the engine's seat to move (a human's or a
    computer's decision), so "your turn" lists need no match state, and is
    None once the match is over."""
    from games.engine import get_rules

    match = make_match(seats=("human", "human"))
    rules = get_rules(match.kind)
    for _ in range(4):
        match.refresh_from_db()
        to_move = rules.to_move(rules.load(match.state))
        assert match.seat_to_move == to_move and to_move in (0, 1)
        user = Seat.objects.get(match=match, index=to_move).user
        actions.play_move(match.public_id, user, "roll", match.version)
        match.refresh_from_db()
        if rules.to_move(rules.load(match.state)) == to_move:
            break  # a six or a move to choose: the same seat decides again
    actions.abort_match(match.public_id)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.seat_to_move is None
