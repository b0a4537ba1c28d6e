from django.contrib import admin, messages
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from apps.core.admin import MomentColumnsMixin

from .models import OutboxEvent
from .services import outbox_send_again


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
class OutboxEventAdmin(MomentColumnsMixin, admin.ModelAdmin):
    list_display = (
        "id", "event_type", "campaign_id", "created_at", "dispatched_at", "attempts", "error",
    )  # fmt: skip
    list_filter = (OutboxStateFilter, "event_type")
    search_fields = ("campaign_id",)
    readonly_fields = [f.name for f in OutboxEvent._meta.fields]

    actions = ("send_again",)

    # Rows are written with the change they announce, never by hand.
    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Send given-up rows again"), permissions=["change"])
    def send_again(self, request, queryset):
        count = outbox_send_again(
            ids=list(queryset.values_list("id", flat=True)), actor=request.user
        )
        if not count:
            self.message_user(
                request, _("None of the selected rows was given up; nothing changed."),
                messages.WARNING,
            )  # fmt: skip
            return
        self.message_user(
            request,
            ngettext(
                "%(count)d given-up row put back to pending; it is published again within seconds.",
                "%(count)d given-up rows put back to pending; they are published again within "
                "seconds.",
                count,
            )
            % {"count": count},
            messages.SUCCESS,
        )
