"""A moment (an instant) as the pages, the admin and the emails write it, and where a narrow place
may break it: between its date and its time, never inside either."""

from __future__ import annotations

import re
from datetime import datetime

from django.template.defaultfilters import date
from django.template.defaultfilters import time as time_filter
from django.utils import timezone
from django.utils.formats import get_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString


def stamp(value: datetime | None, form: str = "datetime") -> str:
    """A moment as every page and email writes it, with its zone: "Dec 7, 2026, 5:26 AM UTC",
    or with form "time" the time alone ("5:26 AM UTC")."""
    if value is None:
        return ""
    # As a template's own {{ value|date }} would be: in the page's zone (filters called from
    # Python are given the value as it is).
    value = timezone.localtime(value)
    pattern = get_format("TIME_FORMAT" if form == "time" else "DATETIME_FORMAT")
    words = time_filter(value, pattern) if form == "time" else date(value, pattern)
    # The site's English formats name the zone themselves; another language's may not.
    return words if pattern.endswith("T") else f"{words} {date(value, 'T')}"


def stamp_parts(value: datetime, form: str = "datetime") -> tuple[str, ...]:
    """`stamp`'s words as the pieces a line may break between, which join back into them: the
    date with what follows it up to and including the first space ("Dec 7, 2026, "), then the
    time ("5:26 AM UTC"); one piece for the time alone, or a style it cannot split."""
    value = timezone.localtime(value)
    words, day = stamp(value, form), date(value, "DATE_FORMAT")
    # The site's languages (English, Chinese) write the date first. A style with the time
    # first, or no space after the date, is left whole.
    split = (
        re.fullmatch(r"(\S*\s+)(.+)", words.removeprefix(day)) if words.startswith(day) else None
    )
    return (words,) if split is None else (day + split[1], split[2])


def moment_html(value: datetime, form: str = "datetime") -> SafeString:
    """`stamp`'s words as HTML that a line breaks between the date and the time alone: each of
    `stamp_parts` in a span.nowrap, the space after the date between them, and a time alone in
    one; a style it cannot split is left as it is. As static/js/moments.js writes them."""
    parts = stamp_parts(value, form)
    if len(parts) == 1:
        whole = parts[0]
        if form == "time":
            return format_html('<span class="nowrap">{}</span>', whole)
        return conditional_escape(whole)
    day, clock = parts
    kept = day.rstrip()
    return format_html(
        '<span class="nowrap">{}</span>{}<span class="nowrap">{}</span>',
        kept,
        day[len(kept) :],
        clock,
    )
