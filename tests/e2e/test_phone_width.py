"""Nothing on any page is wider than a phone's screen (390 px): the page
scrolls down, never sideways. A wide table scrolls inside its own box, and
the history's rows stack as cards. Each page is opened signed in, with
matches, ratings, an arena and a room to show."""

from datetime import timedelta

from django.utils import timezone

from games import actions
from tests.e2e.test_live_play import in_thread, log_in
from tests.factories import every_seat_moves, ludo_state, make_match, make_user, start_room_match

#: What overflows: the document's width past the viewport, and the widest element that sticks out.
OVERFLOW = """() => {
  const w = document.documentElement.clientWidth;
  let worst = null;
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > w + 1 && getComputedStyle(el).position !== 'fixed' && !el.closest('[hidden]')) {
      let inScroller = false;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') { inScroller = true; break; }
      }
      if (!inScroller && (!worst || r.right > worst[1])) {
        worst = [el.tagName + '.' + el.className, Math.round(r.right)];
      }
    }
  }
  return [document.documentElement.scrollWidth, w, worst];
}"""


def _world():
    from arenas.models import Arena, ArenaPlayer

    ada = make_user()
    finished = []
    for kind in ("ludo", "roundabout", "rondo"):
        finished.append(make_match(kind, ("human", "easy"), users=[ada]))
    over = make_match("ludo", ("human", "human"), users=[ada])
    actions.leave_match(over.public_id, over.seats.get(index=1).user)  # ada wins: a replay
    room = start_room_match(ada, [make_user()])
    rated = every_seat_moves(make_match(seats=("human", "human"), users=[ada], state=ludo_state(),
                                        rated=True))
    arena = Arena.objects.create(name="Ludo evening", kind="ludo", seats=4, minutes=60,
                                 starts_at=timezone.now() - timedelta(minutes=5))
    ArenaPlayer.objects.create(arena=arena, user=ada, joined_at=timezone.now(), rating=1500, points=3,
                               wins=1, reached_at=timezone.now(), sequence="3")
    return ada, finished, over, rated, arena, room


def test_no_page_is_wider_than_a_phone(browser, live_server_url):
    ada, finished, over, rated, arena, room = in_thread(_world)
    pages = ["/", "/play/", "/rules/", "/rules/ludo/", "/rules/roundabout/", "/rules/rondo/", "/about/",
             "/arenas/", f"/arenas/{arena.pk}/", "/leaderboard/", "/leaderboard/ludo/",
             f"/u/{ada.username}/", f"/u/{ada.username}/matches/", "/matches/",
             "/challenges/incoming/", "/password/change/"]
    pages += [f"/m/{m.public_id}/" for m in (*finished, rated)]
    pages += [f"/m/{over.public_id}/", f"/m/{over.public_id}/replay/", f"/m/{room.public_id}/"]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    log_in(context, ada, live_server_url)
    page = context.new_page()
    wide = {}
    for path in pages:
        page.goto(f"{live_server_url}{path}")
        page.wait_for_load_state("load")
        scroll, width, worst = page.evaluate(OVERFLOW)
        if scroll > width or worst:
            wide[path] = (scroll, worst)
    anonymous = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    for path in ("/signup/", "/login/", "/password/reset/", "/api/"):
        anonymous.goto(f"{live_server_url}{path}")
        scroll, width, worst = anonymous.evaluate(OVERFLOW)
        if scroll > width or worst:
            wide[path] = (scroll, worst)
    assert wide == {}
    # Rondo's tabs, a player's four of them, on one row.
    page.goto(f"{live_server_url}/m/{finished[2].public_id}/")
    tops = page.evaluate("[...document.querySelectorAll('.play-tabs [role=tab]')]"
                         ".map(t => t.getBoundingClientRect().top)")
    assert len(tops) == 4 and len(set(tops)) == 1, tops
    context.close()
