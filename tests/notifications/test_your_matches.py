""""Your matches" as the home and play pages render it, without JavaScript
(README "Notifications"): the member's live matches with whose turn it is and
the time left; nothing of a private match for anyone else; nothing signed out."""

import pytest

from games import actions
from games.models import Match
from tests.factories import ludo_state, make_match, make_user

pytestmark = pytest.mark.django_db


def test_the_home_and_play_pages_list_the_members_matches_only(client):
    match = make_match(seats=("human", "human"), state=ludo_state(turn=0), is_public=False)
    ann, bob = (s.user for s in match.seats.select_related("user").order_by("index"))
    client.force_login(ann)
    for url in ("/", "/play/"):
        html = client.get(url).content.decode()
        assert f'id="ym-{match.public_id}"' in html and "Your turn" in html
        assert 'class="ym-clock"' in html and " s left" in html and f"with {bob.username}" in html
    client.force_login(bob)
    assert f"Waiting for {ann.username}" in client.get("/").content.decode()

    client.force_login(make_user())
    html = client.get("/play/").content.decode()
    assert match.public_id not in html and "You are in no match now." in html

    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    client.force_login(ann)
    assert match.public_id not in client.get("/").content.decode()


def test_signed_out_pages_have_no_list_and_no_user_socket(client):
    html = client.get("/").content.decode()
    assert "Your matches" not in html and 'id="notify"' not in html and "notify.js" not in html


def test_a_change_pushes_only_the_rows_it_changed_and_the_clock_only_to_the_seat_deciding(
        django_capture_on_commit_callbacks):
    """games.your_matches.change_events over a match's moves: the row of each
    member whose row did not change is left out; the seat to move sees its
    seconds left, the others only that they wait, so a change pushes rows
    only to the seats whose turn it was and is."""
    from games import push
    from games.engine import get_rules

    rules = get_rules("ludo")
    with django_capture_on_commit_callbacks(execute=True):
        # A fixed id fixes the dice (tests/factories.make_match): this one rolls a 6 early, so a
        # turn stays with its seat and the other two rows are left as they were (with a random id,
        # twelve rolls had no 6 about one run in nine: ci36).
        match = make_match(seats=("human", "human", "human"), state=ludo_state(3, turn=0),
                           public_id="yourmatchrows")
    users = {s.index: s.user for s in match.seats.select_related("user")}
    left_out = 0
    for _ in range(12):
        m = Match.objects.get(pk=match.pk)
        state = rules.load(m.state)
        mover = rules.to_move(state)
        with push.collect() as sent, django_capture_on_commit_callbacks(execute=True):
            actions.play_move(m.public_id, users[mover], str(rules.legal_moves(state)[0]), m.version)
        m = Match.objects.get(pk=match.pk)
        rows = {group: e["html"] for group, e in sent if e.get("type") == "notify.row"}
        now = rules.to_move(rules.load(m.state))
        for index, user in users.items():
            html = rows.get(f"notify.{user.pk}")
            if html is None:
                left_out += 1
                continue
            assert ('class="ym-clock"' in html) == (index == now), (index, now, html)
            assert ("Your turn" in html) == (index == now)
            # A member's row changes only when their own turn begins, goes on or ends.
            assert index in (mover, now), (index, mover, now, html)
            assert "Your turn" in html or "Waiting for the others" in html
    assert left_out > 0  # the members' rows that a change left as they were
