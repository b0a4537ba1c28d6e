from django.contrib import admin
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .models import OutboxEvent


class OutboxStateFilter(admin.SimpleListFilter):
    """Where a row stands: still to send, sent, or given up (done, with the reason in `error`)."""

    title = _("state")
    parameter_name = "state"
    CONDITIONS = {
        "pending": Q(dispatched_at__isnull=True),
        "published": Q(dispatched_at__isnull=False, error=""),
        "given_up": Q(dispatched_at__isnull=False) & ~Q(error=""),
    }

    def lookups(self, request, model_admin):
        return [
            ("pending", _("Pending")),
            ("published", _("Published")),
            ("given_up", _("Given up")),
        ]

    def queryset(self, request, queryset):
        condition = self.CONDITIONS.get(self.value())
        return queryset if condition is None else queryset.filter(condition)


@admin.register(OutboxEvent)
class OutboxEventAdmin(admin.ModelAdmin):
    list_display = (
        "id", "event_type", "campaign_id", "created_at", "dispatched_at", "attempts", "error",
    )  # fmt: skip
    list_filter = (OutboxStateFilter, "event_type")
    search_fields = ("campaign_id",)
    readonly_fields = [f.name for f in OutboxEvent._meta.fields]

    # Rows are written with the change they announce, never by hand.
    def has_add_permission(self, request):
        return False
