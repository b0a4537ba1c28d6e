"""Saga storage: one state row per saga, an append-only event log, and artifacts."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.core.models import BaseModel


class Saga(BaseModel):
    """A long task: the coordinator's state document plus a version bumped on every write."""

    class Profile(models.TextChoices):
        OPS = "ops", _("Ops")
        RESEARCH = "research", _("Research")
        CURATION = "curation", _("Curation")
        REVIEW = "review", _("Review")
        GENERIC = "generic", _("Generic")

    class Status(models.TextChoices):
        CLARIFYING = "clarifying", _("Clarifying")
        PLANNING = "planning", _("Awaiting plan")
        RUNNING = "running", _("Running")
        EVALUATING = "evaluating", _("Awaiting evaluation")
        RECOVERING = "recovering", _("Recovering")
        AWAITING_HUMAN = "awaiting_human", _("Awaiting human")
        COMPLETED = "completed", _("Completed")
        TERMINATED = "terminated", _("Terminated")

    key = models.CharField(_("saga id"), max_length=40, unique=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sagas"
    )
    profile = models.CharField(max_length=16, choices=Profile.choices)
    goal = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, db_index=True)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    last_sequence = models.PositiveIntegerField(default=0)
    # The client's requestId on saga_start: a retried start finds this saga instead of
    # creating a second one. Empty when the client sent none.
    request_id = models.CharField(max_length=100, blank=True, default="")
    # "<digest of the last workerFinished that passed its stage>:<last_sequence after it>":
    # the same call again, with nothing recorded since, is a retry after a lost response.
    finish_key = models.CharField(max_length=80, blank=True, default="")

    class Meta:
        verbose_name = _("saga")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "request_id"],
                condition=~Q(request_id=""),
                name="saga_owner_request_id_unique",
            ),
            models.CheckConstraint(
                condition=Q(profile__in=["ops", "research", "curation", "review", "generic"]),
                name="saga_profile_known",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="saga_version_positive"),
        ]
        indexes = [models.Index(fields=["owner", "status"], name="saga_owner_status")]

    def __str__(self) -> str:
        return self.key


class SagaEvent(models.Model):
    """One append-only event; (saga, sequence) is the log order."""

    id = models.BigAutoField(primary_key=True)
    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    ts = models.DateTimeField()
    payload = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("saga event")
        ordering = ["saga", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["saga", "sequence"], name="saga_event_saga_sequence"),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="saga_event_sequence_pos"),
        ]

    def __str__(self) -> str:
        return f"{self.saga_id}#{self.sequence} {self.type}"

    def as_event(self, saga_key: str) -> dict:
        from .state import iso_ts

        return {"type": self.type, "sagaId": saga_key, "ts": iso_ts(self.ts), **self.payload}


class SagaArtifact(BaseModel):
    """A file the worker submitted, keyed by its relative path inside the saga."""

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="artifacts")
    path = models.CharField(max_length=255)
    content = models.TextField(blank=True)
    size = models.PositiveIntegerField(help_text=_("UTF-8 bytes."))

    class Meta:
        verbose_name = _("saga artifact")
        ordering = ["saga", "path"]
        constraints = [
            models.UniqueConstraint(fields=["saga", "path"], name="saga_artifact_saga_path"),
            models.CheckConstraint(
                condition=~Q(path="") & ~Q(path__startswith="/"), name="saga_artifact_path_relative"
            ),
        ]

    def __str__(self) -> str:
        return self.path


class SagaDiagnostics(BaseModel):
    """What the worker reported about a failed attempt (searched terms, URLs, errors)."""

    saga = models.ForeignKey(Saga, on_delete=models.CASCADE, related_name="diagnostics")
    stage_id = models.CharField(max_length=40)
    attempt = models.PositiveIntegerField()
    payload = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("saga diagnostics")
        verbose_name_plural = _("saga diagnostics")
        constraints = [
            models.UniqueConstraint(
                fields=["saga", "stage_id", "attempt"], name="saga_diag_saga_stage_attempt"
            ),
        ]


class OpsMemoryEntry(BaseModel):
    """The ops profile's memory: one entry per completed ops saga, grouped by day."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saga_memory_entries"
    )
    saga = models.OneToOneField(Saga, on_delete=models.CASCADE, related_name="memory_entry")
    day = models.DateField(db_index=True)
    text = models.TextField()

    class Meta:
        verbose_name = _("ops memory entry")
        verbose_name_plural = _("ops memory entries")
        ordering = ["day", "created_at"]
