"""Library seams: auth and allauth events become audit rows and session bookkeeping."""

from allauth.account.signals import password_changed, password_reset
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver

from apps.core.services import audit_record

from .services import user_password_replaced, user_session_signed_out, user_session_touch


@receiver(user_logged_in)
def _on_login(sender, request, user, **kwargs):
    if request is not None and getattr(request, "session", None) is not None:
        if not request.session.session_key:
            request.session.save()
        request.session["_touch"] = 0
        user_session_touch(
            user=user,
            session_key=request.session.session_key,
            ip_address=request.META.get("REMOTE_ADDR") or None,
            user_agent=request.headers.get("User-Agent", ""),
        )
    audit_record(actor=user, action="auth.login", subject_type="user", subject_id=str(user.id))


@receiver(user_logged_out)
def _on_logout(sender, request, user, **kwargs):
    # Sent before the session is flushed, so the key is still the one being ended: without
    # this the account page keeps listing it as active.
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        user_session_signed_out(user=user, session_key=session_key)
    if user is not None:
        audit_record(actor=user, action="auth.logout", subject_type="user", subject_id=str(user.id))


@receiver(user_login_failed)
def _on_login_failed(sender, credentials, request=None, **kwargs):
    email = str(credentials.get("email") or credentials.get("username") or "")[:254]
    audit_record(actor=None, action="auth.login_failed", subject_type="email", subject_id=email)


@receiver(password_changed)
def _on_password_changed(sender, request, user, **kwargs):
    # The session auth hash already invalidates other sessions; drop their rows too. API
    # tokens know nothing of the password, so they are revoked here (same transaction).
    keep = request.session.session_key if request is not None else None
    counts = user_password_replaced(user=user, keep_session_key=keep)
    if request is not None and keep:
        # update_session_auth_hash cycled the key: record the session under its new key.
        user_session_touch(
            user=user,
            session_key=keep,
            ip_address=request.META.get("REMOTE_ADDR") or None,
            user_agent=request.headers.get("User-Agent", ""),
        )
    audit_record(
        actor=user,
        action="auth.password_changed",
        subject_type="user",
        subject_id=str(user.id),
        details=counts,
    )


@receiver(password_reset)
def _on_password_reset(sender, request, user, **kwargs):
    counts = user_password_replaced(user=user)
    audit_record(
        actor=user,
        action="auth.password_reset",
        subject_type="user",
        subject_id=str(user.id),
        details=counts,
    )
