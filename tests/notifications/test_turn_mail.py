"""Turn-based mail (docs/features.md, "E-mail when it is your turn"), sent
over real SMTP to a local aiosmtpd server (tests/mail_server.py) and read
from what it received: the "your turn" digest, the reminder, the result,
the switches, the one-click unsubscribe link and its headers, bounces, and a
dead mail server that delays mail but never a move. Deadlines and the hour
between digests are passed by moving the stored times, never by waiting."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import User
from config.celery import app as celery_app
from games import actions, turn_mail
from games.models import Match
from games.time_controls import DAY
from notifications import mail, tasks
from notifications.models import MailSettings, MatchMail
from tests.factories import ludo_state, make_match, make_user
from tests.mail_server import MailServer
from tests.services import free_port

pytestmark = pytest.mark.django_db

#: One roll, then one move from the end: seat 0 wins with "p3" (tests/games/test_actions.py).
LAST_MOVE = ludo_state(phase="move", die=1, pieces=[[56, 56, 56, 55], [-1] * 4], autoplay_forced=False)


class RefusingServer(MailServer):
    """The test SMTP server, refusing the addresses in ``refused`` with a 550 at RCPT."""

    def __init__(self):
        super().__init__()
        self.refused: set[str] = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # aiosmtpd's hook
        if address in self.refused:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@pytest.fixture
def smtp(settings):
    with RefusingServer() as server:
        settings.MAILERS = server.mailers
        yield server


@pytest.fixture
def run_mail(django_capture_on_commit_callbacks, monkeypatch):
    """``run_mail(job)``: run a mail job now (or a callable), with the mails it
    queues delivered at once by the send task's own code, as a worker would.
    Returns the task outcomes ("sent", "skipped", "bounced")."""
    outcomes = []
    monkeypatch.setattr(tasks.send_mail, "delay", lambda *args: outcomes.append(tasks.send_mail.run(*args)))

    def run(job=None, now=None):
        outcomes.clear()
        with django_capture_on_commit_callbacks(execute=True):
            if job is None:
                tasks.turn_mail.run()
            elif job in (turn_mail.send_digests, turn_mail.send_reminders):
                job(now or timezone.now())
            else:
                job()
        return list(outcomes)

    return run


def turn_based(*users, state=None, turn_seconds=DAY, **kw) -> Match:
    return make_match(seats=["human"] * len(users), users=list(users), state=state or ludo_state(turn=0),
                      turn_seconds=turn_seconds, **kw)


def body(message) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def to(server, user) -> list:
    return [m for m in server.messages if m["To"] == user.email]


def test_a_digest_lists_every_waiting_match_once_an_hour_with_its_unsubscribe_headers(smtp, run_mail):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    first, second = turn_based(ann, bob), turn_based(ann, cy, turn_seconds=3 * DAY)
    theirs = turn_based(bob, ann)  # bob's turn there: not in ann's mail
    assert {first.seat_to_move, second.seat_to_move, theirs.seat_to_move} == {0}

    assert run_mail() == ["sent", "sent"]  # ann, and bob for the match where he is to move
    [mine] = to(smtp, ann)
    text = body(mine)
    assert mine["Subject"] == "Your turn in 2 matches"
    for match in (first, second):
        assert f"{settings.SITE_URL}/m/{match.public_id}/" in text
    assert theirs.public_id not in text
    assert "Ludo with bob (1 day a move)" in text and "Ludo with cy (3 days a move)" in text
    assert "23 hours left" in text and "2 days, 23 hours left" in text
    unsubscribe = mine["List-Unsubscribe"]
    assert unsubscribe.startswith(f"<{settings.SITE_URL}/mail/unsubscribe/") and unsubscribe.endswith("/>")
    assert mine["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe[1:-1] in text
    [raw] = [e.content for e in smtp.envelopes if e.rcpt_tos == [ann.email]]
    assert f"\r\nList-Unsubscribe: {unsubscribe}\r\n".encode() in raw, "one line, not MIME-encoded"
    [bobs] = to(smtp, bob)
    assert bobs["Subject"] == "Your turn: Ludo with ann" and theirs.public_id in body(bobs)

    # Nothing new: no mail. A new waiting match within the hour: still none.
    assert run_mail() == []
    third = turn_based(ann, make_user("dee"))
    assert run_mail() == []
    # An hour after the last digest, the next one lists all three.
    MailSettings.objects.filter(user=ann).update(last_digest_at=timezone.now() - timedelta(minutes=61))
    assert run_mail() == ["sent"]
    assert len(to(smtp, ann)) == 2 and all(m.public_id in body(to(smtp, ann)[1])
                                          for m in (first, second, third))
    MailSettings.objects.update(last_digest_at=timezone.now() - timedelta(days=1))
    assert run_mail() == [], "an hour later, nothing not yet mailed about: no mail"


def test_no_mail_when_it_is_not_your_turn_nor_for_live_matches_nor_computers(smtp, run_mail):
    ann, bob = make_user(), make_user()
    waiting = turn_based(ann, bob)
    live = make_match(seats=("human", "human"), state=ludo_state(turn=1), turn_seconds=60)
    against_computer = make_match(seats=("normal", "human"), users=[bob], state=ludo_state(turn=0),
                                  turn_seconds=DAY)
    assert run_mail() == ["sent"]
    assert [m["To"] for m in smtp.messages] == [ann.email]
    text = body(smtp.messages[0])
    assert live.public_id not in text and against_computer.public_id not in text
    # Ann rolls: whoever the match then waits for is told (an hour on), and only they.
    actions.play_move(waiting.public_id, ann, "roll", waiting.version)
    MailSettings.objects.update(last_digest_at=timezone.now() - timedelta(hours=2))
    waiting.refresh_from_db()
    mover, other = (ann, bob) if waiting.seat_to_move == 0 else (bob, ann)
    assert run_mail() == ["sent"]
    assert smtp.messages[-1]["To"] == mover.email and len(to(smtp, other)) == (1 if other == ann else 0)


def test_a_player_on_holiday_is_not_told_until_they_are_back(smtp, run_mail):
    from accounts import holidays
    from accounts.models import Holiday

    ann, bob = make_user(), make_user()
    waiting = turn_based(ann, bob)
    today = holidays.today_for(ann)
    holidays.book_holiday(ann, today, today + timedelta(days=2))
    assert run_mail() == []
    # Back (the holiday moved into the past): the decision is mailed about then.
    Holiday.objects.filter(user=ann).update(starts_at=timezone.now() - timedelta(days=3),
                                            ends_at=timezone.now() - timedelta(minutes=1))
    assert run_mail() == ["sent"]
    assert [m["To"] for m in smtp.messages] == [ann.email] and waiting.public_id in body(smtp.messages[0])


def test_a_reminder_goes_once_when_a_quarter_of_the_time_is_left(smtp, run_mail):
    ann, bob = make_user(), make_user()
    match = turn_based(ann, bob, turn_seconds=2 * DAY)
    MailSettings.objects.create(user=ann, your_turn=False)
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(deadline=now + timedelta(seconds=0.26 * 2 * DAY))
    assert run_mail(turn_mail.send_reminders, now) == []
    Match.objects.filter(pk=match.pk).update(deadline=now + timedelta(seconds=0.24 * 2 * DAY))
    assert run_mail(turn_mail.send_reminders, now) == ["sent"]
    [reminder] = smtp.messages
    assert reminder["To"] == ann.email
    assert reminder["Subject"] == f"Reminder: 11 hours left in Ludo with {bob}"
    assert match.public_id in body(reminder) and reminder["List-Unsubscribe-Post"]
    assert run_mail(turn_mail.send_reminders, now + timedelta(hours=1)) == []  # once per decision
    assert MatchMail.objects.get(match_id=match.pk).reminder_ply == match.ply_count


def test_the_end_of_a_turn_based_match_mails_each_player_the_result(smtp, run_mail):
    ann, bob = make_user(), make_user()
    match = turn_based(ann, bob, state=LAST_MOVE)
    live = make_match(seats=("human", "human"), state=LAST_MOVE, turn_seconds=60)
    assert run_mail(lambda: actions.play_move(live.public_id, live.seats.get(index=0).user, "p3",
                                              live.version)) == []
    assert run_mail(lambda: actions.play_move(match.public_id, ann, "p3", match.version)) == ["sent", "sent"]
    mails = {m["To"]: m for m in smtp.messages}
    assert mails[ann.email]["Subject"] == f"You won: Ludo with {bob}"
    assert mails[bob.email]["Subject"] == f"You lost: Ludo with {ann}"
    text = body(mails[bob.email])
    assert f"1. {ann}\n2. {bob}" in text and f"{settings.SITE_URL}/m/{match.public_id}/" in text
    assert mails[bob.email]["List-Unsubscribe"]
    assert not MatchMail.objects.filter(match_id=match.pk).exists()


def test_each_kind_switched_off_sends_none_of_it(smtp, run_mail, client):
    ann, bob = make_user(), make_user()
    client.force_login(ann)
    assert 'href="/account/mail/"' in client.get(f"/u/{ann.username}/").content.decode()
    assert 'href="/account/mail/"' not in client.get(f"/u/{bob.username}/").content.decode()
    page = client.get("/account/mail/").content.decode()
    assert 'name="your_turn"' in page and 'name="reminders"' in page and 'name="results"' in page
    assert ann.email in page
    response = client.post("/account/mail/", {})  # every box unticked
    assert response.status_code == 302
    assert MailSettings.objects.filter(user=ann, your_turn=False, reminders=False, results=False).exists()
    client.force_login(bob)
    client.post("/account/mail/", {"your_turn": "on", "reminders": "on"})
    match = turn_based(ann, bob, state=LAST_MOVE)
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(deadline=now + timedelta(hours=1))
    assert run_mail() == []
    assert run_mail(lambda: actions.play_move(match.public_id, ann, "p3", match.version)) == [
        "skipped", "skipped"]
    assert smtp.messages == []


def test_the_settings_page_needs_a_log_in():
    response = Client().get("/account/mail/")
    assert response.status_code == 302 and "/login/" in response["Location"]


class TestUnsubscribe:
    def test_a_get_only_asks_and_a_post_switches_the_kind_off(self):
        ann = make_user()
        path = mail.unsubscribe_url(ann.pk, "reminders").removeprefix(settings.SITE_URL)
        anyone = Client(enforce_csrf_checks=True)
        page = anyone.get(path)
        assert page.status_code == 200 and b"<button" in page.content and ann.email.encode() in page.content
        assert mail.settings_of(ann.pk).reminders, "a GET (a mail scanner) never unsubscribes"
        # A mail program's one-click unsubscribe (RFC 8058): a POST without cookies or CSRF token.
        done = anyone.post(path, "List-Unsubscribe=One-Click",
                           content_type="application/x-www-form-urlencoded")
        assert done.status_code == 200 and b"no longer sends" in done.content and b"Reminders" in done.content
        kept = mail.settings_of(ann.pk)
        assert not kept.reminders and kept.your_turn and kept.results

    @pytest.mark.parametrize("how", ["forged", "altered", "expired", "other user"])
    def test_a_bad_link_is_refused_and_changes_nothing(self, how, monkeypatch):
        ann, bob = make_user(), make_user()
        client = Client()
        token = mail.unsubscribe_token(ann.pk, "your_turn")
        if how == "forged":
            from django.core import signing
            token = signing.dumps({"u": ann.pk, "k": "your_turn"}, key="not-the-site-key",
                                  salt="notifications.unsubscribe")
        elif how == "altered":
            # Bob's own link, pointed at ann: her id in the payload, his signature.
            bobs = mail.unsubscribe_token(bob.pk, "your_turn").split(":")
            token = ":".join([token.split(":")[0], *bobs[1:]])
        elif how == "expired":
            import time
            real = time.time
            monkeypatch.setattr(time, "time", lambda: real() - (settings.PARLOUR_UNSUBSCRIBE_DAYS + 1) * DAY)
            token = mail.unsubscribe_token(ann.pk, "your_turn")
            monkeypatch.setattr(time, "time", real)
        else:
            client.force_login(bob)
        for method in (client.get, client.post):
            response = method(f"/mail/unsubscribe/{token}/")
            assert response.status_code == 400 and b'role="alert"' in response.content
            assert b"Nothing was changed" in response.content
        assert not MailSettings.objects.exists()
        words = {"forged": b"not one Parlour made", "altered": b"not one Parlour made",
                 "expired": b"days old", "other user": b"another account"}[how]
        assert words in response.content


def test_an_smtp_5xx_marks_the_address_bounced_until_it_changes(smtp, run_mail):
    ann, bob = make_user(), make_user()
    smtp.refused.add(ann.email)
    first = turn_based(ann, bob)
    assert run_mail() == ["bounced"]
    kept = MailSettings.objects.get(user=ann)
    assert kept.bounced_address == ann.email and kept.bounce_reason.startswith("550")
    # A new decision, hours later: the address is still the one that bounced, so nothing is queued.
    turn_based(ann, make_user())
    MailSettings.objects.filter(user=ann).update(last_digest_at=timezone.now() - timedelta(hours=2))
    assert run_mail() == []
    # A new address: mailed again, listing both matches.
    ann.email = "ann.new@example.com"
    ann.save()
    assert run_mail() == ["sent"]
    assert smtp.messages[-1]["To"] == "ann.new@example.com" and first.public_id in body(smtp.messages[-1])


def test_a_dead_mail_server_delays_the_mail_and_never_the_move(settings, django_capture_on_commit_callbacks,
                                                               monkeypatch):
    ann, bob = make_user(), make_user()
    match = turn_based(ann, bob, state=LAST_MOVE)
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                                    "OPTIONS": {"host": "127.0.0.1", "port": free_port(), "timeout": 2}}}
    queued = []
    monkeypatch.setattr(tasks.send_mail, "delay", lambda *args: queued.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        ended = actions.play_move(match.public_id, ann, "p3", match.version)
    assert ended.status == Match.Status.FINISHED and len(queued) == 2
    with pytest.raises(OSError):  # connection refused: Celery retries it (autoretry_for)
        tasks.send_mail.run(*queued[0])
    assert isinstance(OSError(), tasks.send_mail.autoretry_for) and tasks.send_mail.retry_backoff
    assert not MailSettings.objects.exclude(bounced_address="").exists()
    with MailServer() as server:
        settings.MAILERS = server.mailers
        assert tasks.send_mail.run(*queued[0]) == "sent"  # the retry, once the server is back
        assert len(server.messages) == 1


def test_a_4xx_is_retried_and_marks_nothing():
    refusal = smtplib.SMTPRecipientsRefused({"a@example.com": (451, b"try later")})
    assert mail.permanent_refusal(refusal) is None
    assert mail.permanent_refusal(smtplib.SMTPDataError(452, b"full")) is None
    assert mail.permanent_refusal(smtplib.SMTPSenderRefused(550, b"no", "us@example.com")) is None
    assert mail.permanent_refusal(smtplib.SMTPDataError(554, b"rejected")) == "554 rejected"


def test_mail_is_queued_only_after_the_commit(monkeypatch, django_capture_on_commit_callbacks):
    """Inside the job's transaction nothing is sent to Celery; after its
    commit one task per mail; a transaction rolled back sends none."""
    from django.db import transaction

    queued = []
    monkeypatch.setattr(tasks.send_mail, "delay", lambda *args: queued.append(args))
    ann, bob = make_user(), make_user()
    turn_based(ann, bob)
    with pytest.raises(RuntimeError), transaction.atomic():
        assert turn_mail.send_digests(timezone.now()) == 1
        raise RuntimeError("rolled back")
    assert queued == [] and not MatchMail.objects.exists()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert turn_mail.send_digests(timezone.now()) == 1
        assert queued == []
    assert len(callbacks) == 1 and [args[:2] for args in queued] == [(ann.pk, "your_turn")]


def test_mail_tasks_go_to_the_general_queue_and_beat_runs_the_turn_mail():
    celery_app.loader.import_default_modules()  # as a worker does: every app's tasks module
    assert {"notifications.tasks.send_mail", "notifications.tasks.turn_mail"} <= set(celery_app.tasks)
    for name in ("notifications.tasks.send_mail", "notifications.tasks.turn_mail"):
        assert celery_app.amqp.router.route({}, name)["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE
    entry = settings.CELERY_BEAT_SCHEDULE["turn-mail"]
    assert entry["task"] == "notifications.tasks.turn_mail"
    assert set(mail.jobs()) == {"your-turn digests", "reminders"}


def test_each_player_is_mailed_in_their_own_language(smtp, run_mail):
    """docs/i18n.md "E-mail": the digest and the result, subject and body, in
    the recipient's chosen language (German here), and in English for an
    account that chose none, from the same run."""
    ann, bob = make_user("ann"), make_user("bob")
    User.objects.filter(pk=ann.pk).update(language="de")
    turn_based(ann, bob)  # ann to move
    turn_based(bob, ann)  # bob to move
    assert run_mail() == ["sent", "sent"]
    [anns], [bobs] = to(smtp, ann), to(smtp, bob)
    assert anns["Subject"] == "Du bist am Zug: Ludo mit bob"
    text = body(anns)
    assert text.startswith("Hallo ann,\n\nDu bist in einer Fernpartie auf Parlour am Zug:\n"), text
    assert "noch 23 Stunden: bis " in text
    assert any(day in text for day in ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag",
                                       "Sonntag")), "the deadline's day in German"
    assert "Dies ist eine E-Mail der Art „Du bist am Zug“ von Parlour." in text
    assert "Hello" not in text and "left: until" not in text
    assert bobs["Subject"] == "Your turn: Ludo with ann"
    assert body(bobs).startswith("Hello bob,\n\nIt is your turn in a turn-based match on Parlour:\n")

    won = turn_based(ann, bob, state=LAST_MOVE)
    assert run_mail(lambda: actions.play_move(won.public_id, ann, "p3", won.version)) == ["sent", "sent"]
    results = {m["To"]: m for m in smtp.messages if m["Subject"].startswith(("Du hast", "You "))}
    assert results[ann.email]["Subject"] == "Du hast gewonnen: Ludo mit bob"
    assert "Deine Fernpartie Ludo mit bob ist vorbei. Du hast gewonnen." in body(results[ann.email])
    assert results[bob.email]["Subject"] == "You lost: Ludo with ann"
