"""Kept apart from forms.py: allauth imports this while its own forms module is loading."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from apps.core.text import visible

# The names the room shows its own entries under (apps/rooms/views.py: narration, notices, a
# deleted sender's messages), and the usual words for them: a member named so would pass for it.
RESERVED_DISPLAY_NAMES = frozenset({"gamemaster", "gm", "room", "system", "aformermember"})


def validate_display_name(value: str) -> None:
    if value and not visible(value):
        # Only spaces and invisible characters: the name would show as nothing.
        raise ValidationError(
            _(
                "A display name needs a visible character; leave it blank to be shown by your"
                " email's name."
            ),
            code="display_name_invisible",
        )
    if "".join(ch for ch in value.casefold() if ch.isalnum()) in RESERVED_DISPLAY_NAMES:
        raise ValidationError(
            _("The room shows its own messages under this name; choose another display name."),
            code="display_name_reserved",
        )


class SignupExtraForm(forms.Form):
    """Fields allauth adds to its own sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"), max_length=80, required=False, validators=[validate_display_name]
    )

    def signup(self, request, user):
        user.display_name = self.cleaned_data.get("display_name", "")
        user.save(update_fields=["display_name"])
