"""The close codes the platform's sockets close with, whatever their page:
a frame over the size limit, a flood, one socket over the person's cap, and
"try again later". The table of every refusal code with what each page says
for it is accounts/close_codes.py, which names these too.
"""

from __future__ import annotations

#: 4008 too many messages (``core.sockets.limits.message_budget``).
CLOSE_FLOODING = 4008
#: 4009 a frame over ``settings.PARLOUR_WS_MAX_FRAME`` bytes (4 KB).
CLOSE_TOO_LARGE = 4009
#: 4029 this person opened more sockets than the cap allows; this one, their
#: oldest, closed (core/sockets/caps.py, "Sockets per person").
CLOSE_TOO_MANY_SOCKETS = 4029

#: 4013 "try again later": the server lost its database connection twice
#: over for this socket's request. Not a refusal: the pages reconnect as after
#: any drop, and catch up. (The standard's 1013 cannot be sent: autobahn, under
#: daphne, sends only 1000 and 3000-4999, and closes with 1011 instead.)
CLOSE_TRY_AGAIN = 4013
