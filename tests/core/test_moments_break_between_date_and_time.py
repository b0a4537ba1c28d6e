"""A moment written on a page breaks across lines between its date and its time alone: the
server's <time data-local> keeps each in a span.nowrap, as the admin's lists do, its words the
same as `stamp`'s."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.template import Context, Template
from django.utils import translation

from apps.core.moments import stamp, stamp_parts

AT = datetime(2027, 1, 6, 12, 49, tzinfo=UTC)


def render(form: str) -> str:
    return Template('{% load when %}{{ at|local_time:"' + form + '" }}').render(Context({"at": AT}))


def test_a_pages_moment_keeps_its_date_and_its_time_each_on_one_line():
    assert render("datetime") == (
        '<time datetime="2027-01-06T12:49:00+00:00" data-local="datetime">'
        '<span class="nowrap">Jan 6, 2027,</span> <span class="nowrap">12:49 PM UTC</span></time>'
    )


def test_a_pages_moment_reads_as_its_stamp_once_its_markup_is_gone():
    assert re.sub(r"<[^>]+>", "", render("datetime")) == stamp(AT) == "Jan 6, 2027, 12:49 PM UTC"


def test_a_time_alone_is_one_piece_kept_on_one_line():
    assert stamp_parts(AT, "time") == ("12:49 PM UTC",)
    assert render("time") == (
        '<time datetime="2027-01-06T12:49:00+00:00" data-local="time">'
        '<span class="nowrap">12:49 PM UTC</span></time>'
    )


def test_a_moment_splits_after_the_space_that_follows_its_date():
    assert stamp_parts(AT) == ("Jan 6, 2027, ", "12:49 PM UTC")
    with translation.override("zh-hans"):
        assert stamp_parts(AT) == ("2027年1月6日 ", "12:49 UTC")
