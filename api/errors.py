"""The API's errors: every refusal is JSON ``{"error": {"code": str,
"message": str}}`` with a status (docs/api.md "Errors"), plus any extra
fields the code documents (e.g. ``version`` with ``stale_version``)."""

from __future__ import annotations


class ApiError(Exception):
    """A refused API request; nothing changed. ``status``: the HTTP status;
    ``code``: a stable name for programs; ``message``: for people;
    ``extra``: more fields of the error object; ``headers``: of the response
    (``Retry-After`` with 429)."""

    def __init__(self, status: int, code: str, message: str, *, extra: dict | None = None,
                 headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.extra = extra or {}
        self.headers = headers or {}

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}
