"""The HTTP/1.1 client of ``make bench-api`` (benchmarks/api_bots.py): asyncio
streams and the standard library, so that hundreds of bots share one
driver process cheaply. Two things only:

- ``open_stream``: a GET of an NDJSON stream, its body (chunked or read to
  the connection's end) yielded as one dict per line, keep-alive lines skipped;
- ``Connection.post``: a JSON POST on a keep-alive connection of its own,
  opened again when the server closes it.

The token travels in the ``Authorization`` header only (docs/api.md "Tokens").
"""

from __future__ import annotations

import asyncio
import contextlib
import json


class RateLimited(Exception):
    """A 429 answer: ``seconds`` from its ``Retry-After``."""

    def __init__(self, seconds: float):
        super().__init__(f"rate limited for {seconds} s")
        self.seconds = seconds


class HttpError(Exception):
    pass


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionResetError("the server closed the connection")
    parts = status_line.decode("latin-1").split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise HttpError(f"not an HTTP answer: {status_line!r}")
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if headers.get("transfer-encoding", "").lower() == "chunked":
        return b"".join([chunk async for chunk in _chunks(reader)])
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    return await reader.read()


async def _chunks(reader: asyncio.StreamReader):
    while True:
        size = int((await reader.readline()).split(b";", 1)[0].strip() or b"0", 16)
        if size == 0:
            await reader.readline()  # the blank line after the last chunk (no trailers)
            return
        yield await reader.readexactly(size)
        await reader.readexactly(2)


def _request(method: str, host: str, port: int, path: str, token: str, body: bytes | None,
             accept: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", f"Authorization: Bearer {token}",
             f"Accept: {accept}"]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


def _retry_after(headers: dict[str, str]) -> float:
    try:
        return max(0.0, float(headers.get("retry-after", "1")))
    except ValueError:
        return 1.0


@contextlib.asynccontextmanager
async def open_stream(host: str, port: int, path: str, token: str):
    """``async with open_stream(...) as lines: async for line in lines``: the
    NDJSON stream at ``path``. Raises RateLimited (429) or HttpError (any
    other refusal) on opening."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(_request("GET", host, port, path, token, None, "application/x-ndjson"))
        status, headers = await _read_head(reader)
        if status == 429:
            raise RateLimited(_retry_after(headers))
        if status != 200:
            raise HttpError(f"GET {path}: {status} {(await _read_body(reader, headers))[:300]!r}")
        yield _lines(reader, headers)
    finally:
        writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await writer.wait_closed()


async def _lines(reader: asyncio.StreamReader, headers: dict[str, str]):
    chunked = headers.get("transfer-encoding", "").lower() == "chunked"
    pieces = _chunks(reader) if chunked else _raw(reader)
    buffer = b""
    async for piece in pieces:
        buffer += piece
        *complete, buffer = buffer.split(b"\n")
        for line in complete:
            if line.strip():
                yield json.loads(line)


async def _raw(reader: asyncio.StreamReader):
    while piece := await reader.read(65536):
        yield piece


class Connection:
    """A keep-alive connection for one bot's POSTs."""

    def __init__(self, host: str, port: int, token: str):
        self.host, self.port, self.token = host, port, token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict) -> tuple[int, dict]:
        """POST ``body`` as JSON: (status, the answer's JSON). Raises
        RateLimited on a 429."""
        data = json.dumps(body).encode()
        for attempt in range(2):  # once more on a connection the server had closed
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                self.writer.write(_request("POST", self.host, self.port, path, self.token, data,
                                           "application/json"))
                status, headers = await _read_head(self.reader)
                raw = await _read_body(self.reader, headers)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt:
                    raise
                continue
            if headers.get("connection", "").lower() == "close":
                await self.close()
            if status == 429:
                raise RateLimited(_retry_after(headers))
            return status, (json.loads(raw) if raw else {})
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await self.writer.wait_closed()
        self.reader = self.writer = None
