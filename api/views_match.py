"""A match from code: its stream (``GET /api/match/<id>/stream``) and a move
(``POST /api/match/<id>/move``), docs/api.md. Thin: parse, check the
token's limits, call one action, answer."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.http import StreamingHttpResponse
from ninja import Router, Schema
from pydantic import Field, StrictInt, StrictStr

from api import auth, limits, streams
from api.errors import ApiError
from games import actions, sites, time_controls
from games.engine import EngineError
from games.models import ComputerLevel, Match

router = Router()


def _not_found() -> ApiError:
    return ApiError(404, "not_found", "There is no such match.")


@router.get("/match/{public_id}/stream", auth=auth.read)
async def match_stream(request, public_id: str):
    """NDJSON: the match as the token's account sees it, then each change
    (``api.streams.MatchStream``). 404 for a match it may not see; 429 past
    the token's stream limits."""
    token = request.auth
    await limits.acheck_call(token)
    opening = await streams.read(streams.open_match, public_id, token.user)
    if opening is None:
        raise _not_found()
    slot = await limits.streams.open(token.pk, opening["public_id"], streams.new_slot_id())
    return await ndjson(streams.MatchStream(token, slot, opening).lines())


@router.get("/stream/events", auth=auth.read)
async def event_stream(request):
    """NDJSON: the account's events (``api.streams.EventStream``). 429 past
    the token's stream limits (one event stream per token)."""
    token = request.auth
    await limits.acheck_call(token)
    slot = await limits.streams.open(token.pk, "events", streams.new_slot_id())
    return await ndjson(streams.EventStream(token, slot).lines())


async def ndjson(lines) -> StreamingHttpResponse:
    """The streaming response of ``lines``. The request's own thread gives
    back its database connection first (the token's lookup used it): a
    stream may stay open for hours and reads on the streams' threads."""
    await sync_to_async(close_old_connections)()
    response = StreamingHttpResponse(lines, content_type=streams.CONTENT_TYPE)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


class MoveIn(Schema):
    move: StrictStr | list[StrictStr]
    version: StrictInt


@router.post("/match/{public_id}/move", auth=auth.play)
def move(request, public_id: str, body: MoveIn):
    """Play ``body.move`` (the game's notation; a list: a Rondo chain) for
    the token's seat, made against ``body.version``. ``{"version": int}``,
    the match's version after it."""
    limits.check_move(request.auth)
    try:
        match = actions.play_move(public_id, request.auth.user, body.move, body.version)
    except actions.ActionError as e:
        raise action_error(e, public_id) from None
    return {"version": match.version}


def action_error(e: actions.ActionError, public_id: str) -> ApiError:
    """The API's error for a refused match action (docs/api.md "Errors")."""
    if isinstance(e, actions.MatchNotFound):
        return _not_found()
    if isinstance(e, actions.StaleVersion):
        return ApiError(409, "stale_version", e.message, extra={"version": e.current})
    if isinstance(e, actions.NotYourTurn):
        return ApiError(409, "not_your_turn", e.message)
    if isinstance(e, actions.BadMove):
        return ApiError(422, "bad_move", e.message)
    if isinstance(e, actions.NoSeat):
        # A private match it is not in does not exist for it (the page's 404).
        if not Match.objects.filter(public_id=str(public_id)[:16], is_public=True).exists():
            return _not_found()
        return ApiError(403, "not_a_player", e.message)
    return ApiError(409, "not_allowed", e.message)



class ComputerIn(Schema):
    game: StrictStr
    players: StrictInt = Field(2, ge=2, le=4)
    turn_seconds: StrictInt | None = None
    level: StrictStr = ComputerLevel.NORMAL


@router.post("/match/computer", auth=auth.play)
def computer(request, body: ComputerIn):
    """A match of the token's account (seat 0) against ``players - 1``
    computers of ``level``, unrated, started at once; ``{"match": id}``.
    The play page's limit on matches against computers holds (409
    ``not_allowed``)."""
    limits.check_call(request.auth)
    if body.game not in sites.kinds() or body.level not in ComputerLevel.values \
            or body.turn_seconds not in (None, *time_controls.LIVE_SECONDS):
        raise ApiError(400, "bad_request",
                       f"game: one of {', '.join(sites.kinds())}; level: one of "
                       f"{', '.join(ComputerLevel.values)}; turn_seconds: one of "
                       f"{', '.join(map(str, time_controls.LIVE_SECONDS))}, or none for the game's own.")
    try:
        match = actions.start_computer_match(request.auth.user, body.game, [body.level] * (body.players - 1),
                                             turn_seconds=body.turn_seconds)
    except EngineError as e:  # a player count the game does not take
        raise ApiError(400, "bad_request", str(e)) from None
    except actions.ActionError as e:
        raise ApiError(409, "not_allowed", e.message) from None
    return {"match": match.public_id}
