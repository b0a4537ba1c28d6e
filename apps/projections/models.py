from django.db import models
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

ROOM_ENTRY = "room.entry"
ACCESS_REVOKED = "access.revoked"
# The room's announcements other than its entries and access news (state changes, job progress):
# what a page acts on by reading its panels again.
ROOM_EVENTS = ~models.Q(event_type__in=[ROOM_ENTRY, ACCESS_REVOKED])


class JSONTypeOf(models.Func):
    """The JSON type of a value: "object", "array", "null", ... (PostgreSQL and SQLite name a
    string, a number and a boolean differently)."""

    function = "json_type"
    output_field = models.CharField()

    def as_postgresql(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="jsonb_typeof", **extra_context)


class OutboxEvent(models.Model):
    """One change to announce, written in the same transaction as the change itself.

    The id is the publication order. `campaign_id` is a plain UUID, not a foreign key, so an
    announcement survives the row it talks about (a removed membership, a deleted campaign).
    """

    id = models.BigAutoField(primary_key=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    event_type = models.CharField(max_length=80)
    campaign_id = models.UUIDField(db_index=True)
    payload = models.JSONField(default=dict)
    # "public", "gm", or {"users": ["<uuid>", ...]}.
    audience = models.JSONField(default=dict)
    # When the outbox was done with the row: published, or given up (then `error` says why).
    dispatched_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]
        verbose_name = _("outbox event")
        constraints = [
            # A row given up is never pending again (the poller and the sweep would retry it).
            models.CheckConstraint(
                condition=models.Q(error="") | models.Q(dispatched_at__isnull=False),
                name="projections_outbox_given_up_is_done",
            ),
            # Publication reads the payload as an object: any other row would fail every attempt.
            models.CheckConstraint(
                condition=Exact(JSONTypeOf("payload"), "object"),
                name="projections_outbox_payload_is_object",
            ),
        ]
        indexes = [
            models.Index(
                fields=["id"],
                name="projections_outbox_pending",
                condition=models.Q(dispatched_at__isnull=True),
            ),
            # Each socket's heartbeat looks for the room's events it may have missed.
            models.Index(
                fields=["campaign_id", "id"],
                name="projections_outbox_room_events",
                condition=ROOM_EVENTS,
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_type} #{self.id}"
