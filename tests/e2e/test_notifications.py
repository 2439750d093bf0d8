"""Site-wide notifications in a real Chromium (README "Notifications"): a
"your turn" toast on the rules page, a profile and another match's page but
not on the match's own page; "Your matches" live on the play page; a
non-member never hears of a private match; a challenge; a match found while reading
another page; a browser notification in a hidden tab of someone who opted
in; a ban's reason at once; a clean close leaving the queue, and a queue
entry surviving a severed connection and a daphne restart, unpaired while
its socket is away."""

import re
import socket
import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from games import actions
from games.engine import get_rules
from games.models import Match, Seat
from matchmaking.challenges import actions as challenges
from matchmaking.models import QueueEntry
from matchmaking.queue import actions as queue_actions
from moderation import actions as moderation
from notifications import notify
from tests import services
from tests.e2e.lobby_site import QueueSocket
from tests.e2e.test_live_play import in_thread, log_in
from tests.factories import ludo_state, make_match, make_user


def open_page(context, url):
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#notify")).to_have_attribute("data-socket", "open", timeout=20_000)
    return page


def play_until_seat_moves(match, users, index):
    """Play the first legal move of whoever is to move until seat ``index`` is."""
    rules = get_rules(match.kind)
    for _ in range(50):
        match = Match.objects.get(pk=match.pk)
        state = rules.load(match.state)
        seat = rules.to_move(state)
        if seat == index:
            return match
        move = rules.view(state, seat)["moves"][0]["move"]
        in_thread(actions.play_move, match.public_id, users[seat], move, match.version)
    raise AssertionError("the turn never passed")


def your_turn_setup(context, base_url, path):
    """A player in a match against a human with the decision theirs (a toast
    of it shown) and one waiting on a computer, on ``path``: returns the page."""
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state(turn=1))
    users = {s.index: s.user for s in match.seats.select_related("user")}
    other = in_thread(make_match, seats=("human", "normal"), state=ludo_state(turn=1))
    Seat.objects.filter(match=other, index=0).update(user=users[0])
    log_in(context, users[0], base_url)
    page = open_page(context, f"{base_url}{path}")
    play_until_seat_moves(match, users, 0)
    expect(page.locator("#toasts .toast")).to_have_count(1, timeout=20_000)
    return page


def test_your_turn_reaches_every_other_page_once_and_never_a_non_member(browser, live_server_url):
    private = in_thread(make_match, seats=("human", "human"), state=ludo_state(turn=1), is_public=False)
    users = {s.index: s.user for s in private.seats.select_related("user")}
    ann, bob = users[0], users[1]
    other = in_thread(make_match, seats=("human", "human"), state=ludo_state(turn=1))
    Seat.objects.filter(match=other, index=0).update(user=ann)
    carol = in_thread(make_user, "carol_outside")

    ann_ctx, carol_ctx = browser.new_context(), browser.new_context()
    log_in(ann_ctx, ann, live_server_url)
    log_in(carol_ctx, carol, live_server_url)
    # A tab the player has hidden, having opted in to browser notifications: the note
    # comes as one (Notification is recorded: headless Chromium shows none).
    ann_ctx.add_init_script("""
        if (location.pathname === '/about/') {
          Object.defineProperty(document, 'hidden', {get: () => true});
          window.shown = [];
          window.Notification = function (title, options) { window.shown.push(options.body); };
          window.Notification.permission = 'granted';
          localStorage.setItem('parlour.notify', '1');
        }""")
    hidden = open_page(ann_ctx, f"{live_server_url}/about/")
    rules = open_page(ann_ctx, f"{live_server_url}/rules/")
    profile = open_page(ann_ctx, f"{live_server_url}/u/{bob.username}/")
    elsewhere = open_page(ann_ctx, f"{live_server_url}/m/{other.public_id}/")
    own = open_page(ann_ctx, f"{live_server_url}/m/{private.public_id}/")
    play = open_page(ann_ctx, f"{live_server_url}/play/")
    expect(play.locator(f"#ym-{private.public_id}")).to_contain_text(f"Waiting for {bob.username}")
    outsider = open_page(carol_ctx, f"{live_server_url}/play/")
    expect(outsider.locator(".ym-none")).to_be_visible()

    match = play_until_seat_moves(private, users, 0)
    said = f"Your turn in Ludo with {bob.username}"
    for page in (rules, profile, elsewhere):
        toast = page.locator("#toasts .toast", has_text=said)
        expect(toast).to_have_count(1, timeout=20_000)
        expect(toast.get_by_role("link", name=said)).to_have_attribute("href", f"/m/{private.public_id}/")
        expect(toast.locator("time.toast-clock")).to_contain_text(re.compile(r"\d+ s left"))
        expect(page.locator("#notify-said")).to_contain_text(said)
    expect(play.locator(f"#ym-{private.public_id}")).to_contain_text("Your turn")
    expect(play.locator(f"#ym-{private.public_id} time.ym-clock")).to_contain_text(re.compile(r"\d+ s left"))
    expect(own.locator("#toasts .toast")).to_have_count(0)  # the match page says it itself
    assert hidden.evaluate("window.shown.length") == 1 and said in hidden.evaluate("window.shown[0]")
    assert rules.evaluate("typeof window.shown") == "undefined"  # a visible tab: the toast only

    # Once per tab: the same note again (another socket of the tab, a resend) shows nothing new.
    key = f"turn:{private.public_id}:{match.version}"
    again = notify.note_event(ann.pk, "your_turn", said, f"/m/{private.public_id}/", key=key)
    in_thread(notify.send, [again])
    rules.wait_for_timeout(500)
    expect(rules.locator("#toasts .toast", has_text=said)).to_have_count(1)
    # The non-member's pages heard nothing of the private match.
    expect(outsider.locator("#toasts .toast")).to_have_count(0)
    expect(outsider.locator(f"#ym-{private.public_id}")).to_have_count(0)
    assert private.public_id not in outsider.content()

    # A challenge comes to the page being read, with a link to answer it.
    challenge = in_thread(challenges.do_challenge, carol, ann.username, "rondo", 30)
    toast = rules.locator("#toasts .toast", has_text=f"{carol.username} challenges you to Rondo")
    answer = f"/challenges/{challenge.pk}/"
    expect(toast.get_by_role("link")).to_have_attribute("href", answer, timeout=20_000)
    ann_ctx.close()
    carol_ctx.close()


def test_a_turn_played_in_another_tab_takes_its_toast_away(browser, live_server_url):
    """The "your turn" toast of a page that does not show the rows (the rules)
    and of one that does (play) goes as soon as the turn is played elsewhere,
    not when its 12 seconds are up."""
    match = in_thread(make_match, seats=("human", "human"), state=ludo_state(turn=1))
    users = {s.index: s.user for s in match.seats.select_related("user")}
    context = browser.new_context()
    log_in(context, users[0], live_server_url)
    pages = [open_page(context, f"{live_server_url}{path}") for path in ("/rules/", "/play/")]
    play_until_seat_moves(match, users, 0)
    for page in pages:
        expect(page.locator("#toasts .toast-your_turn")).to_have_count(1, timeout=20_000)
    shown = pages[0].evaluate("Date.now()")
    play_until_seat_moves(match, users, 1)  # seat 0 plays its turn (in another tab, say)
    for page in pages:
        expect(page.locator("#toasts .toast-your_turn")).to_have_count(0, timeout=10_000)
    assert pages[0].evaluate("Date.now()") - shown < 11_000  # before the toast's own 12 s
    context.close()


def test_a_match_found_and_a_ban_reason_reach_the_page_being_read(browser, live_server_url):
    ann, bob, mod = (in_thread(make_user, n) for n in ("found_ann", "found_bob", "found_mod"))
    ctx = browser.new_context()
    log_in(ctx, ann, live_server_url)
    reading = open_page(ctx, f"{live_server_url}/rules/")
    queue = open_page(ctx, f"{live_server_url}/play/")

    # Leaving the queue's page (a clean close, 1001) leaves the queue at once.
    # The panel's socket must be open and have sent its snapshot (the entry is
    # then the socket's): the count shows before that, from the form's answer.
    socket = QueueSocket(queue)
    queue.get_by_role("button", name="Ludo, 2 players").click()
    socket.first_frame()
    expect(queue.locator("#queue-count")).to_contain_text("1 player waiting", timeout=20_000)
    queue.goto(f"{live_server_url}/about/")
    for _ in range(200):
        if not QueueEntry.objects.filter(user=ann).exists():
            break
        queue.wait_for_timeout(100)
    assert not QueueEntry.objects.filter(user=ann).exists()

    queue.goto(f"{live_server_url}/play/")
    queue.get_by_role("button", name="Ludo, 2 players").click()
    expect(queue.locator("#queue-count")).to_contain_text("1 player waiting", timeout=20_000)
    in_thread(queue_actions.join_queue, bob, "ludo", 2)
    match = Match.objects.get(seats__user=ann)
    toast = reading.locator("#toasts .toast", has_text="Your ranked Ludo match is ready")
    expect(toast).to_have_count(1, timeout=20_000)
    expect(toast.get_by_role("link")).to_have_attribute("href", f"/m/{match.public_id}/")
    queue.wait_for_url(f"**/m/{match.public_id}/", timeout=20_000)

    in_thread(moderation.ban_user, mod, ann, timezone.now() + timedelta(days=3), "Abusive chat")
    alert = reading.get_by_role("alert")
    expect(alert).to_contain_text("suspended your account until", timeout=20_000)
    expect(alert).to_contain_text("Abusive chat")
    reading.wait_for_timeout(500)
    # The reason, and not the 4003 fallback besides.
    expect(reading.locator("#toasts .toast-moderation")).to_have_count(1)
    ctx.close()


@pytest.mark.resilience
def test_a_queue_entry_survives_a_daphne_restart_and_is_not_paired_while_away(
        page, transactional_db, django_db_blocker):
    with django_db_blocker.unblock():
        server, base = services.start_daphne("daphne-queue-blip")
    port = int(base.rsplit(":", 1)[1])
    try:
        ann, bob = in_thread(make_user, "blip_ann"), in_thread(make_user, "blip_bob")
        log_in(page.context, ann, base)
        page.goto(f"{base}/play/")
        page.get_by_role("button", name="Ludo, 2 players").click()
        expect(page.locator("#queue-count")).to_contain_text("1 player waiting", timeout=20_000)
        for _ in range(100):  # the queue socket is open: it marked the entry seen
            if QueueEntry.objects.filter(user=ann, socket_seen_at__isnull=False).exists():
                break
            page.wait_for_timeout(100)
        page.wait_for_timeout(500)  # and it has joined its groups (its connect is done)

        server.stop()  # a real drop: the process goes, and its sockets with it
        entry = QueueEntry.objects.get(user=ann, match__isnull=True)  # kept
        # Away: marked so by the stopping server, or, when it exited first, its heartbeat
        # late (README "Ranked play": at most PARLOUR_QUEUE_PRESENT_SECONDS).
        for _ in range(10 * (settings.PARLOUR_QUEUE_PRESENT_SECONDS + 3)):
            entry.refresh_from_db()
            if not queue_actions.present([entry], timezone.now()):
                break
            page.wait_for_timeout(100)
        # Nobody is paired with Ann while she is away.
        assert in_thread(queue_actions.join_queue, bob, "ludo", 2).match_id is None
        later = timezone.now() + timedelta(seconds=settings.PARLOUR_QUEUE_PRESENT_SECONDS + 1)
        assert in_thread(queue_actions.pair_queues, now=later) == []
        assert not Match.objects.exists()

        with django_db_blocker.unblock():
            server, _ = services.start_daphne("daphne-queue-blip-2", port=port)
        # The page reconnects by itself; its return pairs the queue at once.
        page.wait_for_url(re.compile(r"/m/[a-z0-9]+/$"), timeout=20_000)
        match = Match.objects.get()
        assert {s.user_id for s in match.seats.all()} == {ann.pk, bob.pk} and match.rated
    finally:
        server.stop()


class Severable:
    """A TCP proxy on a free port in front of ``target`` (host, port) whose
    connections can be cut at once (``sever``): both ends see the connection
    lost, as in a network blip, not a WebSocket close."""

    def __init__(self, target):
        self.target, self.conns, self.lock = target, [], threading.Lock()
        self.up = threading.Event()  # cleared: new connections are cut at once (the network is down)
        self.up.set()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up.is_set():
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src, dst):
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def sever(self):
        """Cut every connection (the network down: ``up`` cleared until set again)."""
        self.up.clear()
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def close(self):
        self.listener.close()
        self.sever()


def test_a_severed_connection_keeps_the_queue_entry_away_until_the_page_is_back(page, live_server_url):
    host, port = live_server_url.rsplit("//", 1)[1].rsplit(":", 1)
    proxy = Severable((host, int(port)))
    base = f"http://127.0.0.1:{proxy.port}"
    try:
        ann, bob = in_thread(make_user, "cut_ann"), in_thread(make_user, "cut_bob")
        log_in(page.context, ann, base)
        page.goto(f"{base}/play/")
        page.get_by_role("button", name="Ludo, 2 players").click()
        expect(page.locator("#queue-count")).to_contain_text("1 player waiting", timeout=20_000)
        for _ in range(100):  # the queue socket is open
            if QueueEntry.objects.filter(user=ann, socket_seen_at__isnull=False).exists():
                break
            page.wait_for_timeout(100)
        page.wait_for_timeout(500)

        proxy.sever()  # the page's connections are lost (1006 for the server), not closed
        entry = QueueEntry.objects.get(user=ann)
        for _ in range(50):
            entry.refresh_from_db()
            if entry.away_since is not None:
                break
            page.wait_for_timeout(100)
        assert entry.away_since is not None and entry.match_id is None  # kept, and away at once
        # Bob joins while the page is cut off: not paired with Ann. The network comes
        # back, the page reconnects by itself, and its return pairs them.
        assert in_thread(queue_actions.join_queue, bob, "ludo", 2).match_id is None
        assert not Match.objects.exists()
        proxy.up.set()
        page.wait_for_url(re.compile(r"/m/[a-z0-9]+/$"), timeout=20_000)
        match = Match.objects.get()
        assert {s.user_id for s in match.seats.all()} == {ann.pk, bob.pk}
    finally:
        proxy.close()
