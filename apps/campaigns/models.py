"""Campaign projections: the domain server is the authority, these rows mirror what it accepted."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.core.models import BaseModel

# The room event telling open room pages a campaign's new name (payload: name, name_revision).
CAMPAIGN_RENAMED = "campaign.renamed"

# The words for the phases the game systems use (Campaign.phase holds the code the rules
# server reports); a phase not named here reads as its code in words ("short_rest": "Short rest").
PHASE_LABELS = {
    "lobby": _("Lobby"),
    "play": _("Play"),
    "combat": _("Combat"),
}


def phase_in_words(phase: str) -> str:
    """A phase as users read it, translated; a sentence that embeds it uses |lower."""
    label = PHASE_LABELS.get(phase)
    return str(label) if label else phase.replace("_", " ").capitalize()


class Campaign(BaseModel):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        ARCHIVED = "archived", _("archived")

    name = models.CharField(_("name"), max_length=120)
    system_id = models.CharField(_("system"), max_length=64)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_campaigns"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    authority_revision = models.BigIntegerField(default=0)
    # The authority revision of the rename that set `name` (0: the name it was created with):
    # of two renames that overlap, the one the rules server applied last names the campaign
    # here too, whichever commits last.
    name_revision = models.BigIntegerField(default=0)
    # Moves on with every change of who may read the room (access_changed); each room entry
    # carries the value it was written under, so a socket that read access before it reads
    # again before delivering (see RoomConsumer.room_entry).
    access_version = models.BigIntegerField(default=0)
    authority_receipt = models.JSONField(default=dict, blank=True)
    phase = models.CharField(_("phase"), max_length=40, default="lobby")
    # The API Idempotency-Key (or form token) the campaign was created with, per owner.
    creation_key = models.CharField(max_length=160, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("campaign")
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "creation_key"],
                condition=~Q(creation_key=""),
                name="campaigns_campaign_owner_creation_key",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def domain_id(self) -> str:
        return str(self.id)

    @property
    def phase_label(self) -> str:
        """The phase as users read it, translated; a sentence that embeds it uses |lower."""
        return phase_in_words(self.phase)


class CampaignMembership(BaseModel):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        GM = "gm", _("GM")
        PLAYER = "player", _("Player")
        OBSERVER = "observer", _("Observer")

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        # Removed by a GM: an auto-join link no longer admits them without a GM's approval.
        REMOVED = "removed", _("removed")
        LEFT = "left", _("left")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    # The start of the current membership: a member who comes back keeps their row.
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("campaign membership")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"], name="campaigns_membership_campaign_user"
            ),
            # The owner's role is given at creation and never granted: a second would be a
            # second owner, whom removal, archiving and role changes do not expect.
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(role="owner"),
                name="campaigns_membership_one_owner",
            ),
        ]

    def __str__(self) -> str:
        # Staff read it as a row's title on the campaign's page: the short id tells rows apart.
        # The status with a capital, as the row's Status column and the role beside it read.
        return gettext("Membership %(id)s (%(role)s, %(status)s)") % {
            "id": str(self.id)[:8],
            "role": self.get_role_display(),
            "status": capfirst(self.get_status_display()),
        }

    @property
    def is_manager(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.GM)


class CampaignInvite(BaseModel):
    """A shareable join link; only the token's SHA-256 is stored, the link is shown once."""

    class Mode(models.TextChoices):
        REQUEST = "request", _("Request to join")
        AUTO_JOIN = "auto_join", _("Join automatically")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices)
    role = models.CharField(
        _("role"),
        max_length=10,
        choices=[
            (CampaignMembership.Role.PLAYER, _("Player")),
            (CampaignMembership.Role.OBSERVER, _("Observer")),
        ],
        default=CampaignMembership.Role.PLAYER,
    )
    expires_at = models.DateTimeField(_("expires at"))
    max_uses = models.PositiveIntegerField(_("maximum uses"), default=1)
    used_count = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("campaign invite")
        constraints = [
            models.CheckConstraint(
                condition=Q(used_count__lte=models.F("max_uses")),
                name="campaigns_invite_used_lte_max",
            ),
            models.CheckConstraint(
                condition=Q(max_uses__gte=1) & Q(max_uses__lte=100),
                name="campaigns_invite_max_uses_1_100",
            ),
            models.CheckConstraint(
                condition=Q(role__in=["player", "observer"]),
                name="campaigns_invite_role_player_or_observer",
            ),
        ]

    def __str__(self) -> str:
        # Staff read it as a heading and in breadcrumbs, as accounts invites are named: the short
        # id tells invites apart. One sentence per mode, so translators word each whole.
        if self.mode == self.Mode.AUTO_JOIN:
            name = gettext("Invite %(id)s (joins automatically, %(used)s of %(max)s used)")
        else:
            name = gettext("Invite %(id)s (request to join, %(used)s of %(max)s used)")
        return name % {"id": str(self.id)[:8], "used": self.used_count, "max": self.max_uses}


class JoinRequest(BaseModel):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_join_requests"
    )
    invite = models.ForeignKey(
        CampaignInvite, null=True, on_delete=models.SET_NULL, related_name="join_requests"
    )
    role = models.CharField(max_length=10, choices=CampaignMembership.Role.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    message = models.CharField(_("message"), max_length=300, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("join request")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"],
                condition=Q(status="pending"),
                name="campaigns_joinrequest_one_pending",
            ),
            # Approving it would make a second owner.
            models.CheckConstraint(
                condition=~Q(role="owner"), name="campaigns_joinrequest_role_not_owner"
            ),
        ]

    def __str__(self) -> str:
        # Staff read it as a heading and in breadcrumbs, as invites are named.
        return gettext("Join request %(id)s (%(status)s)") % {
            "id": str(self.id)[:8],
            "status": self.get_status_display(),
        }


class ActorBinding(BaseModel):
    """Which user controls (or may see the private sheet of) which domain character."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        REMOVED = "removed", _("removed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="bindings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="actor_bindings"
    )
    character_id = models.CharField(_("character"), max_length=64)
    character_name = models.CharField(_("character name"), max_length=120, blank=True)
    # Follows CharacterControl: true exactly for the active binding of the named controller.
    can_control = models.BooleanField(default=False)
    can_view_private = models.BooleanField(default=True)
    # Control a demotion to observer took: it comes back when the member plays again, if
    # nobody took the character meanwhile (a binding made without control never gains it).
    control_on_return = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("actor binding")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "character_id", "user"],
                name="campaigns_binding_campaign_character_user",
            ),
            # The domain server knows one controller per character.
            models.UniqueConstraint(
                fields=["campaign", "character_id"],
                condition=models.Q(status="active", can_control=True),
                name="campaigns_binding_one_controller",
            ),
        ]

    def __str__(self) -> str:
        # Staff read it as a heading and in breadcrumbs, as invites are named.
        return gettext("Binding %(id)s (%(character)s)") % {
            "id": str(self.id)[:8],
            "character": self.character_name or self.character_id,
        }


class CharacterControl(models.Model):
    """Who the domain server names as a character's controller, as of an authority revision.

    Each domain write or read that shows the controller is recorded here; the newest revision
    wins whatever order the records arrive in, and the character's bindings' `can_control`
    follows it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="controls")
    character_id = models.CharField(_("character"), max_length=64)
    controller = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    revision = models.PositiveBigIntegerField()

    class Meta:
        verbose_name = _("character control")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "character_id"], name="campaigns_control_campaign_character"
            ),
        ]

    def __str__(self) -> str:
        # Staff and logs read it as a sentence: the names players know, the id only for a
        # character nobody named. No controller: only the GM plays it.
        bindings = ActorBinding.objects.filter(
            campaign_id=self.campaign_id, character_id=self.character_id
        )
        character = (
            bindings.exclude(character_name="").values_list("character_name", flat=True).first()
        ) or self.character_id
        if self.controller_id is None:
            text = gettext("The GM alone controls %(character)s (revision %(revision)s)")
            return text % {"character": character, "revision": self.revision}
        return gettext("%(controller)s controls %(character)s (revision %(revision)s)") % {
            "controller": self.controller.label,
            "character": character,
            "revision": self.revision,
        }
