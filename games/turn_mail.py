"""What the turn-based mail says, and to whom (docs/features.md, "E-mail
when it is your turn"). ``notifications`` owns the switches, the
unsubscribe links, the throttle and the sending; it sits below ``games``, so
the games side tells it what to send: two periodic jobs it runs
(``send_digests``, ``send_reminders``: registered in games/apps.py) and the
result at a match's end (``on_match_ended``, a receiver of
``games.signals.match_ended``).

"Whose turn" is ``Match.seat_to_move``: a waiting decision is a Seat whose
index is its match's ``seat_to_move``, still playing, a person's (computer
seats are never mailed), in an active turn-based match. Found from the
active matches (the ``status`` indexes) and the seat's unique
(match, index); what was mailed is ``notifications.models.MatchMail``, by
primary key. Nothing here runs per move.

Each mail's subject and its matches' words (time left, deadline, result) are
written in its recipient's language (``accounts.languages.speaking``,
docs/i18n.md "E-mail"); ``notifications.mail`` renders the body in it too.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.humanize.templatetags.humanize import ordinal
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import dateformat
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from accounts import holidays, languages
from accounts.models import User
from accounts.timezones import get_zone
from core.site_url import absolute
from games import sites, time_controls
from games.models import Match, Seat
from games.your_matches import match_url
from notifications import mail
from notifications.models import MatchMail
from notifications.tasks import queue_mail

#: Players handled per job run (the next run, minutes later, takes the rest).
BATCH = 500


def waiting_seats():
    """Seats whose decision an active turn-based match waits for, people's only."""
    return Seat.objects.filter(
        index=F("match__seat_to_move"), status=Seat.Status.PLAYING, user__isnull=False,
        match__status=Match.Status.ACTIVE, match__turn_seconds__gte=time_controls.DAY)  # TURN_BASED_Q


def _mailed(field: str) -> Exists:
    """The seat's decision (its match at this ply) is already recorded in ``MatchMail.<field>``."""
    return Exists(MatchMail.objects.filter(match_id=OuterRef("match_id"),
                                           **{field: OuterRef("match__ply_count")}))


def left_words(seconds: float) -> str:
    """Time left in words, in the active language: "2 days, 3 hours", "5 hours",
    "40 minutes", "less than a minute"."""
    minutes = int(max(0, seconds) // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if days:
        parts.append(ngettext("%(n)d day", "%(n)d days", days) % {"n": days})
    if hours:
        parts.append(ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours})
    if not parts and minutes:
        parts = [ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}]
    if len(parts) == 2:
        # Translators: time left in a turn-based match, e.g. "2 days, 3 hours".
        return _("%(days)s, %(hours)s") % {"days": parts[0], "hours": parts[1]}
    return parts[0] if parts else _("less than a minute")


def _opponents(seats: list[Seat], user_id: int) -> str:
    # Translators: the list of opponents is empty (everyone else left).
    return ", ".join(s.display_name for s in seats if s.user_id != user_id) or pgettext("opponents", "nobody")


def _item(match: Match, seats: list[Seat], user, now: datetime) -> dict:
    """One match of a mail, as JSON for the mail task: its game, the others,
    its link, and (while a decision waits) the time left and the deadline in
    the player's own time zone (README "Times")."""
    item = {"game": sites.name(match.kind), "opponents": _opponents(seats, user.pk),
            "url": absolute(settings.SITE_URL, match_url(match.public_id)),
            "time_control": time_controls.label(match.turn_seconds)}
    if match.deadline:
        local = match.deadline.astimezone(get_zone(user.time_zone or "UTC"))
        item["left"] = left_words((match.deadline - now).total_seconds())
        # Day and month names in the active language (Django's date format).
        item["until"] = f"{dateformat.format(local, 'l j F, H:i')} ({user.time_zone or 'UTC'})"
    return item


def _seats_of(match_ids) -> dict[int, list[Seat]]:
    seats: dict[int, list[Seat]] = defaultdict(list)
    for s in (Seat.objects.filter(match_id__in=match_ids).select_related("user")
              .only("match_id", "index", "user_id", "computer_level", "status",
                    *(f"user__{f}" for f in _USER_FIELDS))
              .order_by("match_id", "index")):
        seats[s.match_id].append(s)
    return seats


def _mark(field: str, matches) -> None:
    """Record each match's current ply in ``MatchMail.<field>``."""
    MatchMail.objects.bulk_create([MatchMail(match_id=m.pk, **{field: m.ply_count}) for m in matches],
                                  update_conflicts=True, unique_fields=["match_id"], update_fields=[field])


#: What a mail needs of a match, a seat and a user (not the match's state).
_MATCH_FIELDS = ("public_id", "kind", "turn_seconds", "deadline", "ply_count", "seat_to_move")
_USER_FIELDS = ("username", "email", "time_zone", "language")


def waiting_decisions() -> list[tuple[int, int, int, bool]]:
    """Every decision a person's seat has to make in an active turn-based
    match: (match id, user id, ply, already in a digest), from one query over
    the active matches (the ``status`` indexes) with the seat to move looked
    up by the seat's match and ``MatchMail`` by its key, a match at a time: its
    cost grows with the open matches, not with the history."""
    mover = Seat.objects.filter(match_id=OuterRef("pk"), index=OuterRef("seat_to_move"),
                                status=Seat.Status.PLAYING, user__isnull=False).values("user_id")[:1]
    mailed = Exists(MatchMail.objects.filter(match_id=OuterRef("pk"), digest_ply=OuterRef("ply_count")))
    rows = (Match.objects.filter(time_controls.TURN_BASED_Q, status=Match.Status.ACTIVE,
                                 seat_to_move__isnull=False)
            .annotate(mover=Subquery(mover), mailed=mailed).order_by()
            .values_list("pk", "mover", "ply_count", "mailed"))
    # Computer seats and seats that left (no mover) are dropped here: a filter
    # on the annotation would run its subquery twice a row.
    return [row for row in rows if row[1] is not None]


def _by_mover(matches, seats: dict[int, list[Seat]], users: dict) -> dict[int, list[Match]]:
    """``matches`` by the user (one of ``users``) whose seat is to move in each, in order."""
    by_user = defaultdict(list)
    for m in matches:
        mover = next((s for s in seats[m.pk] if s.index == m.seat_to_move), None)
        if mover is not None and mover.status == Seat.Status.PLAYING and mover.user_id in users:
            by_user[mover.user_id].append(m)
    return by_user


def send_digests(now: datetime) -> int:
    """Queue a "your turn" digest for each player with a waiting decision not
    yet mailed about and no digest in the last PARLOUR_DIGEST_EVERY_SECONDS
    (``notifications.mail.mailable_users``): one mail listing every
    turn-based match waiting for them, soonest deadline first; none while
    they are on holiday (``accounts.holidays``). At most BATCH
    players a run. Returns how many were queued."""
    decisions = waiting_decisions()
    wanting = {user_id for _, user_id, _, mailed in decisions if not mailed}
    # A player on holiday is not told (their clocks stand still): the
    # decision is mailed about once they are back.
    wanting -= set(holidays.on_holiday_until(wanting, now))
    due = set(sorted(mail.mailable_users("your_turn", wanting, digest_at=now))[:BATCH])
    if not due:
        return 0
    plies = {match_id: ply for match_id, user_id, ply, _ in decisions if user_id in due}
    # A match that moved on since the first query is left to the next run.
    matches = [m for m in Match.objects.filter(pk__in=plies).only(*_MATCH_FIELDS).order_by("deadline", "pk")
               if m.ply_count == plies[m.pk]]
    seats = _seats_of(plies)
    users = {u.pk: u for u in User.objects.filter(pk__in=due).only(*_USER_FIELDS)}
    by_user = _by_mover(matches, seats, users)
    with transaction.atomic():
        _mark("digest_ply", [m for mine in by_user.values() for m in mine])
        mail.mark_digest(by_user, now)
        for user_id, mine in by_user.items():
            with languages.speaking(users[user_id]):
                items = [_item(m, seats[m.pk], users[user_id], now) for m in mine]
                subject = (_("Your turn: %(game)s with %(opponents)s") % items[0] if len(items) == 1
                           else ngettext("Your turn in %(n)d match", "Your turn in %(n)d matches",
                                         len(items)) % {"n": len(items)})
            queue_mail(user_id, "your_turn", subject, "notifications/mail/your_turn.txt", {"matches": items})
    return len(by_user)


def _near_deadline(now: datetime) -> Q:
    """The seat's decision has less than a quarter of its time left (one
    range on the deadline per offered time control)."""
    near = Q()
    for seconds in time_controls.TURN_BASED_SECONDS:
        near |= Q(match__turn_seconds=seconds, match__deadline__lt=now + timedelta(seconds=seconds / 4))
    return near & Q(match__deadline__gt=now)


def send_reminders(now: datetime) -> int:
    """Queue a reminder for each waiting decision with less than a quarter of
    its time left, once per decision (one mail per player per run, listing
    them). Returns how many mails were queued."""
    rows = list(waiting_seats().filter(_near_deadline(now), mail.mailable("reminders"))
                .exclude(_mailed("reminder_ply")).select_related("match", "user")
                .only("match_id", "user_id", *(f"match__{f}" for f in _MATCH_FIELDS),
                      *(f"user__{f}" for f in _USER_FIELDS))
                .order_by("user_id", "match__deadline")[:BATCH])
    if not rows:
        return 0
    seats = _seats_of({r.match_id for r in rows})
    by_user = defaultdict(list)
    for r in rows:
        by_user[r.user_id].append(r)
    with transaction.atomic():
        _mark("reminder_ply", [r.match for r in rows])
        for user_id, mine in by_user.items():
            with languages.speaking(mine[0].user):
                items = [_item(r.match, seats[r.match_id], r.user, now) for r in mine]
                subject = (_("Reminder: %(left)s left in %(game)s with %(opponents)s") % items[0]
                           if len(items) == 1 else
                           ngettext("Reminder: %(n)d match is running out of time",
                                    "Reminder: %(n)d matches are running out of time", len(items))
                           % {"n": len(items)})
            queue_mail(user_id, "reminders", subject, "notifications/mail/reminder.txt", {"matches": items})
    return len(by_user)


#: Why a match ended without a result, as its result mail says it (English:
#: the reason's name with spaces).
_END_REASONS = {
    "no_humans_left": pgettext_lazy("match end reason", "no humans left"),
    "moderator": pgettext_lazy("match end reason", "moderator"),
    "aborted": pgettext_lazy("match end reason", "aborted"),
    "stalled": pgettext_lazy("match end reason", "stalled"),
    "turn_limit": pgettext_lazy("match end reason", "turn limit"),
}


def _result_line(match: Match, seat: Seat, players: int) -> str:
    """The result for ``seat``'s player, a sentence in the active language."""
    if match.status != Match.Status.FINISHED:
        return _("The match ended without a result.")
    if seat.rank == 1:
        return _("You won.")
    if seat.rank and players == 2:
        return _("You lost.")
    if seat.rank:
        return _ordinal_place(seat.rank, players)
    return _("The match is over.")


def _result_subject(match: Match, seat: Seat, players: int, item: dict) -> str:
    """The result mail's subject, in the active language."""
    if match.status != Match.Status.FINISHED:
        head = _("The match ended without a result")
    elif seat.rank == 1:
        head = _("You won")
    elif seat.rank and players == 2:
        head = _("You lost")
    elif seat.rank:
        head = _ordinal_place(seat.rank, players).rstrip(".।")
    else:
        head = _("The match is over")
    # Translators: a result mail's subject, e.g. "You won: Ludo with bob, cleo".
    return _("%(result)s: %(game)s with %(opponents)s") % {"result": head, **item}


def _ordinal_place(rank: int, players: int) -> str:
    """"You finished 2nd of 4.": one sentence per place a match of up to
    four seats has (each language writes its places its own way), and a
    general one with Django's ordinal."""
    if rank == 2:
        return _("You finished 2nd of %(players)d.") % {"players": players}
    if rank == 3:
        return _("You finished 3rd of %(players)d.") % {"players": players}
    if rank == 4:
        return _("You finished 4th of %(players)d.") % {"players": players}
    # Translators: "place" is an ordinal from Django's humanize ("5th", "5.").
    return _("You finished %(place)s of %(players)d.") % {"place": ordinal(rank), "players": players}


def on_match_ended(sender, match: Match, seats: list[Seat], **kwargs) -> None:
    """``games.signals.match_ended``: a turn-based match's players are each
    mailed the result (queued after the commit; the switch is read at send
    time), and its ``MatchMail`` row goes."""
    if not match.turn_based:
        return
    MatchMail.objects.filter(match_id=match.pk).delete()
    standings = [{"rank": s.rank, "name": s.display_name, "left": s.status != Seat.Status.PLAYING}
                 for s in sorted(seats, key=lambda s: (s.rank or 99, s.index))]
    # The players' languages in one query (the seats' users are loaded with few columns).
    spoken = dict(User.objects.filter(pk__in=[s.user_id for s in seats if s.user_id])
                  .values_list("pk", "language"))
    for seat in seats:
        if not seat.user_id:
            continue
        with languages.speaking(None, spoken.get(seat.user_id)):  # their chosen language, else English
            reason = str(_END_REASONS.get(match.end_reason, (match.end_reason or "").replace("_", " ")))
            item = {"game": sites.name(match.kind), "opponents": _opponents(seats, seat.user_id),
                    "url": absolute(settings.SITE_URL, match_url(match.public_id))}
            subject = _result_subject(match, seat, len(seats), item)
            result = _result_line(match, seat, len(seats))
        queue_mail(seat.user_id, "results", subject, "notifications/mail/result.txt",
                   {"match": item, "result": result, "standings": standings,
                    "reason": reason, "finished": match.status == Match.Status.FINISHED})
