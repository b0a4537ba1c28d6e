"""Account pages: sign-up with invites, legal acceptance, the account page, the dashboard."""

from allauth.account.adapter import get_adapter
from allauth.account.internal import flows
from allauth.account.views import EmailView as AllauthEmailView
from allauth.account.views import SignupView as AllauthSignupView
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from apps.core.errors import ApplicationError
from apps.core.exceptions import PageNotFound

from . import selectors, services
from .adapters import INVITE_SESSION_KEY, invite_token_from
from .errors import InviteUnavailable, WrongPassword
from .forms import AcceptTermsForm, ApiTokenForm, DeactivateForm, DisplayNameForm


class SignupView(AllauthSignupView):
    """allauth's sign-up, with the invite used in the same transaction as the new account."""

    template_name_invite_unavailable = "account/signup_invite_unavailable.html"

    def get(self, request, *args, **kwargs):
        # Invite mode: check the link when the page is opened, so a bad one says so up front
        # instead of after the whole form is filled in. (Submitting checks it again.)
        if settings.SAGASMITH_REGISTRATION_MODE == "invite":
            try:
                services.registration_invite_check(raw=invite_token_from(request))
            except InviteUnavailable as exc:
                # Forget it, so the sign-up page without a link then says "by invitation".
                request.session.pop(INVITE_SESSION_KEY, None)
                return render(
                    request,
                    self.template_name_invite_unavailable,
                    {"message": exc.message, "recovery": exc.recovery},
                )
        return super().get(request, *args, **kwargs)

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["request"] = self.request
        return kwargs

    def form_valid(self, form):
        try:
            with transaction.atomic():
                user, resp = form.try_save(self.request)
                if user is not None and settings.SAGASMITH_REGISTRATION_MODE == "invite":
                    services.registration_invite_consume(raw=form.cleaned_data["invite"], user=user)
        except InviteUnavailable as exc:
            form.add_error(None, f"{exc.message} {exc.recovery}")
            return self.form_invalid(form)
        except IntegrityError:
            # Another sign-up (a double submit) took the address after the form found it free.
            if not selectors.email_in_use(email=form.cleaned_data["email"]):
                raise
            form.add_error("email", get_adapter().error_messages["email_taken"])
            return self.form_invalid(form)
        if resp:
            return resp
        self.user = user
        self.request.session.pop(INVITE_SESSION_KEY, None)
        return flows.signup.complete_signup(
            self.request, user=user, redirect_url=self.get_success_url()
        )


class EmailView(AllauthEmailView):
    """allauth's email page, where only a confirmed address becomes the sign-in address.

    allauth lets a user with no confirmed address make any added one primary, and so their
    sign-in address: an address they never proved theirs would then keep its owner out."""

    def post(self, request, *args, **kwargs):
        # The action allauth's post() would take: adding, sending and removing come first.
        others = ("action_add", "action_send", "action_remove")
        if "action_primary" in request.POST and not any(key in request.POST for key in others):
            email = request.POST.get("email", "")
            if selectors.email_unconfirmed_added(user=request.user, email=email):
                get_adapter().add_message(
                    request, messages.ERROR, "account/messages/unverified_primary_email.txt"
                )
                return redirect(self.get_success_url())
        return super().post(request, *args, **kwargs)


def _safe_next(request, default="/"):
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if nxt and url_has_allowed_host_and_scheme(
        nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return nxt
    return default


def terms(request):
    return render(request, "legal/terms.html", {"version": settings.SAGASMITH_TERMS_VERSION})


def privacy(request):
    return render(request, "legal/privacy.html", {"version": settings.SAGASMITH_PRIVACY_VERSION})


@login_required
def legal_accept(request):
    if request.method == "POST":
        form = AcceptTermsForm(request.POST)
        if form.is_valid():
            services.legal_accept(user=request.user)
            messages.success(request, _("Thanks — you're all set."))
            return redirect(_safe_next(request))
    else:
        form = AcceptTermsForm()
    return render(
        request,
        "legal/accept.html",
        {
            "form": form,
            "next": _safe_next(request),
            "required": selectors.legal_acceptance_required(user=request.user),
            "previously_accepted": bool(request.user.terms_version),
            "terms_version": settings.SAGASMITH_TERMS_VERSION,
            "privacy_version": settings.SAGASMITH_PRIVACY_VERSION,
        },
    )


def _account_page(request, *, display_name_form=None, deactivate_form=None, token_form=None):
    new_token = request.session.pop("new_api_token", None)
    if display_name_form is None:
        display_name_form = DisplayNameForm(initial={"display_name": request.user.display_name})
    return render(
        request,
        "accounts/account.html",
        {
            "display_name_form": display_name_form,
            "sessions": selectors.user_sessions_for(user=request.user),
            "current_key": request.session.session_key,
            "tokens": selectors.api_tokens_for(user=request.user),
            "token_form": token_form or ApiTokenForm(),
            "new_token": new_token,
            "deactivate_form": deactivate_form or DeactivateForm(),
        },
    )


@login_required
def account(request):
    return _account_page(request)


@login_required
@require_POST
def display_name_set(request):
    form = DisplayNameForm(request.POST)
    if not form.is_valid():
        return _account_page(request, display_name_form=form)
    services.user_display_name_set(
        user=request.user, display_name=form.cleaned_data["display_name"]
    )
    messages.success(request, _("Display name saved."))
    return redirect("account")


@login_required
@require_POST
def sessions_end_others(request):
    ended = services.user_sessions_end_others(
        user=request.user, keep_session_key=request.session.session_key
    )
    if ended:
        text = ngettext(
            "Signed out %(count)d other session.", "Signed out %(count)d other sessions.", ended
        )
        messages.success(request, text % {"count": ended})
    else:
        messages.info(request, _("No other session was signed in."))
    return redirect("account")


@login_required
@require_POST
def deactivate(request):
    form = DeactivateForm(request.POST)
    if form.is_valid():
        try:
            services.user_deactivate(user=request.user, password=form.cleaned_data["password"])
        except WrongPassword as exc:
            form.add_error("password", exc.message)
        except ApplicationError as exc:
            # A staff account: its page has no password field to say it on.
            messages.error(request, exc.message)
            return redirect("account")
        else:
            logout(request)
            messages.info(request, _("Your account has been deactivated."))
            return redirect("account_login")
    # Back to the page with the refusal on the field, where the reader is (the card is last).
    return _account_page(request, deactivate_form=form)


@login_required
@require_POST
def api_token_create(request):
    form = ApiTokenForm(request.POST)
    if form.is_valid():
        try:
            _token, raw = services.api_token_create(
                user=request.user, name=form.cleaned_data["name"]
            )
        except ApplicationError as exc:
            form.add_error("name", exc.message)
        else:
            # Shown once on the next page load, then gone from the session.
            request.session["new_api_token"] = raw
            return redirect("account")
    # Back to the page with the name as typed and the refusal on its field.
    return _account_page(request, token_form=form)


@login_required
@require_POST
def api_token_revoke(request, token_id):
    if not services.api_token_revoke(user=request.user, token_id=token_id):
        # Someone else's token looks the same as no token: nothing to say it exists.
        raise PageNotFound(_("You have no active API token with that id."))
    messages.success(request, _("Token revoked."))
    return redirect("account")


def home(request):
    if not request.user.is_authenticated:
        return redirect("account_login")
    from apps.campaigns import selectors as campaign_selectors
    from apps.domains.registry import domain_registry

    plugins = domain_registry().plugins
    memberships = list(campaign_selectors.campaigns_for_user(user=request.user))
    for membership in memberships:
        plugin = plugins.get(membership.campaign.system_id)
        membership.system_label = str(plugin.label) if plugin else membership.campaign.system_id
    return render(
        request,
        "dashboard.html",
        {
            "memberships": memberships,
            "my_requests": campaign_selectors.my_join_requests(user=request.user),
            "awaiting": campaign_selectors.join_requests_awaiting(user=request.user),
        },
    )
