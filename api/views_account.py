"""``GET /api/account``: who the token is."""

from __future__ import annotations

from ninja import Router

from api import auth, limits

router = Router()


@router.get("/account", auth=auth.read)
def account(request):
    """``{"id": int, "username": str, "bot": bool, "scopes": [str]}``."""
    token = request.auth
    limits.check_call(token)
    return {"id": token.user.pk, "username": token.user.username, "bot": token.user.is_bot,
            "scopes": sorted(token.scope_set)}
