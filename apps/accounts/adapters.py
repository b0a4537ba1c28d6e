from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings

from apps.quota.services import quota_account_for

from .services import email_unconfirmed_claims_release

INVITE_SESSION_KEY = "registration_invite"


def invite_token_from(request) -> str:
    token = request.GET.get("invite") or request.POST.get("invite") or ""
    if token:
        request.session[INVITE_SESSION_KEY] = token
        return token
    return request.session.get(INVITE_SESSION_KEY, "")


class AccountAdapter(DefaultAccountAdapter):
    """Registration follows SAGASMITH_REGISTRATION_MODE: closed, invite or open."""

    def is_open_for_signup(self, request) -> bool:
        mode = settings.SAGASMITH_REGISTRATION_MODE
        if mode == "open":
            return True
        if mode == "invite":
            # Any token opens the page: SignupView.get checks it and shows why a bad link can't
            # be used; SignupForm.clean checks it again (and the view uses it in the account's
            # transaction). Without one, account/signup_closed.html says sign-up is by invite.
            return bool(invite_token_from(request))
        return False

    def send_password_reset_mail(self, user, email, context):
        # allauth finds the account by any of its addresses, confirmed or not: a mistyped one
        # added on the email page would hand its mailbox's owner a way into the account.
        from allauth.account.models import EmailAddress

        if (
            email.lower() != user.email.lower()
            and not EmailAddress.objects.filter(
                user=user, email__iexact=email, verified=True
            ).exists()
        ):
            return None
        return super().send_password_reset_mail(user, email, context)

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            # The quota account comes with the user (SignupView runs this in the account's
            # transaction), so staff can credit anyone and a first turn finds its credits.
            quota_account_for(user=user)
            # Whoever only added this address unconfirmed loses it to its owner, in the same
            # transaction, so the address stays with one account.
            email_unconfirmed_claims_release(email=user.email, owner=user, actor=user)
        return user
