import uuid

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.core.models import BaseModel


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create(self, email, password, **extra):
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create(email, password, **extra)


EMAIL_IN_USE_ANY_CASE = _("Another account already uses this email address (in any letter case).")


class User(AbstractBaseUser, PermissionsMixin):
    """An account identified by email; `id` is the principal sent to domain servers."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    email = models.EmailField(_("email address"), unique=True)
    display_name = models.CharField(_("display name"), max_length=80, blank=True)
    is_staff = models.BooleanField(_("staff"), default=False)
    is_active = models.BooleanField(_("active"), default=True)
    date_joined = models.DateTimeField(default=timezone.now)
    terms_version = models.CharField(max_length=32, blank=True)
    privacy_version = models.CharField(max_length=32, blank=True)
    terms_accepted_at = models.DateTimeField(null=True, blank=True)
    deactivated_at = models.DateTimeField(null=True, blank=True)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        verbose_name = _("user")
        ordering = ["email"]
        constraints = [
            # One account per mailbox: sign-in and password reset look the address up in any
            # case, so a second spelling would be a second account nobody can tell apart.
            models.UniqueConstraint(
                Lower("email"),
                name="accounts_user_email_ci_unique",
                violation_error_message=EMAIL_IN_USE_ANY_CASE,
            ),
        ]

    def __str__(self) -> str:
        return self.email

    @property
    def label(self) -> str:
        """The name other players see: never part of the email, which is not theirs to read."""
        # Role-neutral: the same name serves a game master or an observer in every campaign.
        return self.display_name or gettext("Member %(code)s") % {"code": self.id.hex[:6].upper()}


class RegistrationInvite(BaseModel):
    """A staff-issued sign-up link; only the token's hash is stored."""

    token_hash = models.CharField(max_length=64, unique=True)
    email = models.EmailField(blank=True, help_text=_("If set, only this address may use it."))
    note = models.CharField(max_length=200, blank=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveIntegerField(default=1)
    used_count = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("registration invite")
        constraints = [
            models.CheckConstraint(
                condition=Q(max_uses__gte=1), name="reginvite_max_uses_positive"
            ),
            models.CheckConstraint(
                condition=Q(used_count__lte=F("max_uses")), name="reginvite_used_within_max"
            ),
        ]

    def __str__(self) -> str:
        # Staff read it as a heading and in breadcrumbs: the short id tells invites apart.
        return gettext("Invite %(id)s (%(used)s of %(max)s used)") % {
            "id": str(self.id)[:8],
            "used": self.used_count,
            "max": self.max_uses,
        }

    @property
    def is_usable(self) -> bool:
        return (
            self.revoked_at is None
            and self.expires_at > timezone.now()
            and self.used_count < self.max_uses
        )


class RegistrationInviteUse(BaseModel):
    invite = models.ForeignKey(RegistrationInvite, on_delete=models.CASCADE, related_name="uses")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registration_invite_use"
    )


class LegalAcceptance(BaseModel):
    """Each acceptance of the terms and privacy policy, kept as history."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="legal_acceptances"
    )
    terms_version = models.CharField(max_length=32)
    privacy_version = models.CharField(max_length=32)
    ip_address = models.GenericIPAddressField(null=True, blank=True)


class UserSession(BaseModel):
    """A signed-in browser session, so users can see and end their other sessions."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="browser_sessions"
    )
    session_key = models.CharField(max_length=40, unique=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)
    last_seen_at = models.DateTimeField(default=timezone.now)

    @property
    def device(self) -> str:
        """ "Firefox on Windows": enough to tell sessions apart (the full string is kept)."""
        return device_label(self.user_agent)


# Checked in order: Edge and Opera also say Chrome, Chrome also says Safari, Android says Linux.
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
             ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Chromium/", "Chromium"),
             ("Safari/", "Safari"))  # fmt: skip
_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
            ("Windows", "Windows"), ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"),
            ("Linux", "Linux"))  # fmt: skip


def device_label(user_agent: str) -> str:
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "")
    if browser and system:
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser or system or user_agent[:48]


class ApiToken(BaseModel):
    """A personal bearer token for API/MCP clients; only the hash is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=80)
    prefix = models.CharField(max_length=12)
    token_hash = models.CharField(max_length=64, unique=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        # Spelled out: the admin would capitalise the class name's words to "Api tokens".
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
