"""Times as people say them on the pages and in emails."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.template.defaultfilters import date
from django.utils import timezone
from django.utils.html import format_html
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from apps.core.moments import moment_html, stamp

register = template.Library()


@register.filter
def ago(value: datetime | None) -> str:
    """ "just now" within the minute (timesince would say "0 minutes"), else "5 minutes ago"."""
    if value is None:
        return ""
    if timezone.now() - value < timedelta(minutes=1):
        return _("just now")
    return _("%(time)s ago") % {"time": timesince(value)}


# Defined in apps.core, which the admin's lists share; a filter here for the templates.
register.filter("stamp", stamp)


@register.filter
def local_time(value: datetime | None, form: str = "datetime") -> str:
    """`stamp` as a <time> element, which static/js/local_time.js rewrites in the reader's own
    zone ("time": the time alone, with its date when the reader's day is another); its date and
    its time each kept on one line."""
    if value is None:
        return ""
    value = timezone.localtime(value)
    return format_html(
        '<time datetime="{}" data-local="{}">{}</time>',
        date(value, "c"),
        form,
        moment_html(value, form),
    )
