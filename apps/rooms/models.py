import hashlib

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.core.models import BaseModel

MAX_PRIVATE_RECIPIENTS = 32
MAX_BODY_LENGTH = 4000
# An action's message takes its client id from the job's key under these prefixes; a chat
# message may not claim one, so a chat id never blocks a later action key.
RESERVED_CLIENT_ID_PREFIXES = ("turn:", "turn#")
# The room's two posting endpoints (messages and actions) share one Idempotency-Key space per
# user: a chat's stored response and an action's hold are rows of this scope, whose unique
# (user, scope, key) gives a key to one request whichever endpoint came first.
POST_SCOPE = "rooms.message_post"
# An action's hold (its result is its job) in place of a request hash, matching no chat's.
ACTION_KEY_HOLD = hashlib.sha256(b"rooms.message_post:action").hexdigest()


class Room(BaseModel):
    """One live room per campaign; `last_sequence` is the counter every entry takes from."""

    campaign = models.OneToOneField(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="room"
    )
    last_sequence = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("room")
        constraints = [
            models.CheckConstraint(
                condition=Q(last_sequence__gte=0), name="rooms_room_sequence_nonnegative"
            ),
        ]

    def __str__(self) -> str:
        return f"room of {self.campaign_id}"


class Message(BaseModel):
    """A timeline entry: a member's message or a room event, in one sequence space per room."""

    class Kind(models.TextChoices):
        MESSAGE = "message", _("message")
        EVENT = "event", _("event")

    class Mode(models.TextChoices):
        CHAT = "chat", _("chat")
        ACTION = "action", _("action")
        NARRATION = "narration", _("narration")

    class Audience(models.TextChoices):
        PUBLIC = "public", _("everyone")
        GM = "gm", _("GM only")
        PRIVATE = "private", _("private")

    # Indexed by the unique (room, sequence) below.
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, related_name="messages", db_index=False
    )
    sequence = models.BigIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.MESSAGE)
    mode = models.CharField(max_length=12, choices=Mode.choices, blank=True)
    event_type = models.CharField(max_length=80, blank=True)
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="room_messages",
    )
    body = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    audience = models.CharField(max_length=10, choices=Audience.choices)
    # Chosen by the client; a resubmission with the same id returns the first message.
    client_message_id = models.CharField(max_length=160, null=True, blank=True)  # noqa: DJ001
    # NULL (events) stays out of the partial unique constraint; "" would collide.

    class Meta:
        ordering = ["room", "sequence"]
        verbose_name = _("room message")
        constraints = [
            models.UniqueConstraint(
                fields=["room", "sequence"], name="rooms_message_room_sequence"
            ),
            models.UniqueConstraint(
                fields=["room", "sender", "client_message_id"],
                condition=Q(client_message_id__isnull=False),
                name="rooms_message_room_sender_client_id",
            ),
            models.CheckConstraint(condition=Q(sequence__gt=0), name="rooms_message_sequence_pos"),
            models.CheckConstraint(
                condition=(Q(kind="message") & ~Q(mode="") & Q(event_type=""))
                | (Q(kind="event") & Q(mode="") & ~Q(event_type="")),
                name="rooms_message_kind_shape",
            ),
            models.CheckConstraint(
                condition=Q(audience__in=["public", "gm", "private"]),
                name="rooms_message_audience_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.kind} in {self.room_id}"


class MessageRecipient(models.Model):
    """A member a private entry is addressed to."""

    id = models.BigAutoField(primary_key=True)
    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="recipient_links")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["message", "user"], name="rooms_recipient_message_user"
            ),
        ]
        indexes = [models.Index(fields=["user", "message"], name="rooms_recipient_user_msg")]

    def __str__(self) -> str:
        return f"{self.user_id} <- {self.message_id}"


class ReadCursor(BaseModel):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="read_cursors")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    last_read_sequence = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("read cursor")
        constraints = [
            models.UniqueConstraint(fields=["room", "user"], name="rooms_readcursor_room_user"),
        ]


class Presence(models.Model):
    """One open socket; a user is present while any of their sockets has a fresh heartbeat."""

    id = models.BigAutoField(primary_key=True)
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="presences")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["room", "last_seen"], name="rooms_presence_room_seen")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.room_id}"
