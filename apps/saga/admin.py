from django.contrib import admin
from django.contrib.admin.views.main import ChangeList

from apps.core.admin import MomentColumnsMixin

from .models import OpsMemoryEntry, Saga, SagaArtifact, SagaEvent


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SagaEventInline(ReadOnlyInline):
    model = SagaEvent
    fields = ("sequence", "type", "ts", "payload")
    readonly_fields = fields
    ordering = ("sequence",)


class SagaArtifactInline(ReadOnlyInline):
    model = SagaArtifact
    fields = ("path", "size", "updated_at")
    readonly_fields = fields

    def get_queryset(self, request):
        # Up to 1 MiB of content per row that the inline never shows.
        return super().get_queryset(request).defer("content")


class DeferringChangeList(ChangeList):
    """A list page that leaves out the admin's `list_defer` columns (big JSON and text)."""

    def get_queryset(self, request, exclude_parameters=None):
        queryset = super().get_queryset(request, exclude_parameters)
        return queryset.defer(*self.model_admin.list_defer)


class ReadOnlyAdmin(MomentColumnsMixin, admin.ModelAdmin):
    list_defer: tuple[str, ...] = ()

    def get_changelist(self, request, **kwargs):
        return DeferringChangeList

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Saga)
class SagaAdmin(ReadOnlyAdmin):
    list_display = ("key", "owner", "profile", "status", "version", "last_sequence", "created_at")
    list_filter = ("status", "profile")
    search_fields = ("key", "goal", "owner__email")
    list_select_related = ("owner",)
    list_defer = ("state", "goal")
    readonly_fields = (
        "key",
        "owner",
        "profile",
        "status",
        "goal",
        "version",
        "last_sequence",
        "state",
        "created_at",
        "updated_at",
    )
    fields = readonly_fields
    inlines = [SagaEventInline, SagaArtifactInline]


@admin.register(SagaArtifact)
class SagaArtifactAdmin(ReadOnlyAdmin):
    list_display = ("path", "saga", "size", "updated_at")
    search_fields = ("path", "saga__key")
    list_select_related = ("saga",)
    list_defer = ("content", "saga__state", "saga__goal")
    readonly_fields = ("saga", "path", "size", "content", "created_at", "updated_at")
    fields = readonly_fields


@admin.register(OpsMemoryEntry)
class OpsMemoryEntryAdmin(ReadOnlyAdmin):
    list_display = ("day", "owner", "saga")
    readonly_fields = ("day", "owner", "saga", "text")
    fields = readonly_fields
