"""The pairing wave through real Celery beat and worker processes: two
players too far apart to pair when they joined are paired once their
windows have grown, without anyone joining."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import Rating
from matchmaking.models import QueueEntry
from matchmaking.queue import actions
from tests import services
from tests.factories import make_user

pytestmark = pytest.mark.slow


def test_beat_runs_the_wave_every_two_seconds():
    wave = settings.CELERY_BEAT_SCHEDULE["queue-wave"]
    assert wave["task"] == "matchmaking.tasks.queue_wave" and wave["schedule"] == 2.0


def test_the_wave_pairs_players_whose_windows_have_grown(celery_worker, celery_beat):
    low, high = make_user(), make_user()
    Rating.objects.create(user=high, kind="ludo", rating=1660, games=30, peak=1660)
    now = timezone.now()
    assert actions.join_queue(low, "ludo", 2, now=now).match_id is None
    assert actions.join_queue(high, "ludo", 2, now=now).match_id is None  # 160 apart, windows 100
    # Both have waited 25 s (windows 200) and their pages are still there.
    QueueEntry.objects.update(joined_at=now - timedelta(seconds=25), seen_at=timezone.now())
    entry = services.wait_for(
        lambda: QueueEntry.objects.filter(user=low, match__isnull=False).first(), 30,
        what="the wave to pair them",
    )
    match = entry.match
    assert match.rated and match.status == "active"
    assert {s.user_id for s in match.seats.all()} == {low.pk, high.pk}
