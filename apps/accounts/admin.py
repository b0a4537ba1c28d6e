from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db import IntegrityError
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from apps.core.admin import AuditedAdminMixin, MomentColumnsMixin, id_in_a_column
from apps.quota.services import quota_account_for

from . import selectors, services
from .models import (
    EMAIL_IN_USE_ANY_CASE,
    ApiToken,
    LegalAcceptance,
    RegistrationInvite,
    User,
    UserSession,
)
from .selectors import email_in_use
from .signup_extra import validate_display_name


class UserEmailMixin:
    """Store the address in lower case, as sign-up and the manager do, and refuse one another
    user has in any case: lookups by address (sign-in, invites, saga_mcp --user) match it
    exactly, and a second spelling would be a second account for one mailbox."""

    def clean_email(self):
        email = self.cleaned_data["email"].lower()
        if email_in_use(email=email, except_user=self.instance):
            raise forms.ValidationError(_("A user is already registered with this email address."))
        return email


class UserAddForm(UserEmailMixin, AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("email",)


class UserEditForm(UserEmailMixin, UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User

    def clean_display_name(self):
        # Other players read it in rooms: the checks sign-up and the account page make.
        name = self.cleaned_data["display_name"]
        validate_display_name(name)
        return name


@admin.register(User)
class UserAdmin(MomentColumnsMixin, AuditedAdminMixin, BaseUserAdmin):
    add_form = UserAddForm
    delete_confirmation_template = "accounts/user_delete_confirmation.html"
    delete_selected_confirmation_template = "accounts/user_delete_selected_confirmation.html"
    form = UserEditForm
    ordering = ("email",)
    list_display = ("email", "display_name", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser")
    search_fields = ("email", "display_name")
    readonly_fields = (
        "date_joined",
        "last_login",
        "terms_version",
        "privacy_version",
        "terms_accepted_at",
        "deactivated_at",
    )
    fieldsets = (
        (None, {"fields": ("email", "password", "display_name")}),
        (
            _("Status"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Legal"), {"fields": ("terms_version", "privacy_version", "terms_accepted_at")}),
        (_("Dates"), {"fields": ("date_joined", "last_login", "deactivated_at")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except IntegrityError:
            # Another account took the address between the form's check and the save.
            email = request.POST.get("email", "").strip().lower()
            this = User.objects.filter(pk=unquote(object_id)).first() if object_id else None
            if request.method != "POST" or not selectors.email_in_use(
                email=email, except_user=this
            ):
                raise
            messages.error(request, EMAIL_IN_USE_ANY_CASE)
            return HttpResponseRedirect(request.get_full_path())

    def has_change_permission(self, request, obj=None):
        # A superuser's email or password set by anyone less would hand over their account.
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_delete_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        if obj is not None and not request.user.is_superuser:
            # Staff who may edit users (to rename or suspend them) must not be able to give
            # themselves or anyone else more rights: only a superuser grants privileges.
            fields = (*fields, "is_staff", "is_superuser", "groups", "user_permissions")
        return fields

    def user_change_password(self, request, id, form_url=""):
        before = User.objects.filter(pk=unquote(id)).values_list("password", flat=True).first()
        response = super().user_change_password(request, id, form_url)
        user = User.objects.filter(pk=unquote(id)).first()
        if user is not None and before is not None and user.password != before:
            # As a password change or reset does: the user's other sessions end with their
            # rows and room sockets (the auth hash alone leaves both behind), and their API
            # tokens are revoked.
            own = user.pk == request.user.pk
            services.user_password_replaced(
                user=user, keep_session_key=request.session.session_key if own else None
            )
            if own:
                request.session["_touch"] = 0  # list this session under its cycled key
        return response

    def save_model(self, request, obj, form, change):
        was_active = form.initial.get("is_active", True) if change else True
        super().save_model(request, obj, form, change)
        if change and "email" in form.changed_data:
            services.user_email_replace(user=obj, old_email=form.initial["email"])
        if not change or "email" in form.changed_data:
            # As at sign-up: others' unconfirmed rows for the address go (same transaction).
            services.email_unconfirmed_claims_release(
                email=obj.email, owner=obj, actor=request.user
            )
        if not change:
            # Like sign-up: a user comes with a quota account (same transaction as the add).
            quota_account_for(user=obj)
        elif was_active and not obj.is_active:
            # Suspended: signed out everywhere and tokens revoked, as self-deactivation does.
            services.user_deactivate_by_staff(user=obj, actor=request.user)
        elif not was_active and obj.is_active:
            services.user_reactivate_by_staff(user=obj, actor=request.user)


# registration_invite_create refuses more; bounding the field turns that into a field error.
INVITE_MAX_USES = 1000


class RegistrationInviteAddForm(forms.ModelForm):
    max_uses = forms.IntegerField(
        label=_("Max uses"), min_value=1, max_value=INVITE_MAX_USES, initial=1
    )
    expires_in_days = forms.IntegerField(
        label=_("Expires in (days)"), min_value=1, max_value=90, initial=7
    )

    class Meta:
        model = RegistrationInvite
        fields = ("email", "max_uses", "note")

    def clean_email(self):
        # registration_invite_create refuses it too; here it is an error on the field.
        email = self.cleaned_data["email"].lower()
        if email and email_in_use(email=email):
            raise forms.ValidationError(
                _("%(email)s already has an account: they can sign in with it.") % {"email": email}
            )
        return email

    def clean(self):
        cleaned = super().clean()
        # registration_invite_create refuses it too; here it is an error on the field.
        if cleaned.get("email") and (cleaned.get("max_uses") or 1) > 1:
            self.add_error("max_uses", str(services.ONE_ADDRESS_ONE_USE))
        return cleaned


class InviteStatusFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return list(selectors.INVITE_STATUSES.items())

    def queryset(self, request, queryset):
        if self.value() not in selectors.INVITE_STATUSES:
            return queryset
        return selectors.registration_invites_in_status(invites=queryset, status=self.value())


def _invite_link_key(invite: RegistrationInvite) -> str:
    return f"registration_invite_link:{invite.pk}"


@admin.register(RegistrationInvite)
class RegistrationInviteAdmin(MomentColumnsMixin, AuditedAdminMixin, admin.ModelAdmin):
    list_display = (
        "short_id",
        "email",
        "note",
        "status",
        "used_count",
        "max_uses",
        "expires_at",
        "revoked_at",
        "created_by",
        "created_at",
    )
    # Whether an invite can still be used, not when it was revoked: what staff look for.
    list_filter = (InviteStatusFilter,)
    search_fields = ("email", "note")
    # revoked_at too: only the revoke action (audited) sets it, and nothing clears it, so a
    # leaked link stays dead.
    readonly_fields = (
        "token_hash",
        "used_count",
        "created_by",
        "created_at",
        "expires_at",
        "max_uses",
        "email",
        "revoked_at",
    )
    fields = (
        "email",
        "note",
        "max_uses",
        "used_count",
        "expires_at",
        "revoked_at",
        "created_by",
        "created_at",
    )
    actions = ["revoke"]
    add_form_template = "accounts/registrationinvite_add_form.html"
    change_form_template = "accounts/registrationinvite_change_form.html"

    @admin.display(description=_("invite"), ordering="id")
    def short_id(self, obj):
        return id_in_a_column(obj.pk)

    @admin.display(description=_("status"))
    def status(self, obj):
        return selectors.INVITE_STATUSES[selectors.registration_invite_status(invite=obj)]

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = RegistrationInviteAddForm
            kwargs["fields"] = ("email", "max_uses", "note", "expires_in_days")
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("email", "max_uses", "note", "expires_in_days")
        return self.fields

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        invite, raw = services.registration_invite_create(
            created_by=request.user,
            expires_in=timedelta(days=form.cleaned_data["expires_in_days"]),
            max_uses=form.cleaned_data["max_uses"],
            email=form.cleaned_data.get("email") or "",
            note=form.cleaned_data.get("note") or "",
        )
        obj.pk = invite.pk
        obj._state.adding = False
        link = request.build_absolute_uri(reverse("account_signup") + f"?invite={raw}")
        # The only time the link exists in readable form (the database keeps its hash): kept
        # for the invite's page, which shows it once with a copy button.
        request.session[_invite_link_key(invite)] = link
        messages.warning(
            request, _("Invite created. Copy its link below now: it will not be shown again.")
        )

    def response_add(self, request, obj, post_url_continue=None):
        # Always to the new invite's page: that is where its link is, whichever button saved.
        if IS_POPUP_VAR in request.POST:
            return super().response_add(request, obj, post_url_continue)
        return HttpResponseRedirect(
            reverse("admin:accounts_registrationinvite_change", args=[obj.pk])
        )

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and not add:
            # Shown once: opening the page again finds nothing.
            context["invite_link"] = request.session.pop(_invite_link_key(obj), None)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def log_addition(self, request, obj, message):
        # The service already wrote the audit row for the creation.
        return admin.ModelAdmin.log_addition(self, request, obj, message)

    @admin.action(description=_("Revoke selected invites"))
    def revoke(self, request, queryset):
        revoked = already = 0
        for invite in queryset:
            if services.registration_invite_revoke(invite=invite, actor=request.user):
                revoked += 1
            else:
                already += 1
        text = ngettext("Revoked %(count)d invite.", "Revoked %(count)d invites.", revoked) % {
            "count": revoked
        }
        if already:
            text += " " + ngettext(
                "%(count)d was already revoked.", "%(count)d were already revoked.", already
            ) % {"count": already}
        self.message_user(request, text, messages.SUCCESS if revoked else messages.INFO)


@admin.register(LegalAcceptance)
class LegalAcceptanceAdmin(MomentColumnsMixin, admin.ModelAdmin):
    list_display = ("user", "terms_version", "privacy_version", "created_at", "ip_address")
    search_fields = ("user__email",)
    readonly_fields = ("user", "terms_version", "privacy_version", "created_at", "ip_address")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(UserSession)
class UserSessionAdmin(MomentColumnsMixin, admin.ModelAdmin):
    """Deleting a row signs that session out: the row is how the account page lists and ends
    sessions, so removing it alone would leave the session signed in and unlisted."""

    list_display = ("user", "ip_address", "user_agent", "last_seen_at", "created_at")
    search_fields = ("user__email",)
    readonly_fields = ("user", "ip_address", "user_agent", "last_seen_at")
    # The key is the session cookie's value: shown, it would let staff sign in as the user.
    exclude = ("session_key",)

    def has_add_permission(self, request):
        return False

    def delete_model(self, request, obj):
        services.user_sessions_end_rows(
            rows=UserSession.objects.filter(pk=obj.pk), actor=request.user
        )

    def delete_queryset(self, request, queryset):
        services.user_sessions_end_rows(rows=queryset, actor=request.user)


@admin.register(ApiToken)
class ApiTokenAdmin(MomentColumnsMixin, admin.ModelAdmin):
    """revoked_at is read-only: only the revoke action (audited) sets it and nothing clears
    it, so a token its owner revoked (perhaps because it leaked) stays dead."""

    list_display = ("user", "name", "prefix", "last_used_at", "revoked_at", "created_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__email", "name", "prefix")
    readonly_fields = (
        "user",
        "name",
        "prefix",
        "token_hash",
        "last_used_at",
        "revoked_at",
        "created_at",
    )
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Revoke selected tokens"), permissions=["change"])
    def revoke(self, request, queryset):
        revoked = sum(
            services.api_token_revoke(user=token.user, token_id=token.pk, actor=request.user)
            for token in queryset.select_related("user")
        )
        self.message_user(
            request,
            ngettext("Revoked %(count)d token.", "Revoked %(count)d tokens.", revoked)
            % {"count": revoked},
            messages.SUCCESS if revoked else messages.INFO,
        )
