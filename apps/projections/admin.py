from django.contrib import admin

from .models import OutboxEvent


@admin.register(OutboxEvent)
class OutboxEventAdmin(admin.ModelAdmin):
    list_display = ("id", "event_type", "campaign_id", "created_at", "dispatched_at", "attempts")
    # Given-up rows are the ones with an error.
    list_filter = ("event_type", ("error", admin.EmptyFieldListFilter))
    search_fields = ("campaign_id",)
    readonly_fields = [f.name for f in OutboxEvent._meta.fields]

    # Rows are written with the change they announce, never by hand.
    def has_add_permission(self, request):
        return False
