"""Staff see campaigns read-only: membership changes go through the domain authority first,
so admin must not write projections behind the domain server's back."""

from django.contrib import admin

from .models import ActorBinding, Campaign, CampaignInvite, CampaignMembership, JoinRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


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
        "status",
        "phase",
        "authority_revision",
        "created_at",
    )
    list_filter = ("system_id", "status", "phase")
    search_fields = ("name", "owner__email", "id")
    inlines = [MembershipInline]


@admin.register(CampaignInvite)
class CampaignInviteAdmin(ReadOnlyAdmin):
    list_display = (
        "campaign",
        "mode",
        "role",
        "used_count",
        "max_uses",
        "expires_at",
        "revoked_at",
        "created_by",
    )
    list_filter = ("mode",)
    exclude = ("token_hash",)


@admin.register(JoinRequest)
class JoinRequestAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "user", "role", "status", "decided_by", "decided_at", "created_at")
    # The default select_related() follows no nullable key: decided_by cost a query per row.
    list_select_related = ("campaign", "user", "decided_by")
    list_filter = ("status",)


@admin.register(ActorBinding)
class ActorBindingAdmin(ReadOnlyAdmin):
    list_display = (
        "campaign",
        "user",
        "character_id",
        "character_name",
        "can_control",
        "can_view_private",
        "status",
    )
    list_filter = ("status",)
