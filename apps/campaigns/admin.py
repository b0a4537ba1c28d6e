"""Staff see campaigns read-only: membership changes go through the domain authority first,
so admin must not write projections behind the domain server's back."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from apps.core.admin import capitalised_choice_column, capitalised_choices_filter

from .models import ActorBinding, Campaign, CampaignInvite, CampaignMembership, JoinRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    # The list's capitalised status column, shown on the page in the status field's place.
    status_column_name = None

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        if self.status_column_name:
            fields += (self.status_column_name,)
        return fields

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        column = self.status_column_name
        if column:
            fields = [column if name == "status" else name for name in fields if name != column]
        return fields


StatusFilter = capitalised_choices_filter("status")


def status_column(model, name):
    """A list column naming the row's status with a capital, sorted by it."""
    return capitalised_choice_column(model, "status", name)


class MembershipInline(admin.TabularInline):
    model = CampaignMembership
    fields = ("user", "role", "status", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        # Each row shows its user: one query for them all, not one per member.
        return super().get_queryset(request).select_related("user")


@admin.register(Campaign)
class CampaignAdmin(ReadOnlyAdmin):
    list_display = (
        "name",
        "system_id",
        "owner",
        "campaign_status",
        "phase",
        "authority_revision",
        "created_at",
    )
    list_filter = ("system_id", StatusFilter, "phase")
    search_fields = ("name", "owner__email", "id")
    inlines = [MembershipInline]
    status_column_name = "campaign_status"
    campaign_status = status_column(Campaign, "campaign_status")


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
    status_column_name = "request_status"
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
    status_column_name = "binding_status"
    binding_status = status_column(ActorBinding, "binding_status")
