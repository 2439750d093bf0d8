"""Ended matches as data (scope ``read``, docs/api.md "Calls"): one match's
export (``GET /api/match/<id>/export``, as ``/m/<id>/export.json`` gives
it, with the same access rules) and the account's ended matches as NDJSON
(``GET /api/account/matches``), streamed in batches, never built in memory."""

from __future__ import annotations

from django.http import Http404
from ninja import Router

from api import auth, limits, streams, views_match
from api.errors import ApiError
from games import exports
from games.models import Match
from games.views import visible_match

router = Router()

#: Matches read per query batch of ``account_matches``.
BATCH = 50


@router.get("/match/{public_id}/export", auth=auth.read)
def export(request, public_id: str):
    """The ended match as ``/m/<id>/export.json`` gives it; 404 for a match
    not ended, or one this account may not see (private and not theirs)."""
    limits.check_call(request.auth)
    try:
        match = visible_match(public_id, request.auth.user)
    except Http404:
        match = None
    if match is None or not match.is_over:
        raise ApiError(404, "not_found", "There is no such ended match.")
    return exports.match_data(match)


def ended_batch(user_id: int, last: tuple | None) -> tuple[list[str], tuple | None]:
    """The next ``BATCH`` ended matches of ``user_id`` after ``last`` (the
    (finished_at, pk) of the previous batch's last; None: the newest), as
    NDJSON lines, and the new ``last`` (None after the final batch).
    Newest first, paged on (finished_at, pk): a batch never repeats or skips
    one. A few queries a batch (``exports.prefetch``)."""
    page = Match.objects.filter(seats__user_id=user_id, status__in=(Match.Status.FINISHED,
                                                                    Match.Status.ABORTED))
    page = page.exclude(finished_at=None).order_by("-finished_at", "-pk")
    if last is not None:
        page = page.filter(finished_at__lte=last[0]).exclude(finished_at=last[0], pk__gte=last[1])
    batch = list(exports.prefetch(page)[:BATCH])
    lines = [streams.line(exports.match_data(match, prefetched=True)) for match in batch]
    return lines, (batch[-1].finished_at, batch[-1].pk) if len(batch) == BATCH else None


async def ended_matches(user_id: int):
    """Every ended match of ``user_id`` as NDJSON lines, a batch at a time
    (read on the streams' threads): never the whole list in memory."""
    last = ()
    while last is not None:
        lines, last = await streams.read(ended_batch, user_id, last or None)
        for text in lines:
            yield text


@router.get("/account/matches", auth=auth.read)
async def account_matches(request):
    """NDJSON: the account's ended matches, newest first, each as its export."""
    await limits.acheck_call(request.auth)
    return await views_match.ndjson(ended_matches(request.auth.user.pk))
