"""The API's calls that act as the account (scope ``play``) besides moves
(docs/api.md "Calls"): leave, chat, rematches, challenges. Thin: parse,
check the token's rate, call one action, answer; a refusal is the
action's own words as a JSON error (``api.errors``)."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from ninja import Router, Schema
from pydantic import StrictBool, StrictInt, StrictStr

from api import auth, limits
from api.errors import ApiError
from api.views_match import action_error
from core.errors import Refused
from games import actions, chat, push
from games.models import Match
from matchmaking import together
from matchmaking.challenges import actions as challenges
from matchmaking.rematch import actions as rematches

router = Router()


@router.post("/match/{public_id}/leave", auth=auth.play)
def leave(request, public_id: str):
    """Leave the match (docs/rules.md "Leaving"); ``{"version": int}``."""
    limits.check_call(request.auth)
    try:
        match = actions.leave_match(public_id, request.auth.user)
    except actions.ActionError as e:
        raise action_error(e, public_id) from None
    return {"version": match.version}


class ChatIn(Schema):
    id: StrictStr


def _chat_seat(public_id: str, user) -> None:
    """Raises the API's error unless ``user`` has a seat in match ``public_id``."""
    match = Match.objects.filter(public_id=str(public_id)[:16]).only("id", "is_public").first()
    if match is None:
        raise ApiError(404, "not_found", "There is no such match.")
    if not match.seats.filter(user_id=user.pk).exists():
        if not match.is_public:
            raise ApiError(404, "not_found", "There is no such match.")
        raise ApiError(403, "not_a_player", "Only the players of this match can chat.")


@router.post("/match/{public_id}/chat", auth=auth.play)
async def send_chat(request, public_id: str, body: ChatIn):
    """A preset chat line (``games.chat.PRESETS``: its id) to everyone
    watching the match, as the match page sends it; ``{}``."""
    user = request.auth.user
    await limits.acheck_call(request.auth)
    if body.id not in chat.PRESETS:
        raise ApiError(400, "bad_request", "Only the preset messages can be sent: "
                                           + ", ".join(chat.PRESETS))
    await sync_to_async(_chat_seat)(public_id, user)
    try:
        await chat.check_chat(user, body.id)
    except Refused as e:  # the chat rate (games.chat.CHAT_RATE)
        raise ApiError(429, "rate_limited", e.message, headers={"Retry-After": "10"}) from None
    await push.send_chat(str(public_id)[:16], chat.chat_line(user.username, body.id), user.pk, body.id,
                         user.username)
    return {}


def _rematch_answer(offer) -> dict:
    started = together.started_rematch(offer.match)
    return {"offer": offer.pk, "status": offer.status, "match": started.public_id if started else None}


def _refused(e: Refused, not_found: tuple[str, ...]) -> ApiError:
    if e.message in not_found:
        return ApiError(404, "not_found", e.message)
    return ApiError(409, "not_allowed", e.message)


@router.post("/match/{public_id}/rematch", auth=auth.play)
def rematch(request, public_id: str):
    """Offer a rematch of the ended match (accepting an open offer):
    ``{"offer": id, "status": "open|started|...", "match": <the new match's id or null>}``."""
    limits.check_call(request.auth)
    try:
        return _rematch_answer(rematches.do_offer(public_id, request.auth.user))
    except Refused as e:
        raise _refused(e, (rematches.NO_SUCH,)) from None


def _answer_rematch(request, public_id: str, accept: bool) -> dict:
    limits.check_call(request.auth)
    try:
        return _rematch_answer(rematches.do_answer(public_id, request.auth.user, accept))
    except Refused as e:
        raise _refused(e, (rematches.NO_SUCH,)) from None


@router.post("/match/{public_id}/rematch/accept", auth=auth.play)
def rematch_accept(request, public_id: str):
    return _answer_rematch(request, public_id, True)


@router.post("/match/{public_id}/rematch/decline", auth=auth.play)
def rematch_decline(request, public_id: str):
    return _answer_rematch(request, public_id, False)


class ChallengeIn(Schema):
    game: StrictStr
    turn_seconds: StrictInt
    rated: StrictBool = False
    public: StrictBool = True
    options: dict = {}


_NO_PLAYER = ("There is no such player.", challenges.NO_SUCH)


@router.post("/challenge/{username}", auth=auth.play)
def challenge(request, username: str, body: ChallengeIn):
    """Challenge the player ``username`` (the profile's challenge, the same
    refusals: blocks, a confirmed e-mail address, the turn-based limit);
    ``{"id": int}``. ``rated``: the match moves both players' ratings (a
    rated challenge is public: rated and not public is refused, as on the
    profile's form). Challenges take the game's own options: any ``options``
    are refused."""
    limits.check_call(request.auth)
    if body.options:
        raise ApiError(400, "bad_request", "Challenges use the game's own options: send no options.")
    try:
        made = challenges.do_challenge(request.auth.user, username, body.game, body.turn_seconds,
                                       is_public=body.public, rated=body.rated)
    except Refused as e:
        raise _refused(e, _NO_PLAYER) from None
    return {"id": made.pk}


def _challenge_id(value: str) -> int:
    if not value.isdigit() or len(value) > 18:
        raise ApiError(404, "not_found", challenges.NO_SUCH)
    return int(value)


@router.post("/challenge/{challenge_id}/accept", auth=auth.play)
def challenge_accept(request, challenge_id: str):
    """Accept a challenge to this account: the match starts; ``{"match": id}``."""
    limits.check_call(request.auth)
    try:
        answered = challenges.do_answer(_challenge_id(challenge_id), request.auth.user, True)
    except Refused as e:
        raise _refused(e, _NO_PLAYER) from None
    return {"match": answered.match.public_id}


@router.post("/challenge/{challenge_id}/decline", auth=auth.play)
def challenge_decline(request, challenge_id: str):
    limits.check_call(request.auth)
    try:
        challenges.do_answer(_challenge_id(challenge_id), request.auth.user, False)
    except Refused as e:
        raise _refused(e, _NO_PLAYER) from None
    return {}


@router.post("/challenge/{challenge_id}/cancel", auth=auth.play)
def challenge_cancel(request, challenge_id: str):
    limits.check_call(request.auth)
    try:
        challenges.do_cancel(_challenge_id(challenge_id), request.auth.user)
    except Refused as e:
        raise _refused(e, _NO_PLAYER) from None
    return {}
