"""Campaign pages: Django forms with CSRF; every write goes through the same services as the API."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta
from functools import wraps
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.accounts.models import User
from apps.core.errors import ApplicationError, IdempotencyConflict, NotFound, PermissionDenied
from apps.core.exceptions import PageNotFound
from apps.domains.errors import DomainUnavailable
from apps.domains.registry import domain_registry

from . import selectors
from .forms import BindingForm, CampaignCreateForm, CampaignNameForm, InviteCreateForm, RoleForm
from .models import Campaign, CampaignInvite, CampaignMembership, JoinRequest
from .services.access import NOT_A_MEMBER, campaign_access, campaign_archived, member_not_found
from .services.campaigns import (
    campaign_archive,
    campaign_create,
    campaign_rename,
    campaign_restore,
)
from .services.characters import (
    PLAYING_ROLES,
    binding_remove,
    binding_set,
    campaign_characters,
    character_create_for,
    character_form_for,
)
from .services.invites import (
    invite_accept,
    invite_admits_at_once,
    invite_create,
    invite_lookup,
    invite_problem,
)
from .services.invites import invite_revoke as invite_revoke_service
from .services.membership import (
    join_request_decide,
    membership_change_role,
    membership_leave,
    membership_remove,
)

NEW_INVITE_SESSION_KEY = "campaigns.new_invite"


def _membership_or_404(request, campaign_id, **kwargs) -> CampaignMembership:
    try:
        return campaign_access(campaign_id=campaign_id, user=request.user, **kwargs)
    except NotFound:
        raise PageNotFound(NOT_A_MEMBER) from None


def _system_available(system_id: str) -> bool:
    """Whether this server runs the campaign's game system (an operator may have removed it)."""
    return system_id in domain_registry().plugins


def _creation_open(campaign, role: str) -> bool:
    """Whether this role may create a character now: on a system this server runs, in a phase
    that allows it."""
    return _system_available(campaign.system_id) and selectors.character_creation_open(
        campaign=campaign, role=role
    )


def _fields_refused(form, exc: ApplicationError) -> bool:
    """Put the fields a service refused on the form, as its own errors show (one it does not
    have above it); whether there were any."""
    fields = exc.details.get("fields") or {}
    for name, errors in fields.items():
        form.add_error(name if name in form.fields else None, errors)
    return bool(fields)


def _settings_url(campaign_id) -> str:
    return reverse("campaign-settings", args=[campaign_id])


JUST_CREATED_SESSION_KEY = "campaigns.just_created"
JUST_CREATED_SECONDS = 600


@login_required
def campaign_new(request):
    systems = domain_registry().plugins
    form = CampaignCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaign_create(
                owner=request.user,
                name=form.cleaned_data["name"],
                system_id=form.cleaned_data["system_id"],
                idempotency_key=f"form:{form.cleaned_data['form_token']}",
            )
        except DomainUnavailable as exc:
            # The error's own recovery ("try again") does not say that nothing was made, or
            # that another system would do. The form keeps its key, so trying again makes one.
            next_step = _(
                "No campaign was created: try again in a minute, or choose another game system."
            )
            form.add_error(None, f"{exc.message} {next_step}")
        except IdempotencyConflict as exc:
            # The form sent again with another name: its token already made a campaign. The
            # API's words speak of keys; the GM needs the campaign, and a way to make another.
            form.add_error(None, _already_created(exc, owner=request.user))
        except ApplicationError as exc:
            # A refused name on its field, as the settings rename form shows it.
            if not _fields_refused(form, exc):
                form.add_error(None, exc.message)
        else:
            messages.success(request, _("Campaign “%(name)s” created.") % {"name": campaign.name})
            request.session[JUST_CREATED_SESSION_KEY] = {
                "id": str(campaign.id), "name": campaign.name, "at": time.time(),
            }  # fmt: skip
            return redirect(_settings_url(campaign.id))
    # Back to this page right after creating one: a fresh form would make a second campaign
    # of the same name, so the page first points to the one just made.
    just_created = request.session.get(JUST_CREATED_SESSION_KEY)
    if just_created and time.time() - just_created["at"] > JUST_CREATED_SECONDS:
        just_created = None
    if just_created:
        # It may have been renamed since: the page names it as it is now.
        name = Campaign.objects.filter(pk=just_created["id"]).values_list("name", flat=True).first()
        just_created = {**just_created, "name": name} if name is not None else None
    descriptions = {sid: p.description for sid, p in systems.items()}
    return render(
        request,
        "campaigns/new.html",
        {
            "form": form,
            "descriptions": descriptions,
            "has_systems": bool(systems),
            "just_created": just_created,
        },
    )


def _already_created(exc: IdempotencyConflict, *, owner) -> str:
    """The new-campaign page's words for a form token that already made another campaign."""
    made = Campaign.objects.filter(pk=exc.details.get("campaign_id"), owner=owner).first()
    if made is None:  # deleted since: nothing to open
        return exc.message
    return format_html(
        _(
            "This form already created {campaign}. Open it, or start {new_form} to create "
            "another campaign."
        ),
        campaign=format_html(
            '<a href="{}">{}</a>', reverse("campaign-detail", args=[made.id]), made.name
        ),
        new_form=format_html('<a href="{}">{}</a>', reverse("campaign-new"), _("a new form")),
    )


@login_required
def campaign_detail(request, campaign_id):
    membership = _membership_or_404(request, campaign_id)
    campaign = membership.campaign
    return render(
        request,
        "campaigns/detail.html",
        {
            "campaign": campaign,
            "membership": membership,
            "system_label": selectors.system_label(system_id=campaign.system_id),
            "system_available": _system_available(campaign.system_id),
            "members": selectors.campaign_members(campaign=campaign),
            "my_bindings": selectors.bindings_for(campaign=campaign, user=request.user),
            # Managers only, as the bindings API: players see their own characters alone.
            "party": selectors.bindings_for(campaign=campaign) if membership.is_manager else None,
            "played_before": selectors.characters_played_before(membership=membership),
            "can_create_character": membership.role != CampaignMembership.Role.OBSERVER
            and campaign.status == campaign.Status.ACTIVE,
            "character_creation_open": _creation_open(campaign, membership.role),
        },
    )


@login_required
def campaign_settings(request, campaign_id):
    membership = _membership_or_404(request, campaign_id)
    campaign = membership.campaign
    if not membership.is_manager:
        messages.error(request, _("Only the owner or a GM can manage this campaign."))
        return redirect("campaign-detail", campaign_id=campaign.id)
    return _settings_page(request, membership)


def _settings_page(request, membership, *, invite_form=None, name_form=None, binding_refused=None):
    """The settings page; invite_form or name_form is a refused one, shown with its errors and
    values; binding_refused, a refused binding's (reason, posted values)."""
    campaign = membership.campaign
    # Another campaign's link stays for its own page (a second tab may open this one first).
    new_invite = request.session.get(NEW_INVITE_SESSION_KEY)
    if new_invite and new_invite.get("campaign_id") == str(campaign.id):
        del request.session[NEW_INVITE_SESSION_KEY]
    else:
        new_invite = None
    members = list(selectors.campaign_members(campaign=campaign))
    return render(
        request,
        "campaigns/settings.html",
        {
            "campaign": campaign,
            "membership": membership,
            "is_owner": membership.role == CampaignMembership.Role.OWNER,
            "system_label": selectors.system_label(system_id=campaign.system_id),
            "members": members,
            # A deactivated account cannot sign in to play a character bound to it.
            "bindable_members": [m for m in members if m.user.is_active],
            "invites": selectors.invites_listed(campaign=campaign),
            "join_requests": selectors.pending_join_requests(campaign=campaign),
            "bindings": selectors.bindings_for(campaign=campaign),
            "invite_form": invite_form or InviteCreateForm(),
            "name_form": name_form or CampaignNameForm(initial={"name": campaign.name}),
            "binding_error": binding_refused and binding_refused[0],
            # What the refused binding chose; the defaults (both boxes ticked) otherwise.
            "binding_values": binding_refused
            and {
                "user_id": binding_refused[1].get("user_id", ""),
                "character_id": binding_refused[1].get("character_id", ""),
                "can_control": "can_control" in binding_refused[1],
                "can_view_private": "can_view_private" in binding_refused[1],
            },
            "characters": campaign_characters(campaign=campaign, requester=request.user),
            "role_choices": RoleForm.base_fields["role"].choices,
            "new_invite_url": new_invite and new_invite["url"],
        },
    )


def _run(request, campaign_id, action, success: str):
    """Run a settings action; report a refusal (with the real cause) as a message."""
    try:
        action()
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return redirect(_settings_url(campaign_id))


def _managers_only(*, own: bool = False):
    """A settings action for the owner or a GM (`own`: the owner alone), given their
    `membership`. Anyone else goes back to the settings page with the refusal as a message
    (a non-member gets the 404 page) before the view looks at any id or form the request
    names: the answer is the same for all."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, campaign_id, *args, **kwargs):
            try:
                membership = _membership_or_404(request, campaign_id, manage=True, own=own)
            except PermissionDenied as exc:
                messages.error(request, exc.message)
                return redirect(_settings_url(campaign_id))
            return view(request, campaign_id, *args, membership=membership, **kwargs)

        return wrapper

    return decorate


@login_required
@require_POST
@_managers_only()
def campaign_rename_view(request, campaign_id, *, membership):
    form = CampaignNameForm(request.POST)
    if form.is_valid():
        try:
            campaign = campaign_rename(
                campaign=membership.campaign, actor=request.user, name=form.cleaned_data["name"]
            )
        except ApplicationError as exc:
            if not _fields_refused(form, exc):
                # The role or the archive, said as the other settings actions say it.
                messages.error(request, exc.message)
                return redirect(_settings_url(campaign_id))
        else:
            if campaign.name == membership.campaign.name:
                messages.info(
                    request,
                    _("The campaign is already called “%(name)s”.") % {"name": campaign.name},
                )
            else:
                messages.success(
                    request, _("Campaign renamed to “%(name)s”.") % {"name": campaign.name}
                )
            return redirect(_settings_url(campaign_id))
    if membership.campaign.status != Campaign.Status.ACTIVE:
        # An archived campaign's page has no name form to show the errors on, and the archive
        # would refuse any name.
        messages.error(request, campaign_archived().message)
        return redirect(_settings_url(campaign_id))
    # Back to the form as entered, the field saying what it takes.
    return _settings_page(request, membership, name_form=form)


@login_required
@require_POST
@_managers_only()
def invite_new(request, campaign_id, *, membership):
    # The role before the form: a player is told why, not that the settings are invalid.
    form = InviteCreateForm(request.POST)
    if not form.is_valid():
        if membership.campaign.status == Campaign.Status.ACTIVE:
            # Back to the form as entered, each refused field saying what it takes.
            return _settings_page(request, membership, invite_form=form)
        messages.error(request, _("The invite settings are invalid."))
        return redirect(_settings_url(campaign_id))
    try:
        _invite, token = invite_create(
            campaign=membership.campaign,
            actor=request.user,
            mode=form.cleaned_data["mode"],
            role=form.cleaned_data["role"],
            expires_in=timedelta(hours=form.cleaned_data["expires_in_hours"]),
            max_uses=form.cleaned_data["max_uses"],
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        # Shown once: the session holds it only until the next settings page view.
        request.session[NEW_INVITE_SESSION_KEY] = {
            "campaign_id": str(campaign_id),
            "url": request.build_absolute_uri(reverse("invite-landing", args=[token])),
        }
    return redirect(_settings_url(campaign_id))


@login_required
@require_POST
@_managers_only()
def invite_revoke(request, campaign_id, invite_id, *, membership):
    invite = get_object_or_404(CampaignInvite, pk=invite_id, campaign=membership.campaign)
    return _run(
        request,
        campaign_id,
        lambda: invite_revoke_service(invite=invite, actor=request.user),
        _("Invite revoked."),
    )


@login_required
@require_POST
@_managers_only()
def join_decide(request, campaign_id, join_request_id, *, membership):
    join_request = get_object_or_404(
        JoinRequest.objects.select_related("campaign", "user"),
        pk=join_request_id,
        campaign=membership.campaign,
    )
    decision = request.POST.get("decision", "")
    done = (
        _("%(name)s joined the campaign.")
        if decision == "approve"
        else _("Declined the request from %(name)s.")
    ) % {"name": join_request.user.label}
    return _run(
        request,
        campaign_id,
        lambda: join_request_decide(
            join_request=join_request, actor=request.user, decision=decision
        ),
        done,
    )


ROLE_NOW = {
    CampaignMembership.Role.GM: gettext_lazy("%(name)s is now a GM."),
    CampaignMembership.Role.PLAYER: gettext_lazy("%(name)s is now a player."),
    CampaignMembership.Role.OBSERVER: gettext_lazy("%(name)s is now an observer."),
}
ROLE_ALREADY = {
    CampaignMembership.Role.GM: gettext_lazy("%(name)s is already a GM."),
    CampaignMembership.Role.PLAYER: gettext_lazy("%(name)s is already a player."),
    CampaignMembership.Role.OBSERVER: gettext_lazy("%(name)s is already an observer."),
}


def _member_user(user_id) -> User:
    """The user a settings form names. Whether they are (still) a member is the service's to
    say, after the actor's own permission: a page left open while the member left or was
    removed then says so on the settings page, not with a 404 page. Raises NotFound."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        raise member_not_found()
    return user


@login_required
@require_POST
@_managers_only(own=True)
def member_role(request, campaign_id, user_id, *, membership):
    form = RoleForm(request.POST)
    role = form.cleaned_data["role"] if form.is_valid() else request.POST.get("role", "")
    try:
        user = _member_user(user_id)
        before = selectors.membership_for(campaign_id=campaign_id, user=user)
        changed = membership_change_role(
            campaign=membership.campaign, actor=request.user, user=user, role=role
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        # Whole sentences per role, so each reads right in every language.
        said = ROLE_ALREADY if before is not None and before.role == changed.role else ROLE_NOW
        messages.success(request, said[changed.role] % {"name": user.label})
    return redirect(_settings_url(campaign_id))


@login_required
@require_POST
@_managers_only()
def member_remove(request, campaign_id, user_id, *, membership):
    try:
        user = _member_user(user_id)
        membership_remove(campaign=membership.campaign, actor=request.user, user=user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(name)s was removed.") % {"name": user.label})
    return redirect(_settings_url(campaign_id))


@login_required
@require_POST
def campaign_leave(request, campaign_id):
    membership = _membership_or_404(request, campaign_id)
    campaign = membership.campaign
    try:
        membership_leave(campaign=campaign, user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("campaign-detail", campaign_id=campaign.id)
    messages.success(request, _("You left %(campaign)s.") % {"campaign": campaign.name})
    return redirect("home")


@login_required
@require_POST
@_managers_only()
def binding_new(request, campaign_id, *, membership):
    form = BindingForm(request.POST)
    if not form.is_valid():
        refusal = _("Choose a member and a character id.")
    else:
        try:
            binding_set(
                campaign=membership.campaign,
                actor=request.user,
                user=_member_user(form.cleaned_data["user_id"]),
                character_id=form.cleaned_data["character_id"],
                can_control=form.cleaned_data["can_control"],
                can_view_private=form.cleaned_data["can_view_private"],
            )
        except ApplicationError as exc:
            if isinstance(exc, PermissionDenied) or exc.code == "member_not_found":
                # Said above the page afresh: the role, or a member gone from the form's list.
                messages.error(request, exc.message)
                return redirect(_settings_url(campaign_id))
            refusal = exc.message
        else:
            messages.success(request, _("Binding saved."))
            return redirect(_settings_url(campaign_id))
    if membership.campaign.status != Campaign.Status.ACTIVE:
        # An archived campaign's page has no binding form to say it in.
        messages.error(request, refusal)
        return redirect(_settings_url(campaign_id))
    # Back to the form as chosen, the refusal said in it: on a phone it is far down the page.
    return _settings_page(request, membership, binding_refused=(refusal, request.POST))


@login_required
@require_POST
@_managers_only()
def binding_delete(request, campaign_id, *, membership):
    try:
        user_id = uuid.UUID(request.POST.get("user_id", ""))
    except ValueError:
        raise PageNotFound(_("No such member.")) from None
    user = get_object_or_404(User, pk=user_id)
    return _run(
        request,
        campaign_id,
        lambda: binding_remove(
            campaign=membership.campaign,
            actor=request.user,
            user=user,
            character_id=request.POST.get("character_id", ""),
        ),
        _("Binding removed."),
    )


@login_required
@require_POST
def campaign_archive_view(request, campaign_id):
    membership = _membership_or_404(request, campaign_id)
    return _run(
        request,
        campaign_id,
        lambda: campaign_archive(campaign=membership.campaign, actor=request.user),
        _("Campaign archived."),
    )


@login_required
@require_POST
def campaign_restore_view(request, campaign_id):
    membership = _membership_or_404(request, campaign_id)
    return _run(
        request,
        campaign_id,
        lambda: campaign_restore(campaign=membership.campaign, actor=request.user),
        _("Campaign restored."),
    )


@login_required
def character_new(request, campaign_id):
    membership = _membership_or_404(request, campaign_id)
    campaign = membership.campaign
    if (
        campaign.status == campaign.Status.ARCHIVED
        or membership.role not in PLAYING_ROLES
        or not _creation_open(campaign, membership.role)
    ):
        # The campaign page says why, where its button would be: a flash would say it twice.
        return redirect("campaign-detail", campaign_id=campaign.id)
    token = request.POST.get("form_token") or uuid.uuid4().hex
    if request.method == "POST":
        form = character_form_for(campaign=campaign, data=request.POST)
        if form.is_valid():
            try:
                binding = character_create_for(
                    campaign=campaign,
                    user=request.user,
                    form_data=request.POST,
                    idempotency_key=f"form:{token}",
                )
            except ApplicationError as exc:
                if not _fields_refused(form, exc):
                    form.add_error(None, exc.message)
            else:
                messages.success(
                    request,
                    _("%(name)s is ready and bound to you.") % {"name": binding.character_name},
                )
                return redirect("campaign-detail", campaign_id=campaign.id)
    else:
        form = character_form_for(campaign=campaign)
    return render(
        request,
        "campaigns/character_new.html",
        {
            "campaign": campaign,
            "membership": membership,
            "form": form,
            "form_token": token,
            "system_label": selectors.system_label(system_id=campaign.system_id),
        },
    )


def _gone_page(request, problem, *, knows_campaign: bool):
    """The page for a link that admits nobody now, shown to someone neither in its campaign nor
    waiting on a request to join it; None otherwise."""
    if problem is None or knows_campaign:
        return None
    # It says so, and not whose campaign it was: its holder may never have been meant to
    # know (a revoked link that went astray).
    return render(request, "campaigns/invite_landing.html", {"gone": problem}, status=410)


def invite_landing(request, token):
    try:
        invite = invite_lookup(token=token)
    except NotFound:
        return render(request, "campaigns/invite_landing.html", {"invalid": True}, status=404)
    campaign = invite.campaign
    membership = pending = None
    if request.user.is_authenticated:
        membership = selectors.membership_for(campaign_id=campaign.id, user=request.user)
        mine = selectors.pending_join_requests(campaign=campaign).filter(user=request.user)
        pending = mine.first()
    knows_campaign = membership is not None or pending is not None
    problem = invite_problem(invite)
    if (gone := _gone_page(request, problem, knows_campaign=knows_campaign)) is not None:
        return gone
    context = {
        "invite": invite,
        "campaign": campaign,
        "system_label": selectors.system_label(system_id=campaign.system_id),
        "problem": problem,
        "joins_now": invite_admits_at_once(
            invite, request.user if request.user.is_authenticated else None
        ),
    }
    if not request.user.is_authenticated:
        next_qs = urlencode({"next": request.path})
        context["login_url"] = f"{reverse('account_login')}?{next_qs}"
        context["signup_url"] = f"{reverse('account_signup')}?{next_qs}"
        return render(request, "campaigns/invite_landing.html", context)
    if request.method == "POST":
        try:
            outcome = invite_accept(
                token=token, user=request.user, message=request.POST.get("message", "")
            )
        except ApplicationError as exc:
            # The link died as it was used (revoked, used up, archived): its page gives the
            # reason, once, rather than a message above the same words.
            problem = invite_problem(invite_lookup(token=token))
            if (gone := _gone_page(request, problem, knows_campaign=knows_campaign)) is not None:
                return gone
            messages.error(request, exc.message)
            return redirect("invite-landing", token=token)
        if outcome.membership is not None:
            messages.success(request, _("You joined “%(name)s”.") % {"name": campaign.name})
            return redirect("campaign-detail", campaign_id=campaign.id)
        messages.success(
            request, _("Request sent. A GM of “%(name)s” will review it.") % {"name": campaign.name}
        )
        return redirect("home")
    context.update({"membership": membership, "pending": pending})
    return render(request, "campaigns/invite_landing.html", context)
