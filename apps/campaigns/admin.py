"""Staff see campaigns read-only: membership changes go through the domain authority first,
so admin must not write projections behind the domain server's back."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from apps.core.admin import (
    MomentColumnsMixin,
    capitalised_choice_column,
    capitalised_choices_filter,
)

from .models import (
    ActorBinding,
    Campaign,
    CampaignInvite,
    CampaignMembership,
    JoinRequest,
    phase_in_words,
)
from .selectors import system_label


class ReadOnlyAdmin(MomentColumnsMixin, admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    # The list's columns in words ({field: column}), shown on the page in their fields' place:
    # "Active" for the stored "active".
    columns_in_words: dict[str, str] = {}

    def get_readonly_fields(self, request, obj=None):
        return (*super().get_readonly_fields(request, obj), *self.columns_in_words.values())

    def get_fields(self, request, obj=None):
        columns = set(self.columns_in_words.values())
        return [
            self.columns_in_words.get(name, name)
            for name in super().get_fields(request, obj)
            if name not in columns
        ]


StatusFilter = capitalised_choices_filter("status")


def status_column(model, name):
    """A list column naming the row's status with a capital, sorted by it."""
    return capitalised_choice_column(model, "status", name)


def words_filter(field_name: str, words) -> type[admin.SimpleListFilter]:
    """A list filter offering the values campaigns hold, each named by `words(value)` and in
    the order of those names."""

    class WordsFilter(admin.SimpleListFilter):
        title = Campaign._meta.get_field(field_name).verbose_name
        parameter_name = field_name

        def lookups(self, request, model_admin):
            values = (
                model_admin.get_queryset(request)
                .order_by()
                .values_list(field_name, flat=True)
                .distinct()
            )
            return sorted(((value, words(value)) for value in values), key=lambda pair: pair[1])

        def queryset(self, request, queryset):
            if self.value() is None:
                return queryset
            return queryset.filter(**{field_name: self.value()})

    return WordsFilter


class MembershipInline(admin.TabularInline):
    model = CampaignMembership
    fields = ("user", "role", "membership_status", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    membership_status = status_column(CampaignMembership, "membership_status")

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        # Each row shows its user: one query for them all, not one per member.
        return super().get_queryset(request).select_related("user")


@admin.register(Campaign)
class CampaignAdmin(ReadOnlyAdmin):
    list_display = (
        "name",
        "system",
        "owner",
        "campaign_status",
        "campaign_phase",
        "authority_revision",
        "created_at",
    )
    list_filter = (
        words_filter("system_id", lambda system_id: system_label(system_id=system_id)),
        StatusFilter,
        words_filter("phase", phase_in_words),
    )
    search_fields = ("name", "owner__email", "id")
    inlines = [MembershipInline]
    columns_in_words = {
        "system_id": "system",
        "status": "campaign_status",
        "phase": "campaign_phase",
    }
    campaign_status = status_column(Campaign, "campaign_status")

    # The system as players choose it and the phase as the room names it, not their codes.
    @admin.display(description=Campaign._meta.get_field("system_id").verbose_name,
                   ordering="system_id")  # fmt: skip
    def system(self, obj):
        return system_label(system_id=obj.system_id)

    @admin.display(description=Campaign._meta.get_field("phase").verbose_name, ordering="phase")
    def campaign_phase(self, obj):
        return obj.phase_label


@admin.register(CampaignInvite)
class CampaignInviteAdmin(ReadOnlyAdmin):
    list_display = (
        "campaign",
        "mode",
        "role",
        "times_used",
        "max_uses",
        "expires_at",
        "revoked_at",
        "created_by",
    )
    list_filter = ("mode",)
    # Never the token's hash. The uses are labelled here: the field has no name in words.
    fields = (
        "campaign",
        "created_by",
        "mode",
        "role",
        "expires_at",
        "max_uses",
        "times_used",
        "revoked_at",
    )
    readonly_fields = ("times_used",)

    @admin.display(description=_("times used"), ordering="used_count")
    def times_used(self, obj):
        return obj.used_count


@admin.register(JoinRequest)
class JoinRequestAdmin(ReadOnlyAdmin):
    list_display = (
        "campaign",
        "user",
        "role",
        "request_status",
        "decided_by",
        "decided_at",
        "created_at",
    )
    # The default select_related() follows no nullable key: decided_by cost a query per row.
    list_select_related = ("campaign", "user", "decided_by")
    list_filter = (StatusFilter,)
    columns_in_words = {"status": "request_status"}
    request_status = status_column(JoinRequest, "request_status")


@admin.register(ActorBinding)
class ActorBindingAdmin(ReadOnlyAdmin):
    list_display = (
        "campaign",
        "user",
        "character_id",
        "character_name",
        "can_control",
        "can_view_private",
        "binding_status",
    )
    list_filter = (StatusFilter,)
    columns_in_words = {"status": "binding_status"}
    binding_status = status_column(ActorBinding, "binding_status")
