"""The ceiling for ``make bench-live``: a bare ``websockets`` broadcast server.

No Django, no database, no Redis, no templates: a socket joins the room named
in its path (``/ws/match/<room>/``) as the seat named by its ``sessionid``
cookie. A move from the seat to move bumps the room's version and passes the
turn on; the server then sends each socket one frame: the public part and
that seat's controls (the seat to move gets a move button), as Parlour sends
one WebSocket frame per socket per change, padded to Parlour's sizes
(``--public-bytes``; ``--seat-bytes``, the controls part), so
``live_client.py`` drives both. (Parlour sends the controls only to the
seats whose controls changed; here every socket gets them.)

Run: ``python -m benchmarks.live_ceiling --port PORT``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from http.cookies import SimpleCookie

from websockets.asyncio.server import broadcast, serve
from websockets.exceptions import ConnectionClosed

SEATS = 4


class Room:
    def __init__(self):
        self.version = 1
        self.turn = 0
        self.sockets: dict[int, object] = {}


class Frames:
    """Frames padded to the sizes Parlour's frames have."""

    def __init__(self, public_bytes: int, seat_bytes: int):
        self.public_pad = "x" * max(0, public_bytes - 120)
        self.seat_pad = "x" * max(0, seat_bytes - 200)

    @staticmethod
    def version(v: int, kind: str) -> str:
        return f'<div id="frame-version" data-version="{v}" data-kind="{kind}" hidden></div>'

    def public(self, room: Room, kind: str = "update") -> str:
        return f'<div id="board">{self.public_pad}</div>' + self.version(room.version, kind)

    def seat(self, room: Room, seat: int, kind: str = "update") -> str:
        if seat == room.turn:
            body = (f'<div id="controls" data-to-move="{room.turn}"><form ws-send>'
                    '<input type="hidden" name="move" value="roll"></form>')
        else:
            body = f'<div id="controls" data-to-move="{room.turn}"><p>Waiting.</p>'
        return body + self.seat_pad + "</div>" + self.version(room.version, kind)

    def error(self, room: Room, message: str) -> str:
        return f'<div id="match-error">{message}</div>' + self.version(room.version, "error")


def seat_of(ws) -> int | None:
    cookie = SimpleCookie(ws.request.headers.get("Cookie", ""))
    try:
        seat = int(cookie["sessionid"].value)
    except (KeyError, ValueError):
        return None
    return seat if 0 <= seat < SEATS else None


def make_handler(frames: Frames):
    rooms: dict[str, Room] = {}

    async def handler(ws):
        parts = ws.request.path.strip("/").split("/")
        seat = seat_of(ws)
        if len(parts) != 3 or parts[:2] != ["ws", "match"] or seat is None:
            await ws.close(4004)
            return
        room = rooms.setdefault(parts[2], Room())
        room.sockets[seat] = ws
        try:
            await ws.send(frames.public(room, "snapshot") + frames.seat(room, seat, "snapshot"))
            async for raw in ws:
                data = json.loads(raw)
                if data.get("type") == "sync":
                    await ws.send(frames.public(room, "snapshot") + frames.seat(room, seat, "snapshot"))
                    continue
                if str(data.get("version")) != str(room.version) or seat != room.turn:
                    await ws.send(frames.error(room, "The match has moved on."))
                    continue
                room.version += 1
                room.turn = (room.turn + 1) % SEATS
                public = frames.public(room)
                for s, other in room.sockets.items():
                    broadcast([other], public + frames.seat(room, s))
        except ConnectionClosed:
            pass
        finally:
            if room.sockets.get(seat) is ws:
                del room.sockets[seat]

    return handler


async def main_async(port: int, public_bytes: int, seat_bytes: int) -> None:
    frames = Frames(public_bytes, seat_bytes)
    async with serve(make_handler(frames), "127.0.0.1", port, compression=None, max_size=4096,
                     ping_interval=None):
        await asyncio.get_running_loop().create_future()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--public-bytes", type=int, default=8000)
    parser.add_argument("--seat-bytes", type=int, default=600)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.port, args.public_bytes, args.seat_bytes))


if __name__ == "__main__":
    main()
