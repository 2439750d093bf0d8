"""The user socket, ``/ws/notify/``: one per page of a signed-in person
(README "Notifications"). Thin and async: it joins ``notify.notify_group``
and forwards what notifications/notify.py sends there. Like every socket it
also joins ``accounts.sockets.user_group`` and its session's group
(``take_slot``), so log-out and a password change close it; a ban's
``user.banned`` there it leaves to the ban's own note, which closes it once
the reason is shown.

Client -> server: ``{"type": "watch", "panels": ["your-matches"], "match":
"<public id>"}`` (the page shows those live panels: the socket sends each
panel's rows now, ``{"type": "panel", "name": str, "html": str}``, and from
then on their row updates; ``match``, optional: the page is that match's
page, whose own socket shows its turns, so the notes about that match are
not sent here); nothing else. A bad frame (not JSON, not an object, an
unknown type, a panel list that is not a list of at most ``MAX_PANELS``
registered names, a match that is not a short string) gets ``{"type":
"error", "message": str}`` and changes nothing. A socket that does not watch
Your matches gets ``{"type": "turn-over", "match": str}`` instead of a row
that ends the person's turn in a match (``turn_over``, games/your_matches.py;
not the page's own match), so the page takes that turn's toast away.
Every socket gets each count (``{"type": "count", "name": str, "n": int}``:
the turn-based matches waiting for the person, notifications/notify.py).
Nothing a client sends names a user: the group comes from the session.

Close codes (accounts/close_codes.py): 4001 not signed in; 4002 signed out
(the session logged out, or the password changed elsewhere: accounts.sockets,
"Sessions"); 4003 banned (at connect, or after the note of a ban:
``ends_session``); 4008 too many
messages, 4009 a frame over 4 KB, 4029 over the socket cap (core.sockets.caps,
the same caps as every socket); 4013 try again later.
"""

from __future__ import annotations

import json
import logging

from accounts import sockets
from accounts.close_codes import CLOSE_BANNED, CLOSE_NOT_ALLOWED
from notifications import notify

log = logging.getLogger(__name__)

#: The most panels one page may watch.
MAX_PANELS = 4


class NotifyConsumer(sockets.ParlourConsumer):
    not_json_message = "That message is not valid JSON."
    unknown_message = "Unknown message."

    watching: frozenset = frozenset()
    page_match: str | None = None  # the match of the page this socket serves (on_watch)
    direct_types = frozenset({notify.NOTE_EVENT, notify.ROW_EVENT, notify.COUNT_EVENT})

    async def connect(self):
        self.user = self.scope.get("user")
        refusal = None
        if self.user is None or not self.user.is_authenticated:
            refusal = CLOSE_NOT_ALLOWED
        elif getattr(self.user, "is_banned", False):
            refusal = CLOSE_BANNED
        if refusal is not None:
            await self.accept()
            await self.close(refusal)
            return
        # In the group before the handshake completes: a note sent once the
        # page's socket is open reaches it.
        async with self.holding():  # nothing is sent before the handshake is accepted
            await self.join(notify.notify_group(self.user.pk))
            await self.accept()
        await self.take_slot()

    async def on_watch(self, data):
        names, page_match = data.get("panels"), data.get("match")
        if (not isinstance(names, list) or len(names) > MAX_PANELS
                or not all(isinstance(n, str) and notify.panel(n) is not None for n in names)):
            await self.send_error("Watch a list of this site's panels.")
            return
        if page_match is not None and not (isinstance(page_match, str) and 0 < len(page_match) <= 32):
            await self.send_error("A page's match is the id in its address.")
            return
        self.page_match = page_match
        self.watching = frozenset(names)
        if self.watching:
            await self._send_panels()

    async def _send_panels(self):
        async with self.holding():  # a row that arrives meanwhile follows its panel
            for name in sorted(self.watching):
                html = await self.db(notify.panel(name), self.user)
                await self.send_json({"type": "panel", "name": name, "html": html})

    async def resync(self) -> None:
        """Row and count updates may have been lost (a Redis failover): send
        the watched panels whole, and every count."""
        await self._send_panels()
        async with self.holding():
            for name, count in sorted(notify.counts().items()):
                n = await self.db(count, self.user.pk)
                await self.send_json({"type": "count", "name": name, "n": n})

    async def user_banned(self, event):
        """Not closed here: the ban's note follows, shows the reason and closes
        this socket with 4003 (``notify_note``)."""

    async def notify_note(self, event):
        note = event["note"]
        if note.get("match") is not None and note["match"] == self.page_match:
            return  # the match page says it already (its own socket's frames)
        await self.send_json(note)
        if note.get("ends_session"):
            await self.close(CLOSE_BANNED)

    async def notify_row(self, event):
        if event["panel"] in self.watching:
            await self.send_json({"type": "row", "panel": event["panel"], "key": event["key"],
                                  "html": event["html"]})
        elif event.get("turn_over") and event["key"] != self.page_match:
            # The person's turn in that match ended: a page not watching the rows
            # takes its "your turn" toast away (the match's own page shows its turns).
            await self.send_json({"type": "turn-over", "match": event["key"]})

    async def notify_count(self, event):
        await self.send_json({"type": "count", "name": event["name"], "n": event["n"]})

    async def send_json(self, data: dict) -> None:
        await self.send(text_data=json.dumps(data, separators=(",", ":")))

    async def send_error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": message})
