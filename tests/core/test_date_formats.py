"""Pages write dates and times in one style, the room timeline's: "Dec 7, 2026", "5:26 AM UTC",
"Dec 7, 2026, 5:26 AM UTC", whichever named format a page asks for, so a reader never meets
"Dec. 7, 2026, 5:26 a.m." on one page and "12/14/2026" on another, and a moment always names
its zone (the admin writes these formats itself)."""

from datetime import UTC, date, datetime

import pytest
from django.utils import formats, translation

AT = datetime(2026, 12, 7, 5, 26, tzinfo=UTC)
AFTERNOON = datetime(2026, 12, 14, 17, 47, tzinfo=UTC)


@pytest.mark.parametrize(
    ("name", "value", "text"),
    [
        ("DATE_FORMAT", AT, "Dec 7, 2026"),
        ("SHORT_DATE_FORMAT", AT, "Dec 7, 2026"),
        ("TIME_FORMAT", AT, "5:26 AM UTC"),
        ("TIME_FORMAT", AFTERNOON, "5:47 PM UTC"),
        ("DATETIME_FORMAT", AT, "Dec 7, 2026, 5:26 AM UTC"),
        ("SHORT_DATETIME_FORMAT", AFTERNOON, "Dec 14, 2026, 5:47 PM UTC"),
    ],
)
def test_each_named_format_reads_as_the_room_timeline_does(name, value, text):
    with translation.override("en"):
        assert formats.date_format(value, name) == text


def test_midnight_and_noon_are_times_like_any_other():
    # Django's own English says "midnight" and "noon", which the room never does.
    with translation.override("en"):
        assert [
            formats.time_format(datetime(2032, 1, 1, hour, tzinfo=UTC), "TIME_FORMAT")
            for hour in (0, 12)
        ] == ["12:00 AM UTC", "12:00 PM UTC"]


def test_a_date_alone_and_a_localized_datetime_use_the_same_formats():
    with translation.override("en"):
        assert (formats.localize(date(2026, 12, 7)), formats.localize(AT)) == (
            "Dec 7, 2026",
            "Dec 7, 2026, 5:26 AM UTC",
        )


def test_typed_dates_are_still_read_in_the_forms_usual_formats():
    # Only how dates are written changes: forms still accept "2026-12-07" and "12/07/2026".
    with translation.override("en"):
        assert formats.get_format("DATE_INPUT_FORMATS")[:2] == ["%Y-%m-%d", "%m/%d/%Y"]
