"""Room turn jobs, their operation journal, media artifacts and panel projections."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.core.models import BaseModel


class RoomTurnJob(BaseModel):
    """One player action run by the agent: queued -> running -> succeeded | waiting | failed |
    cancelled (architecture.md section 5). A job row is the only owner of its reservation."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        WAITING = "waiting", _("waiting")
        SUCCEEDED = "succeeded", _("succeeded")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")

    ACTIVE_STATUSES = ("queued", "running", "waiting")
    FINAL_STATUSES = ("succeeded", "failed", "cancelled")

    # Foreign keys and times without their own index: the composite indexes and the unique
    # (requester, key) below lead with them, and every index is written on each claim and end.
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="turn_jobs", db_index=False
    )
    requester = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_jobs",
        db_index=False,
    )  # fmt: skip
    trigger_message = models.OneToOneField(
        "rooms.Message", on_delete=models.PROTECT, related_name="turn_job"
    )
    idempotency_key = models.CharField(max_length=160)
    request_hash = models.CharField(max_length=64)
    task = models.CharField(max_length=20, default="action")
    text = models.TextField()
    trigger_audience = models.CharField(max_length=10, default="public")
    trigger_recipient_ids = models.JSONField(default=list, blank=True)
    # The character the requester chose to act as (one they control); blank: their first.
    character_id = models.CharField(max_length=64, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    # The revision the client based the action on (checked at enqueue and when tools persist).
    base_revision = models.BigIntegerField(null=True, blank=True)
    # The revision the first attempt started from: every retry sends the same expected_revision,
    # so the domain server replays instead of refusing the idempotency key.
    start_revision = models.BigIntegerField(null=True, blank=True)
    result_revision = models.BigIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=40, blank=True)
    role = models.CharField(max_length=10, blank=True)
    tools = models.JSONField(default=list, blank=True)
    agent_output = models.JSONField(null=True, blank=True)
    # Each agent run's model usage (requests, tokens) by run: "<attempt>", or
    # "<attempt>:narration" for a narration from the journal. Written as it accrues, so the use
    # of an attempt that failed or whose worker died is settled with the rest, each run once.
    model_usage = models.JSONField(default=dict, blank=True)
    attempt = models.PositiveSmallIntegerField(default=0)
    max_attempts = models.PositiveSmallIntegerField(default=3)
    available_at = models.DateTimeField()
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=120, blank=True)
    cancel_requested = models.BooleanField(default=False)
    # Who asked first: the room's note that the turn was cancelled names them.
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    reservation = models.OneToOneField(
        "quota.Reservation", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    charged = models.PositiveIntegerField(null=True, blank=True)
    error_code = models.CharField(max_length=80, blank=True)
    error_message = models.TextField(blank=True)
    retryable = models.BooleanField(default=False)
    recovery = models.CharField(max_length=300, blank=True)
    traceparent = models.CharField(max_length=60, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("room turn job")
        constraints = [
            models.UniqueConstraint(
                fields=["requester", "idempotency_key"], name="turns_job_requester_key"
            ),
            models.CheckConstraint(
                condition=Q(
                    status__in=["queued", "running", "waiting", "succeeded", "failed", "cancelled"]
                ),  # fmt: skip
                name="turns_job_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(attempt__lte=models.F("max_attempts")),
                name="turns_job_attempt_lte_max",
            ),
        ]
        indexes = [
            models.Index(fields=["campaign", "status"], name="turns_job_campaign_status"),
            models.Index(fields=["status", "available_at"], name="turns_job_status_available"),
        ]

    def __str__(self) -> str:
        return f"turn {self.id} ({self.status})"

    @property
    def job_key(self) -> str:
        # The prefix of every idempotency key the job sends: `<job key>:<step>`.
        return f"turn-{self.id}"


class Operation(models.Model):
    """One tool call of a job: `dispatched` is written before the call, `returned` after it
    with the full standard CallToolResult. Recovery replays returned rows, never re-executes.
    `refused`: the domain did not (and will not) commit it. `unknown`: a write the domain may
    have committed but will no longer tell this requester about (refused before its key was
    looked up: they left, or lost the role)."""

    class State(models.TextChoices):
        DISPATCHED = "dispatched", _("dispatched")
        RETURNED = "returned", _("returned")
        REFUSED = "refused", _("refused")
        UNKNOWN = "unknown", _("unknown")

    id = models.BigAutoField(primary_key=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Indexed by the unique (job, step) below.
    job = models.ForeignKey(
        RoomTurnJob, on_delete=models.CASCADE, related_name="operations", db_index=False
    )
    step = models.PositiveIntegerField()
    tool = models.CharField(max_length=80)
    write = models.BooleanField(default=False)
    idempotency_key = models.CharField(max_length=200, blank=True)
    arguments = models.JSONField(default=dict)
    # The other expected revisions this step was sent at (a write refused as stale goes again
    # at a newer one): the domain may have committed any one of them.
    sent_revisions = models.JSONField(default=list, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.DISPATCHED)
    result = models.JSONField(null=True, blank=True)  # the CallToolResult as sent on the wire
    error = models.JSONField(null=True, blank=True)  # a structured domain refusal
    attempt = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["job", "step"]
        verbose_name = _("turn operation")
        constraints = [
            models.UniqueConstraint(fields=["job", "step"], name="turns_operation_job_step"),
        ]

    def __str__(self) -> str:
        return f"{self.job_id}:{self.step} {self.tool} ({self.state})"

    @property
    def receipt(self) -> dict | None:
        if self.state != self.State.RETURNED or not self.result:
            return None
        receipt = (self.result.get("structuredContent") or {}).get("receipt")
        return receipt if isinstance(receipt, dict) else None


class RoomMediaArtifact(BaseModel):
    """An image a tool returned, kept private: served only through an authenticated view to the
    audience it was bound to. Bytes live in the database so every web host can serve what any
    worker host stored."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="turn_artifacts"
    )
    job = models.ForeignKey(
        RoomTurnJob, null=True, blank=True, on_delete=models.CASCADE, related_name="artifacts"
    )
    step = models.PositiveIntegerField(null=True, blank=True)
    content_index = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=20, default="image")
    mime_type = models.CharField(max_length=100)
    size_bytes = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    # "public", "gm" or "private" with recipient_ids, as room messages.
    audience = models.CharField(max_length=10)
    recipient_ids = models.JSONField(default=list, blank=True)
    data = models.BinaryField()

    class Meta:
        verbose_name = _("room media artifact")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "sha256", "audience", "recipient_ids"],
                name="turns_artifact_campaign_sha_audience",
            ),
            models.CheckConstraint(
                condition=Q(audience__in=["public", "gm", "private"]),
                name="turns_artifact_audience_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.mime_type} {self.sha256[:12]}"


class ProjectionSnapshot(BaseModel):
    """A panel's read-tool view for one audience, built from one authority revision."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="projection_snapshots"
    )
    scope = models.CharField(max_length=80)  # the plugin panel key, e.g. "combat"
    audience = models.CharField(max_length=80)  # "gm", "public" or one viewer's "user:<id>"
    authority_revision = models.BigIntegerField()
    data = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("projection snapshot")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "scope", "audience"],
                name="turns_projection_campaign_scope_audience",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scope}/{self.audience}@{self.authority_revision}"
