"""The WebSocket refusal close codes and what each page says for them: the
one table of both (README "Decisions").

The consumers (match, room, queue) close with these codes; the pages say
why and do not reconnect. Each page that opens a socket renders its part of
``REFUSALS`` as a ``<script type="application/json" id="close-codes">``
data block (``{% close_codes "match" %}``, accounts/templatetags/close_codes.py),
which static/js/parlour.js reads for the page's script.

The block also names ``CLOSE_TRY_AGAIN``, the one 4xxx code that is not a
refusal: ``{"refusals": {code: text}, "try_again": 4013}``. The codes any
socket closes with, whatever its page (4008, 4009, 4013, 4029), are the
platform's (core/sockets/close_codes.py); this module names them too.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.sockets.close_codes import CLOSE_FLOODING, CLOSE_TOO_LARGE, CLOSE_TOO_MANY_SOCKETS, CLOSE_TRY_AGAIN

#: Every code, the platform's (core/sockets/close_codes.py: 4008, 4009, 4013,
#: 4029) and the apps' (below), and the table.
__all__ = ["CLOSE_BANNED", "CLOSE_FLOODING", "CLOSE_NOT_ALLOWED", "CLOSE_NOT_FOUND", "CLOSE_SIGNED_OUT",
           "CLOSE_TOO_LARGE", "CLOSE_TOO_MANY_SOCKETS", "CLOSE_TRY_AGAIN", "REFUSALS"]

#: 4001 not signed in (queue), or no longer in a room: left it, removed from
#: it, or the room closed.
CLOSE_NOT_ALLOWED = 4001
#: 4002 signed out: the socket's session ended after it opened (logged out,
#: the account's password changed or reset elsewhere, the session expired:
#: accounts.sockets, "Sessions").
CLOSE_SIGNED_OUT = 4002
#: 4003 banned (at connect, or when a ban reaches the user's group:
#: accounts.sockets.close_user_sockets).
CLOSE_BANNED = 4003
#: 4004 no such match or room, or one that is private to others (one answer
#: for both, as the pages' 404, so nobody can probe which exist).
CLOSE_NOT_FOUND = 4004

_BANNED = _("You are banned from playing.")
_SIGNED_OUT = _("You are no longer logged in: you logged out, or the password was changed. "
                "Log in again to continue.")
_FLOODING = _("Disconnected: too many messages. Reload the page to continue.")
_TOO_LARGE = _("Disconnected: a message was too large. Reload the page to continue.")
_TOO_MANY_SOCKETS = _("Disconnected: too many Parlour pages are open at once, so the oldest closed. "
                      "Close some, then reload this page.")

#: What each page's socket shows when it is refused (lazy: in the page's language): page ("match", "room",
#: "queue") -> close code -> text. A code a page does not list gets that
#: page's own fallback (static/js/match.js, room.js); the queue panel reacts
#: only to the codes it lists.
REFUSALS: dict[str, dict[int, str]] = {
    "match": {
        CLOSE_SIGNED_OUT: _SIGNED_OUT,
        CLOSE_BANNED: _BANNED,
        CLOSE_NOT_FOUND: _("There is no such match, or it is private."),
        CLOSE_FLOODING: _FLOODING,
        CLOSE_TOO_LARGE: _TOO_LARGE,
        CLOSE_TOO_MANY_SOCKETS: _TOO_MANY_SOCKETS,
    },
    "room": {
        CLOSE_NOT_ALLOWED: _("You are no longer in this room."),
        CLOSE_SIGNED_OUT: _SIGNED_OUT,
        CLOSE_BANNED: _BANNED,
        CLOSE_NOT_FOUND: _("There is no such room, or you are not in it."),
        CLOSE_FLOODING: _FLOODING,
        CLOSE_TOO_LARGE: _TOO_LARGE,
        CLOSE_TOO_MANY_SOCKETS: _TOO_MANY_SOCKETS,
    },
    "queue": {
        CLOSE_SIGNED_OUT: _SIGNED_OUT,
        CLOSE_BANNED: _BANNED,
        CLOSE_FLOODING: _FLOODING,
        CLOSE_TOO_LARGE: _TOO_LARGE,
        CLOSE_TOO_MANY_SOCKETS: _("Disconnected: too many Parlour pages are open at once, so the oldest "
                                  "closed (and left the queue). Close some, then reload this page."),
    },
}
