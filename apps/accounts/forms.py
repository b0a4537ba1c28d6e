from allauth.account.adapter import get_adapter
from allauth.account.forms import ChangePasswordForm as AllauthChangePasswordForm
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import ResetPasswordKeyForm as AllauthResetPasswordKeyForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .adapters import invite_token_from
from .errors import InviteUnavailable
from .selectors import email_in_use
from .services import registration_invite_check
from .signup_extra import validate_display_name


class SignupForm(AllauthSignupForm):
    invite = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        self.request = kwargs.pop("request", None)
        super().__init__(*args, **kwargs)
        if self.request is not None and not self.is_bound:
            self.fields["invite"].initial = invite_token_from(self.request)

    def validate_unique_email(self, value):
        # allauth counts every address row, confirmed or not, so an address someone else only
        # added would refuse (or, with mandatory verification, silently swallow) its owner's
        # sign-up. Only a sign-in address or a confirmed one holds it; the adapter's save_user
        # then removes the unconfirmed rows.
        if email_in_use(email=value):
            return super().validate_unique_email(value)
        self.account_already_exists = False
        return get_adapter().validate_unique_email(value)

    def clean(self):
        cleaned = super().clean()
        if settings.SAGASMITH_REGISTRATION_MODE == "invite":
            token = cleaned.get("invite") or (
                invite_token_from(self.request) if self.request else ""
            )
            cleaned["invite"] = token
            try:
                # No email when the field refused it (taken, malformed): its own error says why,
                # and the invite's address is not compared with nothing.
                registration_invite_check(raw=token, email=cleaned.get("email"))
            except InviteUnavailable as exc:
                # The page shows what went wrong and what to do about it.
                raise forms.ValidationError(f"{exc.message} {exc.recovery}") from None
        return cleaned


def relabel(form: forms.Form, labels: dict[str, str]) -> None:
    # allauth writes its labels and placeholders in Title Case; the product writes sentence
    # case. Only the words change: fields, widgets and validation stay allauth's.
    for name, label in labels.items():
        if name in form.fields:
            field = form.fields[name]
            field.label = label
            if "placeholder" in field.widget.attrs:
                field.widget.attrs["placeholder"] = label


class LoginForm(AllauthLoginForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        relabel(self, {"remember": _("Remember me")})


class ChangePasswordForm(AllauthChangePasswordForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        relabel(
            self,
            {
                "oldpassword": _("Current password"),
                "password1": _("New password"),
                "password2": _("New password (again)"),
            },
        )


class ResetPasswordKeyForm(AllauthResetPasswordKeyForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        relabel(self, {"password1": _("New password"), "password2": _("New password (again)")})


class AcceptTermsForm(forms.Form):
    accept = forms.BooleanField(
        label=_("I accept the terms of service and the privacy policy."), required=True
    )


class DeactivateForm(forms.Form):
    password = forms.CharField(
        label=_("Current password"),
        widget=forms.PasswordInput,
        error_messages={"required": _("Enter your password to deactivate your account.")},
    )


class ApiTokenForm(forms.Form):
    # The service's words: the form refuses the same names (blank or over 80 characters).
    name = forms.CharField(
        label=_("Token name"),
        max_length=80,
        error_messages={
            "required": _("Give the token a name of 1-80 characters."),
            "max_length": _("Give the token a name of 1-80 characters."),
        },
    )


class DisplayNameForm(forms.Form):
    # Required here: clearing it would put the neutral "Member …" name back, which sign-up
    # offers by leaving the field blank; on this page it is a mistake more often than not.
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=80,
        help_text=_("What other players see in campaigns and rooms."),
        validators=[validate_display_name],
    )
