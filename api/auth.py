"""Bearer tokens (``Authorization: Bearer plr_...``), checked by
``accounts.tokens.authenticate``. Never from a URL's query string: a token
in a URL ends up in logs (docs/api.md "Tokens")."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from ninja.security import HttpBearer

from accounts import tokens
from api.errors import ApiError


class TokenAuth(HttpBearer):
    """The token's ``ApiToken`` (its ``user`` loaded) becomes ``request.auth``.
    A missing, unknown or revoked token: 401 ``unauthorized``. ``scope``:
    the scope an operation needs; a token without it: 403 ``missing_scope``.
    A banned account's token: 403 ``account_banned``."""

    def __init__(self, scope: str = "read"):
        super().__init__()
        self.scope = scope

    async def __call__(self, request):
        # HttpBearer.__call__ reads the header and calls authenticate; it is
        # sync, so it runs here and authenticate's query runs in a thread.
        header = request.headers.get(self.header)
        if not header:
            return None
        parts = header.split(" ")
        if len(parts) != 2 or parts[0].lower() != self.openapi_scheme.lower():
            return None
        return await self.authenticate(request, parts[1])

    async def authenticate(self, request, token):
        found = await sync_to_async(tokens.authenticate)(token)
        if found is None:
            return None
        if found.user.is_banned:
            raise ApiError(403, "account_banned", "This account is banned.")
        if self.scope not in found.scope_set:
            raise ApiError(403, "missing_scope", f"This token does not have the {self.scope!r} scope.")
        return found


read = TokenAuth("read")
play = TokenAuth("play")
