"""Kept apart from forms.py: allauth imports this while its own forms module is loading."""

from django import forms
from django.utils.translation import gettext_lazy as _


class SignupExtraForm(forms.Form):
    """Fields allauth adds to its own sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(label=_("Display name"), max_length=80, required=False)

    def signup(self, request, user):
        user.display_name = self.cleaned_data.get("display_name", "")
        user.save(update_fields=["display_name"])
