from django.urls import path

from . import apis

C = "campaigns/<uuid:campaign_id>"

urlpatterns = [
    path("campaigns", apis.CampaignListCreateApi.as_view(), name="api-campaigns"),
    path(C, apis.CampaignDetailApi.as_view(), name="api-campaign"),
    path(f"{C}/archive", apis.CampaignArchiveApi.as_view(), name="api-campaign-archive"),
    path(f"{C}/restore", apis.CampaignRestoreApi.as_view(), name="api-campaign-restore"),
    path(f"{C}/members", apis.MemberListApi.as_view(), name="api-campaign-members"),
    path(
        f"{C}/members/<uuid:user_id>",
        apis.MemberDetailApi.as_view(),
        name="api-campaign-member",
    ),
    path(
        f"{C}/members/<uuid:user_id>/role",
        apis.MemberRoleApi.as_view(),
        name="api-campaign-member-role",
    ),
    path(f"{C}/invites", apis.InviteListCreateApi.as_view(), name="api-campaign-invites"),
    path(
        f"{C}/invites/<uuid:invite_id>",
        apis.InviteDetailApi.as_view(),
        name="api-campaign-invite",
    ),
    path(
        f"{C}/join-requests", apis.JoinRequestListApi.as_view(), name="api-campaign-join-requests"
    ),
    path(
        f"{C}/join-requests/<uuid:join_request_id>/decision",
        apis.JoinRequestDecisionApi.as_view(),
        name="api-campaign-join-decision",
    ),
    path(f"{C}/characters", apis.CharacterCreateApi.as_view(), name="api-campaign-characters"),
    path(f"{C}/bindings", apis.BindingListApi.as_view(), name="api-campaign-bindings"),
    path(
        f"{C}/characters/<str:character_id>/bindings/<uuid:user_id>",
        apis.BindingApi.as_view(),
        name="api-campaign-binding",
    ),
    path("invites/accept", apis.InviteAcceptApi.as_view(), name="api-invite-accept"),
]
