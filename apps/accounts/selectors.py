from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import ApiToken, RegistrationInvite, User, UserSession
from .services import hash_token


def legal_acceptance_required(*, user: User) -> bool:
    return (
        user.terms_version != settings.SAGASMITH_TERMS_VERSION
        or user.privacy_version != settings.SAGASMITH_PRIVACY_VERSION
    )


def email_in_use(*, email: str, except_user: User | None = None) -> bool:
    """Whether another user holds this address, in any case: as their sign-in address or as one
    they confirmed. An address someone only added and never confirmed is not theirs: counting
    it would let anyone keep the mailbox's owner from signing up."""
    from allauth.account.models import EmailAddress

    others = User.objects.exclude(pk=except_user.pk) if except_user else User.objects.all()
    return (
        others.filter(email__iexact=email).exists()
        or EmailAddress.objects.filter(user__in=others, email__iexact=email, verified=True).exists()
    )


def email_unconfirmed_claims(*, email: str, owner: User):
    """Other users' added, never confirmed rows for the address `owner` now holds."""
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(email__iexact=email, verified=False, primary=False).exclude(
        user=owner
    )


def email_unconfirmed_added(*, user: User, email: str) -> bool:
    """Whether `email` is an address the user added and never confirmed (not their sign-in
    address)."""
    from allauth.account.models import EmailAddress

    if not email or email.lower() == user.email.lower():
        return False
    return EmailAddress.objects.filter(user=user, email__iexact=email, verified=False).exists()


def user_sessions_for(*, user: User):
    # Only sessions still signed in: a row outlives its session when that expires or is cleared.
    live = Session.objects.filter(expire_date__gt=timezone.now()).values("session_key")
    return UserSession.objects.filter(user=user, session_key__in=live).order_by("-last_seen_at")


def api_tokens_for(*, user: User):
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True)


def api_token_user(*, raw: str) -> User | None:
    """The active owner of a raw bearer token, or None when unknown or revoked."""
    if not raw:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(token_hash=hash_token(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    # Only write the usage stamp occasionally, so hot clients do not write on every call.
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > timedelta(minutes=5):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user


# Whether an invite can still be used, in the order a staff member asks: revoked first (a
# revoked invite stays revoked whatever else is true), then used up, then expired.
INVITE_STATUSES = {
    "usable": _("Usable"),
    "used_up": _("Used up"),
    "expired": _("Expired"),
    "revoked": _("Revoked"),
}


def registration_invite_status(*, invite: RegistrationInvite, now=None) -> str:
    """The invite's key in INVITE_STATUSES."""
    now = now or timezone.now()
    if invite.revoked_at is not None:
        return "revoked"
    if invite.used_count >= invite.max_uses:
        return "used_up"
    if invite.expires_at <= now:
        return "expired"
    return "usable"


def registration_invites_in_status(
    *, invites: QuerySet[RegistrationInvite], status: str, now=None
) -> QuerySet[RegistrationInvite]:
    """The invites whose registration_invite_status is `status`."""
    now = now or timezone.now()
    live = Q(revoked_at__isnull=True)
    used_up = Q(used_count__gte=F("max_uses"))
    expired = Q(expires_at__lte=now)
    where = {
        "revoked": ~live,
        "used_up": live & used_up,
        "expired": live & ~used_up & expired,
        "usable": live & ~used_up & ~expired,
    }[status]
    return invites.filter(where)
