from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from apps.campaigns.selectors import (
    bindings_for,
    campaign_members,
    character_creation_open,
    characters_played_before,
    membership_for,
)
from apps.campaigns.services.access import NOT_A_MEMBER
from apps.core.exceptions import PageNotFound
from apps.domains.errors import UnknownSystem

from .commands import HELP_WORDS, action_openers
from .selectors import (
    MANAGER_ROLES,
    read_cursor_for,
    room_game_masters,
    room_opening_for,
)
from .services import room_get_or_create


def _creation_open(campaign, role: str) -> bool:
    """Whether the card offers "Create a character" as the page opens; the panel keeps it up to
    date. A system this server has no plugin for leaves that to the panel (it says why)."""
    try:
        return character_creation_open(campaign=campaign, role=role)
    except UnknownSystem:
        return True


@login_required
@ensure_csrf_cookie
def room_page(request, campaign_id):
    membership = membership_for(campaign_id=campaign_id, user=request.user)
    if membership is None:
        raise PageNotFound(NOT_A_MEMBER)
    campaign = membership.campaign
    room = room_get_or_create(campaign=campaign)
    opening = room_opening_for(room=room, viewer_membership=membership)
    is_manager = membership.role in MANAGER_ROLES
    archived = campaign.status == campaign.Status.ARCHIVED
    memberships = list(campaign_members(campaign=campaign))
    members = [{"id": str(m.user_id), "name": m.user.label, "role": m.role} for m in memberships]
    game_masters = room_game_masters(memberships=memberships)
    # One wording for the room's title: the page's own, and the pattern room.js fills in with
    # a new name after a rename.
    title_pattern = _("%(name)s · room")
    context = {}
    if request.GET.get("reload") == "auto":
        # The page loading itself again (told of an archive or a new role) shows no notices:
        # they belong to the page the change was made on, which is loading at the same time.
        context["messages"] = ()
    return render(
        request,
        "rooms/room.html",
        {
            **context,
            "campaign": campaign,
            "page_title": title_pattern % {"name": campaign.name},
            "title_pattern": title_pattern,
            "membership": membership,
            "is_manager": is_manager,
            "archived": archived,
            "can_post": membership.role != membership.Role.OBSERVER and not archived,
            "has_entries": opening.has_entries,
            "character_creation_open": _creation_open(campaign, membership.role),
            "members": members,
            "others": [m for m in members if m["id"] != str(request.user.id)],
            "played_before": characters_played_before(membership=membership),
            # The characters this viewer plays: with two or more, the composer asks which acts.
            "my_characters": sorted(
                (b for b in bindings_for(campaign=campaign, user=request.user) if b.can_control),
                key=lambda b: b.created_at,
            ),
            "room_strings": {
                "connecting": _("Connecting…"),
                # Connected: an archived campaign's room is still read, never played in.
                "live": _("Archived (read-only)") if archived else _("Live"),
                "reconnecting": _("Connection lost — reconnecting…"),
                "revoked": _("You no longer have access to this room."),
                "signin": _("Please sign in again."),
                "accessChanged": _("Your access changed — reloading…"),
                "terms": _("There are new terms to accept — reloading…"),
                "openUsage": _("Open your usage"),
                # Stands in for the usage page's path inside a sentence from the server.
                "usagePage": _("the usage page"),
                "pasteCut": _(
                    "Only the first %(max)s characters fit: %(n)s pasted characters were left out."
                ),
                "sending": _("Sending…"),
                "failed": _("Not sent yet — retrying"),
                "throttled": _("Sending too fast — retrying in %(n)s s"),
                "pickRecipients": _("Choose who receives this private message."),
                "emptyMessage": _("Type something to send first."),
                "gm": _("GM only"),
                "private": _("private"),
                "privateTo": _("private: %(names)s"),  # the names: its recipients, listed
                "you": _("you"),  # the viewer among a private message's recipients
                "youName": _("%(name)s (you)"),  # the viewer's own name
                "actedAs": _("as %(name)s"),  # the character an action is made as
                "system": _("Room"),  # the room's own notices (a turn ended unanswered)
                "gameMaster": _("Game master"),  # who a turn's narration is from
                # Beside a game master's name on what they write, told from a player's words.
                "senderGm": _("GM"),
                "formerMember": _("A former member"),  # a sender whose account was deleted
                "nobody": _("Nobody else is here."),
                "unread": _("New"),  # marks where the reader left off, as the room opens
                "noOthers": _("No other members to address yet."),
                "mode_action": _("action"),
                "mode_narration": _("narration"),
                "earlier": _("Load earlier messages"),
                "loadingEarlier": _("Loading…"),
                "earlierFailed": _("Could not load earlier messages. Try again."),
                "charsLeft": _("%(n)s characters left"),
                "charsLimit": _("Limit reached: a message holds at most %(max)s characters."),
                # What the "Here now" number counts (English and Chinese need no other forms).
                "peopleOne": _("%(n)s person"),
                "peopleMany": _("%(n)s people"),
                "suggestions": _("Try:"),
                "actionHint": _(
                    "That looks like a game action. Send it as an Action to have the GM run it."
                ),
                "helpHint": _(
                    "The GM answers actions, not chat. Send it as an Action for the GM's help."
                ),
                "sendAsAction": _("Send as an Action"),
                "dismissHint": _("Dismiss"),
                "draftReplaced": _("Your draft was replaced by the option."),
                "undo": _("Undo"),
            },
            "room_config": {
                "campaignId": str(campaign.id),
                "userId": str(request.user.id),
                "userName": request.user.label,  # a message being sent is shown under it
                "role": membership.role,
                "isManager": is_manager,
                # Who runs the game (owner and GMs): their entries are marked so. The members
                # keep the key and shape a room.js cached from before the roles came reads.
                "gameMasters": game_masters["members"],
                "gameMasterRoles": game_masters["roles"],
                "lastRead": read_cursor_for(room=room, user=request.user),
                # The socket replays from here; "Load earlier" pages back through the API.
                "startAfter": opening.start_after,
                "messagesUrl": f"/api/campaigns/{campaign.id}/room/messages",
                "actionsUrl": f"/api/campaigns/{campaign.id}/room/actions",
                "readUrl": f"/api/campaigns/{campaign.id}/room/read",
                "membersUrl": reverse("api-campaign-members", args=[campaign.id]),
                "socketPath": f"/ws/rooms/{campaign.id}/",
                "usageUrl": reverse("usage"),
                # A chat message opening with one of these gets a hint about Action mode.
                "actionOpeners": action_openers(campaign.system_id),
                # A chat message that is only one of these asks for the GM's help.
                "helpWords": list(HELP_WORDS),
            },
        },
    )
