"""Account writes: registration invites, legal acceptance, sessions, deactivation, API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from apps.core.errors import PermissionDenied, ValidationFailed
from apps.core.request_context import current_ip
from apps.core.services import audit_record

from .errors import InviteUnavailable, WrongPassword
from .events import sessions_ended
from .models import (
    ApiToken,
    LegalAcceptance,
    RegistrationInvite,
    RegistrationInviteUse,
    User,
    UserSession,
)

API_TOKEN_PREFIX = "ssk_"


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


ONE_ADDRESS_ONE_USE = _lazy("An invite for one address signs up one account: leave Max uses at 1.")


def registration_invite_create(
    *,
    created_by: User | None,
    expires_in: timedelta = timedelta(days=7),
    max_uses: int = 1,
    email: str = "",
    note: str = "",
) -> tuple[RegistrationInvite, str]:
    """Create an invite; returns it with the raw token, which is never stored or shown again."""
    if not 1 <= max_uses <= 1000:
        raise ValidationFailed(_("Max uses must be between 1 and 1000."))
    if not timedelta(hours=1) <= expires_in <= timedelta(days=90):
        raise ValidationFailed(_("An invite must expire between 1 hour and 90 days from now."))
    from .selectors import email_in_use  # selectors import this module

    email = email.strip().lower()
    if email and max_uses > 1:
        raise ValidationFailed(str(ONE_ADDRESS_ONE_USE))
    if email and email_in_use(email=email):
        # Sign-up refuses a taken address, so such an invite could never be used.
        raise ValidationFailed(
            _("%(email)s already has an account: they can sign in with it.") % {"email": email}
        )
    raw = secrets.token_urlsafe(32)
    invite = RegistrationInvite.objects.create(
        token_hash=hash_token(raw),
        email=email,
        note=note,
        expires_at=timezone.now() + expires_in,
        max_uses=max_uses,
        created_by=created_by,
    )
    audit_record(
        actor=created_by,
        action="registration_invite.created",
        subject_type="registration_invite",
        subject_id=str(invite.id),
        details={"max_uses": max_uses, "email_bound": bool(invite.email)},
    )
    return invite, raw


def registration_invite_revoke(*, invite: RegistrationInvite, actor: User) -> bool:
    """Revoke the invite now; False (nothing written) if it was already revoked."""
    return _revoked_once(
        RegistrationInvite.objects.filter(pk=invite.pk),
        actor=actor,
        action="registration_invite.revoked",
        subject_type="registration_invite",
        subject_id=str(invite.id),
        details={"used_count": invite.used_count, "max_uses": invite.max_uses},
    )


def _revoked_once(rows, *, actor: User, action: str, subject_type: str, subject_id: str,
                  details: dict | None = None) -> bool:  # fmt: skip
    """Set `revoked_at` on the rows not yet revoked and audit it, only if one was: a repeated
    revoke writes nothing. Whether anything was revoked."""
    with transaction.atomic():
        revoked = rows.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        if revoked:
            audit_record(
                actor=actor, action=action, subject_type=subject_type, subject_id=subject_id,
                details=details,
            )  # fmt: skip
    return bool(revoked)


def _usable_invites():
    return RegistrationInvite.objects.filter(
        revoked_at__isnull=True, expires_at__gt=timezone.now(), used_count__lt=F("max_uses")
    )


def registration_invite_check(*, raw: str, email: str | None = None) -> RegistrationInvite:
    """Validate an invite token without using it. Raises InviteUnavailable."""
    invite = _usable_invites().filter(token_hash=hash_token(raw or "")).first()
    if invite is None:
        raise InviteUnavailable(_("This invite link is invalid, expired or already used."))
    if email is not None and invite.email and invite.email != email.strip().lower():
        raise InviteUnavailable(
            _("This invite is for a different email address."), code="invite_email_mismatch"
        )
    return invite


def registration_invite_consume(*, raw: str, user: User) -> RegistrationInvite:
    """Use one invite slot for a new user, atomically. Raises InviteUnavailable."""
    token_hash = hash_token(raw or "")
    with transaction.atomic():
        # The conditional UPDATE is the race guard: concurrent sign-ups cannot exceed max_uses.
        updated = (
            _usable_invites()
            .filter(token_hash=token_hash)
            .filter(Q(email="") | Q(email=user.email.lower()))
            .update(used_count=F("used_count") + 1)
        )
        if updated != 1:
            raise InviteUnavailable(_("This invite link is invalid, expired or already used."))
        invite = RegistrationInvite.objects.get(token_hash=token_hash)
        RegistrationInviteUse.objects.create(invite=invite, user=user)
        audit_record(
            actor=user,
            action="registration_invite.used",
            subject_type="registration_invite",
            subject_id=str(invite.id),
            details={"used_count": invite.used_count, "max_uses": invite.max_uses},
        )
    return invite


def legal_accept(*, user: User) -> LegalAcceptance:
    """Record that the user accepted the site's current terms and privacy versions."""
    now = timezone.now()
    with transaction.atomic():
        user.terms_version = settings.SAGASMITH_TERMS_VERSION
        user.privacy_version = settings.SAGASMITH_PRIVACY_VERSION
        user.terms_accepted_at = now
        user.save(update_fields=["terms_version", "privacy_version", "terms_accepted_at"])
        acceptance = LegalAcceptance.objects.create(
            user=user,
            terms_version=user.terms_version,
            privacy_version=user.privacy_version,
            ip_address=current_ip.get(),
        )
        audit_record(
            actor=user,
            action="legal.accepted",
            subject_type="user",
            subject_id=str(user.id),
            details={"terms": user.terms_version, "privacy": user.privacy_version},
        )
    return acceptance


def user_session_touch(
    *, user: User, session_key: str, ip_address: str | None, user_agent: str
) -> None:
    """Record or refresh a browser session row (called at most once a minute per session)."""
    now = timezone.now()
    updated = UserSession.objects.filter(session_key=session_key, user=user).update(
        last_seen_at=now, ip_address=ip_address
    )
    if not updated:
        UserSession.objects.update_or_create(
            session_key=session_key,
            defaults={
                "user": user,
                "ip_address": ip_address,
                "user_agent": user_agent[:300],
                "last_seen_at": now,
            },
        )


def user_sessions_end(*, user: User, keep_session_key: str | None = None) -> int:
    """End the user's sessions except keep_session_key; returns how many were ended."""
    rows = UserSession.objects.filter(user=user)
    if keep_session_key:
        rows = rows.exclude(session_key=keep_session_key)
    keys = list(rows.values_list("session_key", flat=True))
    with transaction.atomic():
        Session.objects.filter(session_key__in=keys).delete()
        rows.delete()
        if keys:
            sessions_ended.send(sender=User, user=user)
    return len(keys)


def user_session_signed_out(*, user: User | None, session_key: str) -> None:
    """The user signed this session out: its row goes, and its room sockets are told now. The
    session itself is deleted first, so a socket re-reading it finds it gone even before the
    sign-out's own flush."""
    with transaction.atomic():
        Session.objects.filter(session_key=session_key).delete()
        listed = UserSession.objects.filter(session_key=session_key).delete()[0]
        if listed and user is not None:  # not when already ended (deactivation signs out)
            sessions_ended.send(sender=User, user=user)


def user_sessions_end_rows(*, rows, actor: User) -> int:
    """End the sessions these rows record (staff ending sessions in admin): the signed-in
    sessions go with their rows, so nobody stays signed in unlisted. Returns how many."""
    ended = list(rows.values_list("pk", "session_key", "user_id"))
    if not ended:
        return 0
    keys = [key for _pk, key, _user in ended]
    with transaction.atomic():
        Session.objects.filter(session_key__in=keys).delete()
        UserSession.objects.filter(pk__in=[pk for pk, _key, _user in ended]).delete()
        for user in User.objects.filter(pk__in={user_id for _pk, _key, user_id in ended}):
            sessions_ended.send(sender=User, user=user)
            audit_record(
                actor=actor,
                action="sessions.ended_by_staff",
                subject_type="user",
                subject_id=str(user.id),
                details={"ended": sum(1 for _pk, _key, u in ended if u == user.pk)},
            )
    return len(ended)


def user_sessions_end_others(*, user: User, keep_session_key: str) -> int:
    ended = user_sessions_end(user=user, keep_session_key=keep_session_key)
    audit_record(
        actor=user,
        action="sessions.ended_others",
        subject_type="user",
        subject_id=str(user.id),
        details={"ended": ended},
    )
    return ended


def user_display_name_set(*, user: User, display_name: str) -> None:
    """Set the name other players see (validated by DisplayNameForm)."""
    user.display_name = display_name.strip()
    user.save(update_fields=["display_name"])


def api_tokens_revoke_all(*, user: User) -> int:
    """Revoke every active API token of the user; returns how many. A new password (changed,
    reset, or set by staff) must shut out whoever learnt the old one, tokens they made too."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def user_password_replaced(*, user: User, keep_session_key: str | None = None) -> dict:
    """The user's password was changed, reset or set by staff: end their other sessions and
    revoke their API tokens, together. Returns the counts, for the audit record."""
    with transaction.atomic():
        return {
            "sessions_ended": user_sessions_end(user=user, keep_session_key=keep_session_key),
            "tokens_revoked": api_tokens_revoke_all(user=user),
        }


def user_deactivate(*, user: User, password: str) -> None:
    """Deactivate the user's own account. Raises WrongPassword, PermissionDenied for staff."""
    if user.is_staff or user.is_superuser:
        raise PermissionDenied(
            _("Staff accounts cannot be deactivated here; ask another administrator."),
            code="staff_self_deactivation",
        )
    if not user.check_password(password):
        raise WrongPassword(_("The password is not correct."))
    with transaction.atomic():
        user.is_active = False
        user.deactivated_at = timezone.now()
        user.save(update_fields=["is_active", "deactivated_at"])
        user_sessions_end(user=user)
        api_tokens_revoke_all(user=user)
        audit_record(
            actor=user, action="user.deactivated", subject_type="user", subject_id=str(user.id)
        )


def user_deactivate_by_staff(*, user: User, actor: User) -> None:
    """Staff turned the user inactive (in admin): as self-deactivation does, end every session
    and revoke the API tokens, so reactivating the user later revives neither."""
    now = timezone.now()
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(deactivated_at=now)
        user.deactivated_at = now
        user_sessions_end(user=user)
        ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=now)
        audit_record(
            actor=actor,
            action="user.deactivated_by_staff",
            subject_type="user",
            subject_id=str(user.id),
        )


def user_reactivate_by_staff(*, user: User, actor: User) -> None:
    """Staff turned the user active again (in admin): the deactivation is over, and who ended
    it is recorded. They sign in afresh: their sessions and tokens stay ended."""
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(deactivated_at=None)
        user.deactivated_at = None
        audit_record(
            actor=actor,
            action="user.reactivated_by_staff",
            subject_type="user",
            subject_id=str(user.id),
        )


def user_email_replace(*, user: User, old_email: str) -> None:
    """Staff gave the user a new address (in admin): it becomes the user's primary allauth
    address, unverified, and the replaced one is dropped. Sign-in and password reset look
    addresses up there too, so the old mailbox would otherwise keep both."""
    from allauth.account.models import EmailAddress

    with transaction.atomic():
        addresses = EmailAddress.objects.filter(user=user)
        addresses.filter(email__iexact=old_email).delete()
        addresses.exclude(email__iexact=user.email).update(primary=False)
        if not addresses.filter(email__iexact=user.email).update(primary=True):
            EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=False)


def email_unconfirmed_claims_release(*, email: str, owner: User, actor: User | None) -> int:
    """`owner` now holds `email`: other users' rows for it that were never confirmed go, each
    audited, as their adders never proved the mailbox theirs. Returns how many. Call in the
    transaction that gives `owner` the address."""
    from allauth.account.models import EmailAddress

    from .selectors import email_unconfirmed_claims  # selectors import this module

    with transaction.atomic():
        claims = list(email_unconfirmed_claims(email=email, owner=owner).values_list("pk", "user"))
        EmailAddress.objects.filter(pk__in=[pk for pk, _user in claims]).delete()
        for _pk, user_id in claims:
            audit_record(
                actor=actor,
                action="email_address.unconfirmed_released",
                subject_type="user",
                subject_id=str(user_id),
                details={"email": email.lower()},
            )
    return len(claims)


def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """Create a personal API token; the raw value is returned once and never stored."""
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise ValidationFailed(_("Give the token a name of 1-80 characters."))
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= 20:
        raise ValidationFailed(_("You already have 20 active tokens; revoke one first."))
    raw = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=raw[:10], token_hash=hash_token(raw)
    )
    audit_record(
        actor=user, action="api_token.created", subject_type="api_token", subject_id=str(token.id)
    )
    return token, raw


def api_token_revoke(*, user: User, token_id, actor: User | None = None) -> bool:
    """Revoke one of the user's active tokens (as `actor`, the user unless staff); False
    (nothing changed) when the id is unknown, another user's or already revoked."""
    return _revoked_once(
        ApiToken.objects.filter(user=user, pk=token_id),
        actor=actor or user,
        action="api_token.revoked",
        subject_type="api_token",
        subject_id=str(token_id),
    )
