import os

from playwright.sync_api import expect

from matchmaking import actions as queue_actions
from matchmaking import rooms
from tests.e2e.test_live_play import in_thread, live, log_in
from tests.factories import ludo_state, make_match, make_user

SHOTS = "/work/shots/s20"
SIZES = ((1280, 800), (390, 844))


def _contexts(browser):
    for scheme in ("light", "dark"):
        for w, h in SIZES:
            yield f"{w}-{scheme}", browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme)


def _setup():
    ann = make_user("shot_ann")
    solo = make_match(seats=("human", "normal"), users=[ann])
    queue_actions.join_queue(ann, "ludo", 2)
    host = make_user("shot_host")
    room = rooms.do_create_room(host, "roundabout", 3, {})
    _inv, token = rooms.do_create_invite(room.code, host)
    bob, cat = make_user("shot_bob"), make_user("shot_cat")
    match = make_match(seats=("human", "human"), users=[bob, cat], state=ludo_state())
    return ann, solo, token, bob, match


def test_shots(browser, live_server_url):
    ann, solo, token, bob, match = in_thread(_setup)
    for name, ctx in _contexts(browser):
        page = ctx.new_page()
        page.goto(f"{live_server_url}/rooms/join/{token}/")
        page.screenshot(path=os.path.join(SHOTS, f"join-anon-{name}.png"))
        log_in(ctx, ann, live_server_url)
        in_thread(queue_actions.join_queue, ann, "ludo", 2)
        page.goto(f"{live_server_url}/play/")
        expect(page.locator(".queue-held")).to_be_visible()
        page.locator("#queue").screenshot(path=os.path.join(SHOTS, f"queue-held-{name}.png"))
        ctx.close()
    for name, ctx in _contexts(browser):
        log_in(ctx, bob, live_server_url)
        page = ctx.new_page()
        page.goto(f"{live_server_url}/m/{match.public_id}/")
        live(page)
        page.locator("#tab-device").click()
        page.screenshot(path=os.path.join(SHOTS, f"settings-{name}.png"))
        ctx.set_offline(True)
        expect(page.locator("#connection-status")).to_have_text("Offline")
        page.screenshot(path=os.path.join(SHOTS, f"offline-{name}.png"))
        ctx.set_offline(False)
        ctx.close()
