"""The rating chart (games/chart.py): dates along the bottom, in the viewer's time zone."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from games.chart import rating_chart
from games.history import RatingStep


def steps(days: int, start=datetime(2026, 3, 1, 23, 30, tzinfo=UTC)) -> list[RatingStep]:
    out, rating = [], 1500.0
    for i in range(days):
        out.append(RatingStep(rating, rating + 10, 10, start + timedelta(days=i)))
        rating += 10
    return out


def test_the_dates_run_from_the_first_match_to_the_last_at_most_four_labels():
    chart = rating_chart(steps(30))
    labels = [d["label"] for d in chart["dates"]]
    assert len(labels) == 4 and labels[0] == "1 Mar 2026" and labels[-1] == "30 Mar 2026"
    xs = [d["x"] for d in chart["dates"]]
    assert xs == sorted(xs) and xs[0] == chart["left"] and xs[-1] == chart["right"]
    assert chart["since"] == "1 Mar 2026" and chart["until"] == "30 Mar 2026"


def test_one_match_has_one_date_and_the_same_day_is_not_repeated():
    assert [d["label"] for d in rating_chart(steps(1))["dates"]] == ["1 Mar 2026"]
    same_day = [RatingStep(1500, 1510, 10, datetime(2026, 3, 1, 10, tzinfo=UTC)),
                RatingStep(1510, 1500, -10, datetime(2026, 3, 1, 11, tzinfo=UTC))]
    assert [d["label"] for d in rating_chart(same_day)["dates"]] == ["1 Mar 2026"]


def test_the_days_are_the_viewers():
    with timezone.override(ZoneInfo("Asia/Tokyo")):  # 23:30 UTC is the next morning there
        chart = rating_chart(steps(2))
    assert [d["label"] for d in chart["dates"]] == ["2 Mar 2026", "3 Mar 2026"]
    assert chart["dots"][0]["label"].endswith("2 Mar 2026")
