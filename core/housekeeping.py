"""Housekeeping of the tables that only grow (docs/operations.md, "Errors that
reach someone, and housekeeping"): what each app's daily task shares.

A task deletes its old rows in batches (``delete_in_batches``): one statement
and one transaction per ``PARLOUR_HOUSEKEEPING_BATCH`` rows, so one run never
holds a big table's locks for long, and a run cut short (its time limit) has
kept what it deleted and leaves the rest to the next day.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet


def cutoff(days: int, now: datetime) -> datetime:
    """The time ``days`` days before ``now``: rows older than it go."""
    return now - timedelta(days=days)


def delete_in_batches(rows: QuerySet, batch: int | None = None) -> int:
    """Delete the rows of ``rows`` (a queryset; Django's ``delete``, so
    cascades and signals happen as ever), ``batch`` rows at a time (default
    PARLOUR_HOUSEKEEPING_BATCH), each batch in its own transaction. Returns how
    many rows of ``rows``' model went (cascaded rows not counted)."""
    batch = batch or settings.PARLOUR_HOUSEKEEPING_BATCH
    model = rows.model
    total = 0
    while True:
        keys = list(rows.order_by("pk").values_list("pk", flat=True)[:batch])
        if not keys:
            return total
        with transaction.atomic():
            model.objects.filter(pk__in=keys).delete()
        total += len(keys)
