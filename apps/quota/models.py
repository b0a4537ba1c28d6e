"""Quota: plans, per-user accounts, grants, reservations and the append-only usage ledger.

Invariant kept by the services (and checked by the tests): for every account,
sum(grant.remaining) == account.balance + account.reserved. `balance` is what can still be
reserved; `reserved` is held by active reservations until they settle, are released or expire.
"""

import re
from datetime import UTC, date, datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import formats, timezone, translation
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from apps.core.models import BaseModel

# A grant that never expires as an expiry that compares: after every real one.
NEVER = datetime(9999, 12, 31, tzinfo=UTC)


def grant_draw_key(ref: type[F] = F) -> tuple[Coalesce, F, F]:
    """The order charges draw from an account's grants, as the values compared: earliest expiry
    first (never-expiring last), then oldest first. The one definition of that order: ORM
    queries sort by GRANT_DRAW_ORDER, the held-credit sums compare these values, and the
    PostgreSQL settlement compiles it. `ref` is F for the row itself, OuterRef for the row a
    subquery is about."""
    return Coalesce(ref("expires_at"), Value(NEVER)), ref("created_at"), ref("id")


GRANT_DRAW_ORDER = tuple(part.asc() for part in grant_draw_key())


# What holds a reservation, in the reader's language. A type not listed reads as its words.
OWNER_TYPE_LABELS = {"room_turn": _("Room turn")}


# A date as grant notes store it: plan grants write their period's start so ("period from
# 2026-12-01"), exact whatever the writer's language and format.
STORED_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def dates_in_words(text: str) -> str:
    """A stored note with its ISO dates written as pages write dates ("Dec 1, 2026"); the
    stored text keeps the exact date."""

    def in_words(match: re.Match) -> str:
        try:
            day = date(*(int(part) for part in match.groups()))
        except ValueError:
            return match.group(0)  # digits that only look like a date
        return formats.date_format(day, "DATE_FORMAT")

    return STORED_DATE.sub(in_words, text)


def owner_type_label(owner_type: str) -> str:
    """What holds a reservation, in words: owner type "room_turn" reads "Room turn". A charge's
    ledger description, written so (in English) by both settlement paths and shown translated,
    as are older charges stored with the code."""
    # A stored description is the code or its English words: both find the label.
    label = OWNER_TYPE_LABELS.get(owner_type.strip().lower().replace(" ", "_"))
    if label is not None:
        return str(label)
    return capfirst(owner_type.replace("_", " "))


def owner_type_description(owner_type: str) -> str:
    """A charge's ledger description as stored: the owner's words in the site's language, so
    a settlement made during a request in another language stores the same words."""
    with translation.override(settings.LANGUAGE_CODE):
        return owner_type_label(owner_type)


class Plan(BaseModel):
    class Period(models.TextChoices):
        DAILY = "daily", _("daily")
        WEEKLY = "weekly", _("weekly")
        MONTHLY = "monthly", _("monthly")
        NONE = "none", _("no periodic grant")

    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=80)
    periodic_grant = models.BigIntegerField(_("credits per period"), default=0)
    period = models.CharField(
        _("period"), max_length=10, choices=Period.choices, default=Period.MONTHLY
    )
    # Periodic credits expire at the end of their period, unless this is off.
    grants_expire = models.BooleanField(_("grants expire at period end"), default=True)
    is_default = models.BooleanField(_("default for new accounts"), default=False)

    class Meta:
        ordering = ["slug"]
        verbose_name = _("plan")
        constraints = [
            models.CheckConstraint(
                condition=Q(periodic_grant__gte=0), name="quota_plan_grant_nonnegative"
            ),
            models.UniqueConstraint(
                fields=["is_default"], condition=Q(is_default=True), name="quota_plan_one_default"
            ),
        ]

    def __str__(self) -> str:
        return self.name


def keep_with_former_user(collector, field, sub_objs, using) -> None:
    """on_delete for the account's user: the account, and so its grants, reservations and
    ledger (an audit record), outlive the user, named by the deleted user's id."""
    for account in sub_objs:
        collector.add_field_update(field, None, [account])
        collector.add_field_update(
            QuotaAccount._meta.get_field("former_user_id"), account.user_id, [account]
        )


class QuotaAccount(BaseModel):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=keep_with_former_user,
        related_name="quota_account",
    )
    # Set when the user is deleted: whose account this was, as the audit log names them.
    former_user_id = models.UUIDField(_("deleted user's ID"), null=True, blank=True)
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="accounts")
    # Counts an expired grant's unused credits until they are forfeited: what can be reserved
    # now is services.usable_credits.
    balance = models.BigIntegerField(_("stored balance"), default=0)
    reserved = models.BigIntegerField(_("reserved credits"), default=0)

    class Meta:
        verbose_name = _("quota account")
        constraints = [
            models.CheckConstraint(condition=Q(balance__gte=0), name="quota_account_balance_gte_0"),
            models.CheckConstraint(
                condition=Q(reserved__gte=0), name="quota_account_reserved_gte_0"
            ),
        ]

    def __str__(self) -> str:
        # Not the stored balance: it can count expired credits (services.usable_credits).
        if self.user_id is None:
            return _("Deleted user %(id)s") % {"id": self.former_user_id}
        return str(self.user)


class QuotaGrant(BaseModel):
    class Source(models.TextChoices):
        PLAN = "plan", _("plan period")
        STAFF = "staff", _("staff grant")
        SYSTEM = "system", _("system")
        # What a plan upgrade adds to the period's plan grant: the period already has that one.
        UPGRADE = "upgrade", _("plan upgrade")

    account = models.ForeignKey(QuotaAccount, on_delete=models.CASCADE, related_name="grants")
    amount = models.BigIntegerField(_("amount"))
    # Counts unused credits of an expired grant until they are forfeited, as the account's
    # balance does: services.grant_usable_credits is what can be drawn now.
    remaining = models.BigIntegerField(_("stored remaining"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    period_start = models.DateTimeField(null=True, blank=True)
    period_end = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("quota grant")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="quota_grant_amount_positive"),
            models.CheckConstraint(
                condition=Q(remaining__gte=0) & Q(remaining__lte=F("amount")),
                name="quota_grant_remaining_in_range",
            ),
            # One plan grant per account and period: the periodic task can run any number of times.
            # A period is its start and end: a day and a month starting together are two periods.
            models.UniqueConstraint(
                fields=["account", "period_start", "period_end"],
                condition=Q(source="plan"),
                name="quota_grant_one_per_plan_period",
            ),
            # Without both bounds the constraint above could not tell two periods apart.
            models.CheckConstraint(
                condition=~Q(source__in=["plan", "upgrade"])
                | (Q(period_start__isnull=False) & Q(period_end__isnull=False)),
                name="quota_grant_plan_has_period",
            ),
        ]

    def __str__(self) -> str:
        # The admin names the grant with this ("The quota grant “…” was added").
        return ngettext(
            "%(amount)s credit (%(source)s)", "%(amount)s credits (%(source)s)", self.amount
        ) % {
            "amount": self.amount,
            "source": self.get_source_display(),
        }

    @property
    def note_in_words(self) -> str:
        """The note as users read it, its dates in the page's format."""
        return dates_in_words(self.note)


class Reservation(BaseModel):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        SETTLED = "settled", _("settled")
        RELEASED = "released", _("released")
        EXPIRED = "expired", _("expired")

    account = models.ForeignKey(QuotaAccount, on_delete=models.CASCADE, related_name="reservations")
    # No separate index: the unique (user, key) index leads with user and serves lookups by user.
    # Kept when the user is deleted, as their account and its ledger are.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    key = models.CharField(max_length=160)
    amount = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    settled_amount = models.BigIntegerField(_("credits charged"), null=True, blank=True)
    # What holds the reservation (e.g. "room_turn" + job id); the reaper asks it whether it lives.
    owner_type = models.CharField(max_length=40, blank=True)
    owner_id = models.CharField(_("owner ID"), max_length=80, blank=True)
    ttl_seconds = models.PositiveIntegerField(_("seconds held after each heartbeat"))
    heartbeat_at = models.DateTimeField(_("last heartbeat"))
    expires_at = models.DateTimeField(_("held until"))
    closed_at = models.DateTimeField(null=True, blank=True)
    close_reason = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("reservation")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="quota_reservation_user_key"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="quota_reservation_amount_gt_0"),
            models.CheckConstraint(
                condition=Q(settled_amount__isnull=True)
                | (Q(settled_amount__gte=0) & Q(settled_amount__lte=F("amount"))),
                name="quota_reservation_settled_within_amount",
            ),
        ]
        indexes = [
            # The reaper scans active reservations by expiry.
            models.Index(
                fields=["expires_at"],
                condition=Q(status="active"),
                name="quota_res_active_expiry",
            ),
        ]

    def __str__(self) -> str:
        # Staff see this in the admin (ledger list, history, delete confirmations): in words.
        return ngettext(
            "%(key)s: %(amount)s credit, %(status)s",
            "%(key)s: %(amount)s credits, %(status)s",
            self.amount,
        ) % {"key": self.key, "amount": self.amount, "status": self.get_status_display()}


class LedgerEntry(models.Model):
    """Append-only: rows are only ever inserted (no update or delete path exists)."""

    class Kind(models.TextChoices):
        GRANT = "grant", _("grant")
        CHARGE = "charge", _("charge")
        EXPIRE = "expire", _("expiry")
        # Staff taking unused credits back: not an expiry, so the user sees it for what it is.
        WITHDRAW = "withdrawal", _("withdrawal")

    id = models.BigAutoField(primary_key=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    account = models.ForeignKey(QuotaAccount, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.BigIntegerField()
    # The account's stored balance after the entry: credits held by active reservations are
    # not in it (the usage page's "Balance after" counts them).
    balance_after = models.BigIntegerField(_("available after (held not counted)"))
    # A settlement points at its reservation; the one-to-one makes a second charge impossible.
    reservation = models.OneToOneField(
        Reservation, null=True, blank=True, on_delete=models.RESTRICT, related_name="ledger_entry"
    )
    grant = models.ForeignKey(
        QuotaGrant, null=True, blank=True, on_delete=models.RESTRICT, related_name="ledger_entries"
    )
    description = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="quota_ledger_amount_gte_0"),
            models.CheckConstraint(
                condition=~Q(kind="charge") | Q(reservation__isnull=False),
                name="quota_ledger_charge_has_reservation",
            ),
        ]
        indexes = [models.Index(fields=["account", "-id"], name="quota_ledger_account_id")]

    def __str__(self) -> str:
        # Staff see this in the admin (the entry's page, history, delete confirmations).
        return ngettext(
            "%(kind)s of %(amount)s credit", "%(kind)s of %(amount)s credits", self.amount
        ) % {"kind": capfirst(self.get_kind_display()), "amount": self.amount}

    @property
    def description_in_words(self) -> str:
        """The description as users and staff read it. Charges settled before descriptions were
        in words store the owner code ("room_turn"); a grant without a note stores its source's
        label, lowercase as labels are ("system"): shown with a capital, as the grants table
        shows sources."""
        if self.kind == self.Kind.CHARGE:
            return owner_type_label(self.description)
        # A grant's description is its note, dates stored exactly: shown as the page shows them.
        return capfirst(dates_in_words(self.description))


class LedgerAllocation(models.Model):
    """Which grants a charge drew from (earliest-expiring first)."""

    id = models.BigAutoField(primary_key=True)
    entry = models.ForeignKey(LedgerEntry, on_delete=models.CASCADE, related_name="allocations")
    grant = models.ForeignKey(QuotaGrant, on_delete=models.RESTRICT, related_name="allocations")
    amount = models.BigIntegerField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="quota_allocation_amount_gt_0"),
            models.UniqueConstraint(fields=["entry", "grant"], name="quota_allocation_entry_grant"),
        ]

    def __str__(self) -> str:
        # The entry's admin page titles each row with this: the grant as the grant list shows
        # it, not its id (the admin's inline selects the grant with the allocation).
        grant = self.grant
        when = []
        if grant.period_start and grant.period_end:
            when.append(
                _("for %(start)s – %(end)s")
                % {"start": _day(grant.period_start), "end": _day(grant.period_end)}
            )
        if grant.expires_at:
            when.append(
                _("expires %(at)s") % {"at": formats.localize(timezone.localtime(grant.expires_at))}
            )
        elif not when:
            when.append(_("never expires"))
        return ngettext(
            "%(amount)s credit from %(grant)s, %(when)s",
            "%(amount)s credits from %(grant)s, %(when)s",
            self.amount,
        ) % {"amount": self.amount, "grant": grant, "when": ", ".join(str(w) for w in when)}


def _day(at) -> str:
    return formats.date_format(timezone.localtime(at), "DATE_FORMAT")
