"""Times in the viewer's time zone (README "Times"): the browser's zone kept on
the profile (a cookie for a visitor), pages rendered in it, pushed fragments
rendered once in UTC as <time datetime> elements the browser converts; and a
voided match reads as voided in history."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.utils import timezone

from accounts import timezones
from accounts.models import User
from games.models import Match
from moderation import actions as moderation
from tests.factories import ludo_state, make_match, make_user

pytestmark = pytest.mark.django_db

MOMENT = datetime(2026, 3, 1, 23, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def no_effects(monkeypatch):
    from games import push, tasks

    monkeypatch.setattr(push, "match_changed", lambda *a, **k: None)
    for name in ("expire_turn", "computer_move", "auto_resume"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", lambda *a, **k: None)


def test_the_browsers_zone_is_kept_on_the_profile_and_in_a_cookie(client):
    me = make_user()
    client.force_login(me)
    response = client.post("/account/time-zone/", {"time_zone": "Asia/Tokyo"})
    assert response.status_code == 204 and response.cookies[timezones.COOKIE].value == "Asia/Tokyo"
    assert User.objects.get(pk=me.pk).time_zone == "Asia/Tokyo"
    html = client.get("/play/").content.decode()
    assert 'data-time-zone="Asia/Tokyo"' in html


@pytest.mark.parametrize("bad", [{"time_zone": "Mars/Olympus"}, {"time_zone": "x" * 65}, {},
                                 {"time_zone": ""}, {"time_zone": "../../etc/passwd"}])
def test_a_zone_that_is_not_one_is_refused_and_changes_nothing(client, bad):
    me = make_user()
    client.force_login(me)
    response = client.post("/account/time-zone/", bad)
    assert response.status_code == 400 and timezones.COOKIE not in response.cookies
    assert User.objects.get(pk=me.pk).time_zone == ""
    assert client.get("/account/time-zone/").status_code == 405


def test_history_times_are_the_viewers_with_the_moment_in_datetime(client):
    me = make_user("me")
    match = make_match(seats=("human", "easy"), users=[me], state=ludo_state())
    Match.objects.filter(pk=match.pk).update(created_at=MOMENT)
    html = client.get("/u/me/matches/").content.decode()
    assert '<time datetime="2026-03-01T23:30:00Z" data-local="datetime">1 Mar 2026, 23:30</time>' in html
    assert "Times are in UTC." in html
    User.objects.filter(pk=me.pk).update(time_zone="Asia/Tokyo")
    client.force_login(me)
    html = client.get("/u/me/matches/").content.decode()
    assert '<time datetime="2026-03-01T23:30:00Z" data-local="datetime">2 Mar 2026, 08:30</time>' in html
    assert "Times are in your time zone, Asia/Tokyo." in html


def test_a_visitors_zone_comes_from_the_cookie_and_a_bad_cookie_means_utc(client):
    make_user("me")
    client.cookies[timezones.COOKIE] = "America/New_York"
    assert "Times are in your time zone, America/New_York." in client.get("/u/me/matches/").content.decode()
    client.cookies[timezones.COOKIE] = "Nowhere/Land"
    assert "Times are in UTC." in client.get("/u/me/matches/").content.decode()


def test_a_pushed_fragment_is_rendered_in_utc_whatever_zone_is_active():
    template = Template('{% load local_time %}{% local_time when "time" utc=True %}|'
                        '{% local_time when "date" %}')
    with timezone.override(ZoneInfo("Asia/Tokyo")):
        text = template.render(Context({"when": MOMENT}))
    assert text == ('<time datetime="2026-03-01T23:30:00Z" data-local="time">23:30 UTC</time>|'
                    '<time datetime="2026-03-01T23:30:00Z" data-local="date">2 Mar 2026</time>')
    assert Template("{% load local_time %}{% local_time none %}").render(Context({"none": None})) == ""


def test_a_voided_match_reads_voided_in_history_not_its_rating_change(client):
    me, you = make_user("me"), make_user("you")
    near_win = ludo_state(phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4])
    match = make_match(seats=("human", "human"), users=[me, you], state=near_win, rated=True)
    kept = make_match(seats=("human", "human"), users=[me, you], state=near_win, rated=True)
    assert match.is_over and match.rated
    moderation.void_match(None, match.public_id, "collusion")
    html = client.get("/u/me/matches/").content.decode()
    voided_row = html[html.index(f'data-match="{match.public_id}"'):].split("</tr>")[0]
    kept_row = html[html.index(f'data-match="{kept.public_id}"'):].split("</tr>")[0]
    assert '<span class="tag voided">voided</span>' in voided_row and ">Voided</span>" in voided_row
    assert "rated</span>" not in voided_row and "(+" not in voided_row
    assert '<span class="tag">rated</span>' in kept_row and "(+" in kept_row
    profile = client.get("/u/me/").content.decode()  # the profile's recent matches: the same rows
    assert '<span class="tag voided">voided</span>' in profile


def test_the_zone_a_visitor_reported_becomes_the_profiles_at_log_in(client):
    """Mails and holidays read the profile's zone: a person who reported theirs as
    a visitor (the cookie) keeps it once signed in, without the browser sending it
    again; a zone already on the profile is never replaced that way."""
    me = make_user("zoned")
    me.set_password("correct horse battery")
    me.save()
    client.cookies[timezones.COOKIE] = "Europe/Paris"
    credentials = {"username": "zoned", "password": "correct horse battery"}
    assert client.post("/login/", credentials).status_code == 302
    assert User.objects.get(pk=me.pk).time_zone == "Europe/Paris"
    client.logout()
    client.cookies[timezones.COOKIE] = "Asia/Tokyo"
    client.post("/login/", credentials)
    assert User.objects.get(pk=me.pk).time_zone == "Europe/Paris"
