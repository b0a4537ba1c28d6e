"""Times as people say them on the pages and in emails."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.template.defaultfilters import date
from django.template.defaultfilters import time as time_filter
from django.utils import timezone
from django.utils.html import format_html
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def ago(value: datetime | None) -> str:
    """ "just now" within the minute (timesince would say "0 minutes"), else "5 minutes ago"."""
    if value is None:
        return ""
    if timezone.now() - value < timedelta(minutes=1):
        return _("just now")
    return _("%(time)s ago") % {"time": timesince(value)}


@register.filter
def stamp(value: datetime | None, form: str = "datetime") -> str:
    """A moment as every page and email writes it, with its zone: "Dec 7, 2026, 5:26 AM UTC",
    or with form "time" the time alone ("5:26 AM UTC")."""
    if value is None:
        return ""
    # As a template's own {{ value|date }} would be: in the page's zone (filters called from
    # Python are given the value as it is).
    value = timezone.localtime(value)
    words = time_filter(value, "TIME_FORMAT") if form == "time" else date(value, "DATETIME_FORMAT")
    return f"{words} {date(value, 'T')}"


@register.filter
def local_time(value: datetime | None, form: str = "datetime") -> str:
    """`stamp` as a <time> element, which static/js/local_time.js rewrites in the reader's own
    zone ("time": the time alone, with its date when the reader's day is another)."""
    if value is None:
        return ""
    value = timezone.localtime(value)
    return format_html(
        '<time datetime="{}" data-local="{}">{}</time>', date(value, "c"), form, stamp(value, form)
    )
