"""Page forms; the services validate again, these give labelled controls and field errors."""

from __future__ import annotations

import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from apps.core.text import visible
from apps.domains.registry import available_systems

from .models import CampaignInvite, CampaignMembership
from .services.campaigns import NAME_MAX

EXPIRY_CHOICES = [
    (1, _("1 hour")),
    (24, _("1 day")),
    (24 * 7, _("7 days")),
    (24 * 30, _("30 days")),
]


class CampaignNameForm(forms.Form):
    """A campaign's name, as creating and renaming take it (the service trims and checks it
    again)."""

    name = forms.CharField(label=_("Campaign name"), max_length=NAME_MAX)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if not visible(name):
            # The service refuses it too; here the error sits on the field.
            raise ValidationError(_("Enter a name that shows."), code="invisible")
        return name


class CampaignCreateForm(CampaignNameForm):
    system_id = forms.ChoiceField(label=_("Game system"), widget=forms.RadioSelect)
    # A per-form token: a double submit reaches the same domain campaign instead of two.
    form_token = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["system_id"].choices = available_systems()
        if not self.is_bound:
            self.initial.setdefault("form_token", uuid.uuid4().hex)


class InviteCreateForm(forms.Form):
    mode = forms.ChoiceField(label=_("Joining"), choices=CampaignInvite.Mode.choices)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[
            (CampaignMembership.Role.PLAYER, _("Player")),
            (CampaignMembership.Role.OBSERVER, _("Observer")),
        ],
    )
    expires_in_hours = forms.TypedChoiceField(
        label=_("Expires after"), choices=EXPIRY_CHOICES, coerce=int, initial=24 * 7
    )
    max_uses = forms.IntegerField(
        label=_("Uses"),
        min_value=1,
        max_value=100,
        initial=5,
        error_messages={
            "min_value": _("Enter a number of uses from 1 to 100."),
            "max_value": _("Enter a number of uses from 1 to 100."),
        },
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[
            (CampaignMembership.Role.GM, _("GM")),
            (CampaignMembership.Role.PLAYER, _("Player")),
            (CampaignMembership.Role.OBSERVER, _("Observer")),
        ],
    )


class BindingForm(forms.Form):
    user_id = forms.UUIDField(label=_("Member"))
    character_id = forms.CharField(label=_("Character id"), max_length=64)
    can_control = forms.BooleanField(label=_("Can control"), required=False, initial=True)
    can_view_private = forms.BooleanField(
        label=_("Can see the private sheet"), required=False, initial=True
    )
