"""Reports (README "Moderation"): a player reports another seat from the match page
(reason from a list, note for staff only), once per seat; the admin queue
with its statuses and decisions (audit rows); the reporter follows the
status on their profile; voided matches show on the players' profiles."""

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from moderation import actions as moderation
from moderation.models import AuditLog, Report
from tests.factories import ludo_state, make_match, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_effects")]

REPORTS = "/admin/moderation/report/"


@pytest.fixture
def match():
    return make_match(seats=("human", "human", "normal"), state=ludo_state(3))


def players(match):
    return [s.user for s in match.seats.select_related("user").order_by("index") if s.user_id]


def report_url(match):
    return f"/m/{match.public_id}/report/"


class TestFiling:
    def test_the_match_page_links_to_reporting_the_other_human(self, client, match):
        me, other = players(match)
        client.force_login(me)
        page = client.get(f"/m/{match.public_id}/").text
        assert f"Report {other.username}" in page and f"Report {me.username}" not in page
        assert "Report Computer" not in page
        client.force_login(make_user())  # a spectator
        assert "report-link" not in client.get(f"/m/{match.public_id}/").text

    def test_a_player_reports_a_seat_with_a_reason_and_a_note(self, client, match):
        me, other = players(match)
        client.force_login(me)
        form = client.get(report_url(match) + "?seat=1")
        assert form.status_code == 200 and other.username in form.text and "Only the moderators" in form.text
        response = client.post(report_url(match), {"seat": "1", "reason": "abuse", "note": "insults"})
        assert response.status_code == 302 and response["Location"] == f"/m/{match.public_id}/"
        report = Report.objects.get()
        assert (report.reporter, report.reported_user, report.seat.index, report.reason, report.note,
                report.status) == (me, other, 1, "abuse", "insults", "open")

    def test_no_reason_is_chosen_for_the_reporter(self, client, match):
        """The form opens on "Choose a reason…"; sent so, it asks for one and files nothing."""
        me, _ = players(match)
        client.force_login(me)
        form = client.get(report_url(match) + "?seat=1").text
        assert '<option value="" selected>Choose a reason…</option>' in form
        refused = client.post(report_url(match), {"seat": "1", "reason": "", "note": "x"})
        assert refused.status_code == 400 and "Choose a reason from the list." in refused.text
        assert not Report.objects.exists()

    def test_one_report_per_seat(self, client, match):
        me, _ = players(match)
        client.force_login(me)
        client.post(report_url(match), {"seat": "1", "reason": "abuse"})
        again = client.post(report_url(match), {"seat": "1", "reason": "cheating"})
        assert again.status_code == 400 and "already reported" in again.text
        assert Report.objects.count() == 1

    @pytest.mark.parametrize("data", [
        {"seat": "0", "reason": "abuse"},  # yourself
        {"seat": "2", "reason": "abuse"},  # a computer
        {"seat": "9", "reason": "abuse"},
        {"seat": "x", "reason": "abuse"},
        {"seat": "1", "reason": "rudeness"},
        {"seat": "1", "reason": "abuse", "note": "x" * 1001},
        {},
    ])
    def test_bad_input_is_refused_and_changes_nothing(self, client, match, data):
        me, _ = players(match)
        client.force_login(me)
        assert client.post(report_url(match), data).status_code == 400
        assert not Report.objects.exists()

    def test_only_players_of_the_match_can_report(self, client, match):
        client.force_login(make_user())
        page = client.get(report_url(match))
        assert page.status_code == 200 and "no one you can report" in page.text
        assert client.post(report_url(match), {"seat": "1", "reason": "abuse"}).status_code == 400
        assert not Report.objects.exists()
        assert client.get("/m/nosuchmatch/report/").status_code == 404
        client.logout()
        assert client.get(report_url(match)).status_code == 302


class TestQueueAndStatus:
    def file(self, match, reason="abuse", note="secret note"):
        me, other = players(match)
        return Report.objects.create(reporter=me, match=match, seat=match.seats.get(user=other),
                                     reported_user=other, reason=reason, note=note)

    def test_the_reporter_sees_the_status_on_their_profile_and_nobody_else_does(self, client, match):
        report = self.file(match)
        me, other = players(match)
        client.force_login(me)
        page = client.get(f"/u/{me.username}/").text
        assert "Your reports" in page and other.username in page and "Open" in page
        assert "secret note" not in page
        client.force_login(other)
        page = client.get(f"/u/{me.username}/").text
        assert "Your reports" not in page
        assert "secret note" not in client.get(f"/u/{other.username}/").text
        Report.objects.filter(pk=report.pk).update(status="dismissed")
        client.force_login(me)
        assert "Dismissed" in client.get(f"/u/{me.username}/").text

    def test_the_admin_queue_filters_by_status_and_decides(self, mod_client, moderator, match):
        report = self.file(match)
        page = mod_client.get(REPORTS + "?status__exact=open").text
        assert f"/admin/moderation/report/{report.pk}/change/" in page
        detail = mod_client.get(f"{REPORTS}{report.pk}/change/").text
        assert "secret note" in detail
        data = {"action": "mark_actioned", "_selected_action": [report.pk]}
        assert "reason" in mod_client.post(REPORTS, data).text
        done = mod_client.post(REPORTS, {**data, "apply": "1", "reason": "warned by email"})
        assert done.status_code == 302
        report.refresh_from_db()
        assert report.status == "actioned" and report.decided_by == moderator and report.decided_at
        row = AuditLog.objects.get(action="report")
        assert row.target_user == report.reported_user and "actioned" in row.target
        assert row.reason == "warned by email"
        assert "warned by email" in mod_client.get(f"{REPORTS}{report.pk}/change/").text
        assert f"/admin/moderation/report/{report.pk}/change/" not in mod_client.get(
            REPORTS + "?status__exact=open").text
        # Reports are not edited by hand.
        assert mod_client.post(f"{REPORTS}{report.pk}/change/", {"status": "open"}).status_code == 403
        assert mod_client.get(f"{REPORTS}{report.pk}/delete/").status_code == 403

    def test_staff_who_may_only_view_reports_cannot_decide(self, client, match):
        report = self.file(match)
        staff = User.objects.create_user("viewer", "v@example.com", "a sturdy pass 42", is_staff=True)
        staff.user_permissions.add(Permission.objects.get(codename="view_report"))
        client.force_login(staff)
        assert client.get(REPORTS).status_code == 200
        client.post(REPORTS, {"action": "mark_dismissed", "_selected_action": [report.pk], "apply": "1",
                              "reason": "x"})
        assert Report.objects.get(pk=report.pk).status == "open"
        assert not AuditLog.objects.exists()


def test_a_voided_match_shows_on_the_players_profiles(client, moderator):
    near_win = ludo_state(2, phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4])
    m = make_match(seats=("human", "human"), state=near_win, rated=True)
    winner, loser = players(m)
    moderation.void_match(moderator, m.public_id, "collusion")
    for user, text in ((winner, "1520 → 1500"), (loser, "1480 → 1500")):
        page = client.get(f"/u/{user.username}/").text
        assert "Rating corrections" in page and m.public_id in page and text in page
    assert "collusion" not in client.get(f"/u/{winner.username}/").text
    # The rating chart ends at the rating after the void and counts no rated match.
    chart = client.get(f"/u/{winner.username}/").text
    assert "rating over 0 rated matches: from 1500 to 1500" in chart
    assert "1500 (−20), a voided match taken back" in chart


def test_a_voided_matchs_page_and_replay_say_so_and_show_no_rating_change(client, moderator):
    """Its match page and replay were still showing "1500? → 1520? (+20)" after the void."""
    near_win = ludo_state(2, phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4])
    m = make_match(seats=("human", "human"), state=near_win, rated=True)
    winner, _ = players(m)
    client.force_login(winner)
    page = client.get(f"/m/{m.public_id}/").text
    assert "(+20)" in page and "voided" not in page  # before the void, as read once it ended
    moderation.void_match(moderator, m.public_id, "collusion")
    for url in (f"/m/{m.public_id}/", f"/m/{m.public_id}/replay/"):
        page = client.get(url).text
        assert "(+20)" not in page and "(−20)" not in page and "→ 1520" not in page, url
    assert "voided this match's rating changes" in client.get(f"/m/{m.public_id}/").text
