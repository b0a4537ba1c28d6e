"""Kept apart from forms.py: allauth imports this while its own forms module is loading."""

import re
import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from apps.core.text import visible

# The names the room shows its own entries under (apps/rooms/views.py: narration, notices, a
# deleted sender's messages), and the usual words for them: a member named so would pass for it.
RESERVED_DISPLAY_NAMES = frozenset({"gamemaster", "gm", "room", "system", "aformermember"})
# The neutral name, and the "Player" one it replaced (someone may still know a member by it).
NEUTRAL_NAME = re.compile(r"(?:member|player)[0-9a-f]{6}")


# Format characters a name may keep: the zero-width joiner and the tag characters build
# emoji (a family, a flag of Scotland); the others (zero-width spaces, text-direction marks)
# only hide or reorder what the other players read.
_EMOJI_FORMAT = {0x200D, *range(0xE0020, 0xE0080)}


def _hidden_character(ch: str) -> bool:
    category = unicodedata.category(ch)
    if ch == "\x00":
        return False  # every form field refuses it already, in its own words
    return category == "Cc" or (category == "Cf" and ord(ch) not in _EMOJI_FORMAT)


def validate_display_name(value: str) -> None:
    if value and not visible(value):
        # Only spaces and invisible characters: the name would show as nothing.
        raise ValidationError(
            _("A display name needs a visible character."), code="display_name_invisible"
        )
    if any(_hidden_character(ch) for ch in value):
        raise ValidationError(
            _(
                "A display name cannot hold control or hidden formatting characters (such as"
                " line breaks or text-direction marks)."
            ),
            code="display_name_hidden_character",
        )
    letters = "".join(ch for ch in value.casefold() if ch.isalnum())
    if letters in RESERVED_DISPLAY_NAMES:
        raise ValidationError(
            _("The room shows its own messages under this name; choose another display name."),
            code="display_name_reserved",
        )
    if NEUTRAL_NAME.fullmatch(letters):
        # User.label's name for a member without one: taking it would pass for that member.
        raise ValidationError(
            _(
                "Names like “Member 3F2A9C” are for members who have not chosen one; choose"
                " another display name."
            ),
            code="display_name_neutral",
        )


class SignupExtraForm(forms.Form):
    """Fields allauth adds to its own sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=80,
        required=False,
        validators=[validate_display_name],
        help_text=_(
            "What other players see in campaigns and rooms, and on the invites you send as a"
            " GM. Left blank, you show as “Member” and a code until you choose one on your"
            " account page."
        ),
        # The user's own name for others to see: browsers may offer to fill it (WCAG 1.3.5).
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def signup(self, request, user):
        user.display_name = self.cleaned_data.get("display_name", "")
        user.save(update_fields=["display_name"])
