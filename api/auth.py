"""Bearer tokens (``Authorization: Bearer plr_...``), checked by
``accounts.tokens.authenticate``. Never from a URL's query string: a token
in a URL ends up in logs (docs/api.md "Tokens")."""

from __future__ import annotations

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

    # Sync, so a sync view (a move) checks its token on its own thread with no
    # hop to the event loop and back; django-ninja runs it on a thread for an
    # async view (the streams). HttpBearer.__call__ reads the header.
    def authenticate(self, request, token):
        found = tokens.authenticate(token)
        if found is None:
            return None
        if found.user.is_banned:
            raise ApiError(403, "account_banned", "This account is banned.")
        if self.scope not in found.scope_set:
            raise ApiError(403, "missing_scope", f"This token does not have the {self.scope!r} scope.")
        return found


read = TokenAuth("read")
play = TokenAuth("play")
