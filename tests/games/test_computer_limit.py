"""How many matches against computers one account plays at once (README
"Decisions"): PARLOUR_COMPUTER_MATCHES_PER_USER, counted when
one starts (the play page, a rematch, a room its host starts with a computer
seat); over it the play page says so (HTTP 429) and nothing is created."""

import pytest

from games import actions
from games.models import Match
from matchmaking import together
from matchmaking.rematch import actions as rematch
from matchmaking.rooms import actions as rooms
from tests.factories import make_match, make_user, start_room_match
from tests.races import race

QUICK = {"kind": "ludo", "players": "2", "speed": "normal", "level_1": "strong", "level_2": "normal",
         "level_3": "normal"}


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    """No pushes or Celery tasks: these tests look at the database."""
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    monkeypatch.setattr(together, "send_task", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def test_the_default_is_a_few(settings):
    import config.settings as defaults

    assert defaults.PARLOUR_COMPUTER_MATCHES_PER_USER == 3
    assert settings.PARLOUR_COMPUTER_MATCHES_PER_USER == 3  # the tests keep it


@pytest.mark.django_db
def test_the_play_page_refuses_one_match_too_many_and_creates_nothing(client):
    user = make_user()
    client.force_login(user)
    for _ in range(3):
        assert client.post("/play/", QUICK).status_code == 302
    assert actions.computer_matches(user.pk) == 3
    refused = client.post("/play/", QUICK)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert 'id="play-refused"' in page and "You are playing 3 matches against computers already" in page
    assert "Finish or leave one of them" in page
    assert Match.objects.count() == 3
    # Leaving one (which ends it: no human is left) frees its place.
    actions.leave_match(Match.objects.first().public_id, user)
    assert actions.computer_matches(user.pk) == 2
    assert client.post("/play/", QUICK).status_code == 302
    # Another account is not held back by this one.
    client.force_login(make_user())
    assert client.post("/play/", QUICK).status_code == 302


@pytest.mark.django_db
def test_only_matches_against_computers_not_ended_and_not_left_count():
    user = make_user()
    make_match(seats=("human", "human"), users=[user])  # humans only
    left = make_match(seats=("human", "human", "easy"), users=[user])
    actions.leave_match(left.public_id, user)  # left, though the others play on
    ended = make_match(seats=("human", "easy"), users=[user])
    actions.abort_match(ended.public_id)
    assert actions.computer_matches(user.pk) == 0
    make_match(seats=("human", "human", "easy"), users=[user])  # with a friend, and a computer
    start_room_match(user, [], computers=["normal"])  # a room with a computer seat
    assert actions.computer_matches(user.pk) == 2


@pytest.mark.django_db
def test_a_computer_rematch_and_a_room_start_are_refused_over_the_limit(settings):
    settings.PARLOUR_COMPUTER_MATCHES_PER_USER = 1
    user = make_user()
    over = make_match(seats=("human", "easy"), users=[user])
    actions.leave_match(over.public_id, user)
    live = actions.start_computer_match(user, "ludo", ["easy"])
    with pytest.raises(rematch.RematchRefused, match="You are playing 1 match against computers already"):
        rematch.do_rematch_computers(over.public_id, user)
    with pytest.raises(rooms.NotAllowed, match="the most one player may play at once"):
        start_room_match(user, [], computers=["easy"])
    assert Match.objects.count() == 2
    friend = make_user()
    start_room_match(user, [friend])  # a room without computers is no match against them
    actions.leave_match(live.public_id, user)
    assert rematch.do_rematch_computers(over.public_id, user).status == Match.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_starts_at_once_count_each_other(settings):
    settings.PARLOUR_COMPUTER_MATCHES_PER_USER = 2
    user = make_user()
    results = race(*[lambda: actions.start_computer_match(user, "ludo", ["easy"]) for _ in range(4)])
    assert sum(isinstance(r, Match) for r in results) == 2, results
    assert all(isinstance(r, (Match, actions.TooManyComputerMatches)) for r in results), results
    assert actions.computer_matches(user.pk) == 2 == Match.objects.count()
