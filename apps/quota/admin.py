"""Staff views: plans, accounts, grants (added through the service, audited), and read-only
reservations and ledger (append-only)."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from apps.core.admin import (
    AuditedAdminMixin,
    MomentColumnsMixin,
    capitalised_choice_column,
    capitalised_choices_filter,
    moment_in_a_column,
)

from . import services
from .models import (
    LedgerAllocation,
    LedgerEntry,
    Plan,
    QuotaAccount,
    QuotaGrant,
    Reservation,
    owner_type_label,
)


class ReadOnlyAdminMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


GrantSourceFilter = capitalised_choices_filter("source")
ReservationStatusFilter = capitalised_choices_filter("status")
LedgerKindFilter = capitalised_choices_filter("kind")


TOP_UP_ACTION = _("Top up the current period of accounts on the selected plans")


class PlanForm(forms.ModelForm):
    # The database refuses a negative grant too, but by constraint name: say it as a field error.
    periodic_grant = Plan._meta.get_field("periodic_grant").formfield(
        min_value=0,
        help_text=format_lazy(
            _(
                "A change applies from each account’s next period. To give the plan’s accounts "
                "the difference for the current period now, use “{action}” on the plan list."
            ),
            action=TOP_UP_ACTION,
        ),
    )

    class Meta:
        model = Plan
        fields = ("name", "slug", "periodic_grant", "period", "grants_expire", "is_default")

    def clean_is_default(self):
        # One plan is the default (a database constraint): say which, not the constraint name.
        is_default = self.cleaned_data.get("is_default")
        if is_default:
            current = Plan.objects.filter(is_default=True).exclude(pk=self.instance.pk).first()
            if current is not None:
                raise forms.ValidationError(
                    _("“%(plan)s” is the default plan: untick “%(field)s” there first.")
                    % {
                        "plan": current.name,
                        "field": Plan._meta.get_field("is_default").verbose_name.capitalize(),
                    }
                )
        return is_default

    def clean(self):
        cleaned = super().clean()
        # Periodic credits are issued per period: without one they would show but never come.
        if cleaned.get("period") == Plan.Period.NONE and cleaned.get("periodic_grant"):
            raise forms.ValidationError(
                _(
                    "A plan with no period never grants its credits: choose a period, or set "
                    "credits per period to 0."
                )
            )
        return cleaned


@admin.register(Plan)
class PlanAdmin(AuditedAdminMixin, admin.ModelAdmin):
    form = PlanForm
    list_display = ("name", "slug", "periodic_grant", "plan_period", "grants_expire", "is_default")
    prepopulated_fields = {"slug": ("name",)}
    actions = ("top_up_current_period",)

    plan_period = capitalised_choice_column(Plan, "period", "plan_period")

    def has_delete_permission(self, request, obj=None):
        return False

    def has_top_up_permission(self, request):
        # It grants credits: it needs what granting them does.
        return request.user.has_perm("quota.add_quotagrant")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        before = form.initial.get("periodic_grant")
        if change and before is not None and obj.periodic_grant > before:
            # Accounts have this period's grant already: the new amount comes with the next one.
            messages.info(
                request,
                _(
                    "Accounts on %(plan)s get %(amount)s credits from their next period. To give "
                    "them the difference for the current period now, select the plan and use "
                    "“%(action)s”."
                )
                % {"plan": obj.name, "amount": obj.periodic_grant, "action": TOP_UP_ACTION},
            )

    @admin.action(description=TOP_UP_ACTION, permissions=["top_up"])
    def top_up_current_period(self, request, queryset):
        for plan in queryset:
            accounts, credits = services.quota_plan_top_up(plan=plan, actor=request.user)
            if accounts:
                text = ngettext(
                    "%(plan)s: topped up %(accounts)s account with %(credits)s credits for the "
                    "current period.",
                    "%(plan)s: topped up %(accounts)s accounts with %(credits)s credits for the "
                    "current period.",
                    accounts,
                ) % {"plan": plan.name, "accounts": accounts, "credits": credits}
            else:
                text = _(
                    "%(plan)s: every account already has this period’s %(amount)s credits."
                ) % {
                    "plan": plan.name,
                    "amount": plan.periodic_grant,
                }
            messages.success(request, text)


@admin.register(QuotaAccount)
class QuotaAccountAdmin(MomentColumnsMixin, admin.ModelAdmin):
    # Not AuditedAdminMixin: the plan is the only field staff change here, and the plan change
    # service writes the audit row (with what the change granted).
    list_display = ("holder", "plan", "balance", "usable_now", "reserved", "updated_at")
    list_filter = ("plan",)
    search_fields = ("user__email", "former_user_id")

    def get_queryset(self, request):
        # The balance still counts an expired grant's unused credits until the expiry run
        # forfeits them; they cannot be reserved from the moment the grant expires.
        return (
            super().get_queryset(request).annotate(usable=services.usable_credits(timezone.now()))
        )

    @admin.display(description=_("Usable now"), ordering="usable")
    def usable_now(self, obj):
        return obj.usable

    # A deleted user's account is kept with its ledger: named by the user's id, not "-".
    @admin.display(description=_("user"), ordering="user__email")
    def holder(self, obj):
        return str(obj)

    # Balances change only through grants, reservations and settlements. The change page reads
    # the account through get_queryset too, so it shows the same usable figure as the list.
    readonly_fields = (
        "kept_for_ledger",
        "user",
        "former_user_id",
        "balance",
        "usable_now",
        "reserved",
        "grant_credits",
        "created_at",
        "updated_at",
    )
    fields = (
        "user",
        "former_user_id",
        "plan",
        ("balance", "usable_now", "reserved"),
        "grant_credits",
        "created_at",
        "updated_at",
    )

    def has_change_permission(self, request, obj=None):
        # A deleted user's account is kept for its ledger: nothing about it changes any more
        # (quota_account_plan_change refuses it too), so its page is read-only.
        if obj is not None and obj.user_id is None:
            return False
        return super().has_change_permission(request, obj)

    def get_fields(self, request, obj=None):
        if obj is not None and obj.user_id is None:
            return ("kept_for_ledger", *self.fields)
        return self.fields

    @admin.display(description=_("Status"))
    def kept_for_ledger(self, obj):
        return _(
            "This account's user was deleted: it is kept for its ledger, and its plan and "
            "credits no longer change."
        )

    @admin.display(description=_("Grant credits"))
    def grant_credits(self, obj):
        if obj.user_id is None:
            return "—"
        url = reverse("admin:quota_quotagrant_add") + f"?user={obj.user_id}"
        return format_html('<a href="{}">{}</a>', url, _("Grant credits to this user"))

    def has_add_permission(self, request):
        # Every user has an account from sign-up on; staff add credits, not accounts.
        return False

    def save_model(self, request, obj, form, change):
        # Write only the plan, through the service: balance and reserved move under row locks
        # while the form is open, and saving the copy read with the form would undo those moves.
        if "plan" not in form.changed_data:
            return
        result = services.quota_account_plan_change(
            account=obj, plan=form.cleaned_data["plan"], actor=request.user
        )
        plan = form.cleaned_data["plan"].name
        if result.grant is not None:
            text = ngettext(
                "Plan changed to %(plan)s: %(amount)s credit granted now for the period from "
                "%(start)s.",
                "Plan changed to %(plan)s: %(amount)s credits granted now for the period from "
                "%(start)s.",
                result.grant.amount,
            ) % {
                "plan": plan,
                "amount": result.grant.amount,
                # As the admin's pages write dates, not the ISO date the grant's note stores.
                "start": formats.date_format(
                    timezone.localtime(result.grant.period_start), "DATE_FORMAT"
                ),
            }
        elif result.granted_before:
            text = ngettext(
                "Plan changed to %(plan)s: no credits granted now; the %(amount)s credit "
                "already granted for this period stays.",
                "Plan changed to %(plan)s: no credits granted now; the %(amount)s credits "
                "already granted for this period stay.",
                result.granted_before,
            ) % {"plan": plan, "amount": result.granted_before}
        else:
            text = _("Plan changed to %(plan)s: it grants no credits now.") % {"plan": plan}
        messages.success(request, text)

    def has_delete_permission(self, request, obj=None):
        return False


class _UserSelect(AutocompleteSelect):
    def optgroups(self, name, value, attr=None):
        # It looks the chosen user up to show them: a value that is no user id at all (a
        # hand-edited link or form) shows nothing, and the field says the choice is not valid,
        # instead of the lookup failing the page.
        pk = get_user_model()._meta.pk
        valid = []
        for v in value:
            try:
                pk.to_python(v)
            except ValidationError:
                continue
            valid.append(v)
        return super().optgroups(name, valid, attr)


class QuotaGrantAddForm(forms.ModelForm):
    # Staff think of whom to credit, not of account rows: pick the user, searched by email.
    user = forms.ModelChoiceField(
        label=_("User"),
        queryset=get_user_model().objects.all(),
        widget=_UserSelect(QuotaAccount._meta.get_field("user"), admin.site),
        help_text=_("Search by email address."),
    )
    amount = forms.IntegerField(label=_("Credits"), min_value=1, max_value=10**9)

    class Meta:
        model = QuotaGrant
        fields = ("user", "amount", "expires_at", "note")
        # The usage page lists a staff grant with its note: not a place for internal remarks.
        help_texts = {"note": _("The user sees this note on their usage page.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The two bare fields are read in the site's zone, which staff elsewhere cannot guess:
        # named as the request has it, not as the code was loaded.
        zone = timezone.get_current_timezone_name()
        expires = self.fields["expires_at"]
        expires.help_text = _(
            "Date and time in %(zone)s. Leave both empty for credits that never expire."
        ) % {"zone": zone}
        # The admin writes "Date:" and "Time:" beside its two inputs as bare words, labelling
        # neither (nor tying the help to them): each input is named here, its zone included.
        date_input, time_input = expires.widget.widgets
        date_input.attrs["aria-label"] = _("Expiry date, in %(zone)s") % {"zone": zone}
        time_input.attrs["aria-label"] = _("Expiry time, in %(zone)s") % {"zone": zone}

    def clean_expires_at(self):
        expires_at = self.cleaned_data.get("expires_at")
        if expires_at is not None and expires_at <= timezone.now():
            # Credits that have already expired could never be used.
            raise forms.ValidationError(
                _(
                    "Choose an expiry in the future, or leave it empty for credits that "
                    "never expire."
                )
            )
        return expires_at


@admin.register(QuotaGrant)
class QuotaGrantAdmin(admin.ModelAdmin):
    """Adding a grant here is the staff "grant credits" flow: it calls quota_grant, which
    updates the balance, appends a ledger entry and writes the audit row."""

    # Fits a 1440 px screen beside the admin's sidebar: short headings and dates; who granted
    # it and when are on the grant's page.
    list_display = (
        "account",
        "grant_source",
        "amount",
        "stored_left",
        "held_by_turns",
        "usable_now",
        "expires",
    )
    list_filter = (GrantSourceFilter,)
    list_select_related = ("account__user",)
    search_fields = ("account__user__email", "note")
    readonly_fields = (
        "account",
        "source",
        "amount",
        "remaining",
        "held",
        "usable_now",
        "period_start",
        "period_end",
        "expires_at",
        "actor",
        "note",
        "created_at",
    )

    def get_queryset(self, request):
        # The stored remaining still counts an expired grant's unused credits until the expiry
        # run forfeits them: beside it, what turns hold and what can be drawn now.
        return (
            super()
            .get_queryset(request)
            .annotate(
                held=services.grant_held_credits(),
                usable=services.grant_usable_credits(timezone.now()),
            )
        )

    @admin.display(description=_("Held by turns in progress"), ordering="held")
    def held(self, obj):
        return obj.held

    @admin.display(description=_("Usable now"), ordering="usable")
    def usable_now(self, obj):
        return obj.usable

    grant_source = capitalised_choice_column(QuotaGrant, "source", "grant_source")

    @admin.display(description=_("Left (stored)"), ordering="remaining")
    def stored_left(self, obj):
        return obj.remaining

    @admin.display(description=_("Held"), ordering="held")
    def held_by_turns(self, obj):
        return obj.held

    @admin.display(description=_("Expires"), ordering="expires_at")
    def expires(self, obj):
        return moment_in_a_column(obj.expires_at) if obj.expires_at else _("Never")

    add_form_template = "quota/quotagrant_add_form.html"

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = QuotaGrantAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("user", "amount", "expires_at", "note")
        return self.readonly_fields

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    actions = ("withdraw_unused",)

    def has_change_permission(self, request, obj=None):
        # Grants are viewable but never edited: the ledger and allocations refer to them.
        return False

    def has_withdraw_permission(self, request):
        # Taking credits away needs what giving them does, not just the right to look.
        return request.user.has_perm("quota.add_quotagrant")

    @admin.action(
        description=_("Withdraw the unused credits of the selected grants"),
        permissions=["withdraw"],
    )
    def withdraw_unused(self, request, queryset):
        # How staff reduce a balance: through the ledger, never below what turns hold.
        withdrawn = left = 0
        for grant in queryset:
            taken, remaining = services.quota_grant_withdraw(grant=grant, actor=request.user)
            withdrawn, left = withdrawn + taken, left + remaining
        text = ngettext(
            "Withdrew %(amount)s credit.", "Withdrew %(amount)s credits.", withdrawn
        ) % {"amount": withdrawn}
        if left:
            text += " " + ngettext(
                "%(left)s more is held by requests in progress; withdraw again once they finish.",
                "%(left)s more are held by requests in progress; withdraw again once they finish.",
                left,
            ) % {"left": left}
        messages.success(request, text)

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        if change:
            return
        grant = services.quota_grant(
            # A user created outside sign-up (e.g. createsuperuser) gets the account here.
            account=services.quota_account_for(user=form.cleaned_data["user"]),
            amount=form.cleaned_data["amount"],
            source=QuotaGrant.Source.STAFF,
            actor=request.user,
            expires_at=form.cleaned_data.get("expires_at"),
            note=form.cleaned_data.get("note") or "",
        )
        # The admin names and links the new grant from `obj`: make it the row just written.
        for field in QuotaGrant._meta.concrete_fields:
            setattr(obj, field.attname, getattr(grant, field.attname))
        obj._state.adding = False
        messages.success(
            request,
            ngettext(
                "Granted %(amount)s credit to %(user)s.",
                "Granted %(amount)s credits to %(user)s.",
                grant.amount,
            )
            % {"amount": grant.amount, "user": grant.account.user},
        )


class OwnerTypeFilter(admin.SimpleListFilter):
    """Owner types in words ("Room turn"), as charges' ledger descriptions name them."""

    title = Reservation._meta.get_field("owner_type").verbose_name
    parameter_name = "owner_type"

    def lookups(self, request, model_admin):
        owner_types = (
            Reservation.objects.order_by("owner_type")
            .values_list("owner_type", flat=True)
            .distinct()
        )
        return [(code, owner_type_label(code) or _("No owner")) for code in owner_types]

    def queryset(self, request, queryset):
        if self.value() is None:
            return queryset
        return queryset.filter(owner_type=self.value())


@admin.register(Reservation)
class ReservationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    # Fits a 1440 px screen beside the admin's sidebar, as the grant list does: short headings
    # and dates, newest first. When it was made and its owner (in the key: a room turn's is its
    # job id) are on its page.
    list_display = ("key", "user", "amount", "reservation_status", "charged", "held_until")
    list_filter = (ReservationStatusFilter, OwnerTypeFilter)
    search_fields = ("key", "user__email", "owner_id")
    # Not editable fields, so the page lists them only when named.
    readonly_fields = ("created_at", "owner_in_words", "reservation_status")
    fields = (
        "account",
        "user",
        "key",
        "amount",
        "reservation_status",
        "settled_amount",
        "owner_in_words",
        "owner_id",
        "created_at",
        "ttl_seconds",
        "heartbeat_at",
        "expires_at",
        "closed_at",
        "close_reason",
    )

    reservation_status = capitalised_choice_column(Reservation, "status", "reservation_status")

    # In words, as the owner filter names it, not the stored code ("room_turn").
    @admin.display(description=Reservation._meta.get_field("owner_type").verbose_name)
    def owner_in_words(self, obj):
        return owner_type_label(obj.owner_type) if obj.owner_type else _("No owner")

    @admin.display(description=_("Charged"), ordering="settled_amount")
    def charged(self, obj):
        return obj.settled_amount

    @admin.display(description=_("Held until"), ordering="expires_at")
    def held_until(self, obj):
        return moment_in_a_column(obj.expires_at)


class LedgerAllocationInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = LedgerAllocation
    fields = ("grant", "amount")
    readonly_fields = ("grant", "amount")
    extra = 0

    def get_queryset(self, request):
        # Each row's title names its grant (LedgerAllocation.__str__): one query for them all.
        return super().get_queryset(request).select_related("grant")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Append-only: no add, change or delete, even for superusers."""

    # Fits a 1440 px screen beside the admin's sidebar: a short date that links to the entry
    # (newest first, as its id), and the reservation a charge settled by its key, linked.
    list_display = ("when", "account", "entry_kind", "amount", "balance_after", "settled")
    list_display_links = ("when",)
    readonly_fields = ("id", "created_at", "entry_kind", "described")
    fields = (
        "id",
        "created_at",
        "account",
        "entry_kind",
        "amount",
        "balance_after",
        "reservation",
        "grant",
        "described",
    )
    list_select_related = ("account__user", "reservation")
    list_filter = (LedgerKindFilter,)
    search_fields = ("account__user__email", "reservation__key")
    inlines = [LedgerAllocationInline]

    class Media:
        css = {"all": ("quota/admin.css",)}

    @admin.display(description=_("When"), ordering="id")
    def when(self, obj):
        return moment_in_a_column(obj.created_at)

    entry_kind = capitalised_choice_column(LedgerEntry, "kind", "entry_kind")

    @admin.display(description=LedgerEntry._meta.get_field("description").verbose_name)
    def described(self, obj):
        # Older charges store the owner code ("room_turn"): shown in words as newer ones are.
        return obj.description_in_words

    @admin.display(description=_("Reservation"))
    def settled(self, obj):
        if obj.reservation is None:
            return None
        url = reverse("admin:quota_reservation_change", args=[obj.reservation.pk])
        return format_html('<a href="{}">{}</a>', url, obj.reservation.key)
