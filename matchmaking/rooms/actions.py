"""Room actions: the only writers of rooms, seats, members and invites
(STYLE habit 3: ``check_*`` validates, ``do_*`` changes in one transaction).
The invites' actions are written in ``invites`` and named here too; what
both share (the refusals, the room's lock, the checks) is in ``common``.

Rules (the Ludo rule text "Game settings and rooms"; docs/rules.md "Common"):

- A signed-in player creates a room with its settings and takes seat 0 as its
  host. The room code is a name, **not an invite**: nothing joins by code.
- Joining needs an invite: a single-use link with a random token (only its
  SHA-256 is stored), valid INVITE_LIFETIME unless revoked. Redeeming is one
  conditional UPDATE inside the room's lock, so the same link used twice, in
  sequence or at once, seats one person; expired, revoked, used and unknown
  links all get the same refusal (INVITE_REFUSED). Attempts are rate-limited
  per user and per IP address (REDEEM_RATES, in Redis: core.ratelimits).
- In the lobby the host removes players (who can never rejoin that room),
  fills or empties computer seats, and starts when every seat is taken. If
  the host leaves, the longest-seated human becomes host; a room with no
  humans closes.
- A room's match is private (members only) and never rated. When it ends the
  room goes back to its lobby with the same members and seats
  (``room_match_ended``, in the transaction that ends the match); the host
  starts the next one, and the pages of the one before link to it (``rematch.record_next``).

Every accepted change bumps ``Room.version`` and pushes the lobby after
commit (``push``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games import actions as match_actions
from games import sites, themes
from games.engine import EngineError, get_rules
from games.models import ComputerLevel, Match
from matchmaking import together
from matchmaking.models import Room, RoomMember, RoomSeat
from matchmaking.models.rooms import new_room_code
from matchmaking.rematch import actions as rematch
from matchmaking.rooms import push
from matchmaking.rooms.common import (
    NotAllowed,
    RoomError,
    RoomNotFound,
    as_int,
    changed,
    lock,
    require_host,
    require_open,
    require_user,
)

# The invite actions are room actions too: callers find every room action here
# (``rooms.actions.do_redeem_invite``); they are written in invites.py.
from matchmaking.rooms.invites import (  # noqa: F401
    INVITE_LIFETIME,
    INVITE_REFUSED,
    INVITE_VIEW_RATE,
    MAX_OPEN_INVITES,
    REDEEM_RATES,
    InvitePreview,
    InviteRefused,
    TooManyAttempts,
    check_redeem_rate,
    do_create_invite,
    do_redeem_invite,
    do_revoke_invite,
    hash_token,
    invite_preview,
    revoke_invite_as_staff,
)

IDLE_LIMIT_CHOICES = (2, 3, 4, 5)


# -- settings ----------------------------------------------------------------


def check_room_settings(kind: str, seat_count: int, computers: dict[int, str], *,
                        turn_seconds: int | None = None, idle_limit: int = 3,
                        options: dict | None = None, theme: str = themes.PLAIN) -> dict:
    """Validate a room's settings; returns them normalised as keyword
    arguments of ``Room`` (kind, turn_seconds, idle_limit, options, theme)
    plus ``seat_count`` and ``computers`` ({seat index 1..n-1: level}).

    ``turn_seconds`` is the time control (``games.time_controls.parse``):
    live seconds (``LIVE_SECONDS``) or turn-based days (``TURN_BASED_DAYS``),
    or the game's default (``sites.turn_seconds``) when None. A game with a
    fixed live turn time (``GameSite.fixed_turn_seconds``; Ludo's is always
    60 s) takes its own for any live value; turn-based days apply to every
    game. Options are checked by the game's engine (``new_match``). Raises
    RoomError with the reason.
    """
    if kind not in sites.kinds():
        raise RoomError(_("Choose a game that can be played here."))
    if seat_count not in (2, 3, 4):
        raise RoomError(_("A room has 2, 3 or 4 seats."))
    for index, level in computers.items():
        if not 1 <= index < seat_count:
            raise RoomError(_("Computer seats are seats 2 to the last; seat 1 is the host's."))
        if level not in ComputerLevel.values:
            raise RoomError(_("%(level)r is not a computer level.") % {"level": level})
    turn_seconds = together.time_control(kind, turn_seconds, RoomError)
    if idle_limit not in IDLE_LIMIT_CHOICES:
        raise RoomError(_("The idle limit is 2 to 5 missed turns."))
    rules = get_rules(kind)
    try:
        rules.new_match(seat_count, options or {})
    except (EngineError, ValueError) as e:
        raise RoomError(_("Those rule options do not work: %(reason)s") % {"reason": e}) from None
    options = {**getattr(rules, "default_options", {}), **(options or {})}
    try:
        themes.check(theme, kind)
    except ValueError as e:
        raise RoomError(str(e)) from None
    return {"kind": kind, "seat_count": seat_count, "computers": dict(computers),
            "turn_seconds": turn_seconds, "idle_limit": idle_limit, "options": options,
            "theme": theme}


def do_create_room(host, kind: str, seat_count: int, computers: dict[int, str] | None = None,
                   **settings_) -> Room:
    """A new open room hosted by ``host`` (signed in), who takes seat 0.
    Keyword settings as ``check_room_settings``. Raises RoomError."""
    require_user(host)
    checked = check_room_settings(kind, seat_count, computers or {}, **settings_)
    code = new_room_code()
    for _attempt in range(5):  # about 2^30 codes: a clash is rare, but a clash is no 500
        if not Room.objects.filter(code=code).exists():
            break
        code = new_room_code()
    with transaction.atomic():
        room = Room.objects.create(
            code=code, host=host, kind=checked["kind"], options=checked["options"],
            turn_seconds=checked["turn_seconds"], idle_limit=checked["idle_limit"],
            theme=checked["theme"],
        )
        RoomSeat.objects.bulk_create(
            RoomSeat(room=room, index=i, user=host if i == 0 else None,
                     computer_level=checked["computers"].get(i, ""))
            for i in range(checked["seat_count"])
        )
        RoomMember.objects.create(room=room, user=host)
    return room


# -- the lobby ---------------------------------------------------------------


def do_remove_player(code: str, host, user_id) -> Room:
    """The host removes a member from the lobby; they can never rejoin this
    room. Raises NotAllowed."""
    with transaction.atomic():
        room = lock(code)
        require_host(room, host)
        require_open(room)
        if as_int(user_id) == host.pk:
            raise NotAllowed(_("To leave your own room, use Leave."))
        member = RoomMember.objects.filter(room=room, user_id=as_int(user_id),
                                           status=RoomMember.Status.ACTIVE).first()
        if member is None:
            raise NotAllowed(_("That player is not in this room."))
        member.status = RoomMember.Status.REMOVED
        member.save(update_fields=["status"])
        RoomSeat.objects.filter(room=room, user_id=member.user_id).update(user=None)
        removed = member.user_id
        changed(room)
        transaction.on_commit(lambda: push.member_removed(room.code, removed))
    return room


def do_set_computer(code: str, host, index, level: str) -> Room:
    """The host puts a computer of ``level`` in empty seat ``index``, or
    empties a computer seat (``level`` ""). Raises NotAllowed."""
    with transaction.atomic():
        room = lock(code)
        require_host(room, host)
        require_open(room)
        seat = RoomSeat.objects.filter(room=room, index=as_int(index)).first()
        if seat is None:
            raise NotAllowed(_("There is no such seat."))
        if seat.user_id is not None:
            raise NotAllowed(_("A player sits there; remove them first."))
        if level and level not in ComputerLevel.values:
            raise NotAllowed(_("Choose easy, normal or strong."))
        seat.computer_level = level or ""
        seat.save(update_fields=["computer_level"])
        changed(room)
    return room


def do_leave_room(code: str, user, *, close_sockets: bool = True) -> Room:
    """A member leaves the lobby, freeing their seat. A leaving host hands the
    role to the longest-seated human; a room with no humans closes. After
    commit the member's open lobby sockets close with 4001, as a removed
    member's do, unless ``close_sockets`` is False (a ban, which closes every
    socket of theirs with 4003 itself). Raises NotAllowed."""
    with transaction.atomic():
        room = lock(code)
        member = RoomMember.objects.filter(room=room, user_id=getattr(user, "pk", None),
                                           status=RoomMember.Status.ACTIVE).first()
        if member is None:
            raise NotAllowed(_("You are not in this room."))
        member.status = RoomMember.Status.LEFT
        member.save(update_fields=["status"])
        if room.status == Room.Status.OPEN:
            RoomSeat.objects.filter(room=room, user_id=user.pk).update(user=None)
        if room.host_id == user.pk:
            room.host = _longest_seated(room)
        if not RoomMember.objects.filter(room=room, status=RoomMember.Status.ACTIVE).exists():
            room.status = Room.Status.CLOSED
            room.host = None
        changed(room)
        if close_sockets:
            left, user_id = room.code, user.pk
            transaction.on_commit(lambda: push.member_left(left, user_id))
    return room


def do_start_room(code: str, host) -> Match:
    """The host starts the room's match once every seat is taken: a private,
    unrated match with the room's settings (its time control: live or
    turn-based), started at once; after the room's first, the one before
    links to it. Raises NotAllowed: also when a player may not be seated in
    it (``together.check_seatable``: in a live rated or arena match for a
    live one, at the turn-based limit for a turn-based one), or a host who
    plays as many matches against computers as one may at once, when the
    room has a computer seat (``games.actions.check_computer_matches``)."""
    with transaction.atomic():
        room = lock(code)
        require_host(room, host)
        require_open(room)
        seats = list(RoomSeat.objects.filter(room=room).select_related("user").order_by("index"))
        if any(s.is_empty for s in seats):
            raise NotAllowed(_("Every seat must be taken before the match can start."))
        humans = [s.user for s in seats if s.user_id]
        together.claim(u.pk for u in humans)
        try:
            together.check_seatable(humans, room.turn_seconds, you=host)
        except match_actions.NotAllowed as e:
            raise NotAllowed(e.message) from None
        if any(s.computer_level for s in seats):  # its host starts a match against computers
            try:
                match_actions.check_computer_matches(host)
            except match_actions.TooManyComputerMatches as e:
                raise NotAllowed(e.message) from None
        since = dict(RoomMember.objects.filter(room=room, status=RoomMember.Status.ACTIVE)
                     .values_list("user_id", "joined_at"))
        specs = [
            match_actions.SeatSpec(user=s.user, since=since.get(s.user_id))
            if s.user_id else match_actions.SeatSpec(computer_level=s.computer_level)
            for s in seats
        ]
        match = match_actions.create_match(
            room.kind, specs, is_public=False, rated=False, host=room.host,
            turn_seconds=room.turn_seconds, idle_limit=room.idle_limit, options=room.options,
            theme=room.theme,
        )
        match = match_actions.start_match(match.public_id)
        if room.match is not None:
            rematch.record_next(room, room.match, match, host)
        room.status = Room.Status.PLAYING
        room.match = match
        changed(room)
    return match


def room_match_ended(match: Match) -> None:
    """``games.signals.match_ended``: a room whose match ``match`` ended goes
    back to its lobby, with its members in their seats (one who left the
    room during the match frees theirs); ``room.match`` stays that match, the
    lobby's last result. Runs inside the transaction that ends the match,
    after the match row's lock (nothing locks a room and then its match)."""
    if match.is_public:
        return
    room = Room.objects.select_for_update().filter(match=match, status=Room.Status.PLAYING).first()
    if room is None:
        return
    active = RoomMember.objects.filter(room=room, status=RoomMember.Status.ACTIVE).values("user_id")
    RoomSeat.objects.filter(room=room, user__isnull=False).exclude(user_id__in=active).update(user=None)
    room.status = Room.Status.OPEN
    changed(room)


# -- reading -------------------------------------------------------------------


def room_for_member(code: str, user) -> Room:
    """The room if ``user`` is an active member; else RoomNotFound / NotAllowed
    (the code alone shows nothing)."""
    room = Room.objects.filter(code=str(code).upper()[:8]).select_related("host", "match").first()
    if room is None:
        raise RoomNotFound(_("There is no such room."))
    if not is_member(room, user):
        raise NotAllowed(_("This room is private. To join it you need an invite link from its host."))
    return room


def is_member_of(code: str, user) -> bool:
    """Whether room ``code`` exists and ``user`` is an active member of it."""
    room = Room.objects.filter(code=str(code).upper()[:8]).first()
    return room is not None and is_member(room, user)


def is_member(room: Room, user) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return RoomMember.objects.filter(room=room, user_id=user.pk, status=RoomMember.Status.ACTIVE).exists()


def _longest_seated(room: Room):
    member = (RoomMember.objects.filter(room=room, status=RoomMember.Status.ACTIVE)
              .select_related("user").order_by("joined_at", "pk").first())
    return member.user if member else None


def on_match_ended(sender, match, **kwargs) -> None:
    """The receiver of ``games.signals.match_ended`` (connected in apps.py)."""
    room_match_ended(match)
