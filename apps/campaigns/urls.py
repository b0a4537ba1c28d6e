from django.urls import path

from . import views

C = "campaigns/<uuid:campaign_id>"

urlpatterns = [
    path("campaigns/new", views.campaign_new, name="campaign-new"),
    path(f"{C}/", views.campaign_detail, name="campaign-detail"),
    path(f"{C}/settings", views.campaign_settings, name="campaign-settings"),
    path(f"{C}/settings/name", views.campaign_rename_view, name="campaign-rename"),
    path(f"{C}/settings/invites", views.invite_new, name="campaign-invite-new"),
    path(
        f"{C}/settings/invites/<uuid:invite_id>/revoke",
        views.invite_revoke,
        name="campaign-invite-revoke",
    ),
    path(
        f"{C}/settings/join-requests/<uuid:join_request_id>/decide",
        views.join_decide,
        name="campaign-join-decide",
    ),
    path(
        f"{C}/settings/members/<uuid:user_id>/role", views.member_role, name="campaign-member-role"
    ),
    path(
        f"{C}/settings/members/<uuid:user_id>/remove",
        views.member_remove,
        name="campaign-member-remove",
    ),
    path(f"{C}/settings/bindings", views.binding_new, name="campaign-binding-new"),
    path(f"{C}/settings/bindings/remove", views.binding_delete, name="campaign-binding-remove"),
    path(f"{C}/settings/archive", views.campaign_archive_view, name="campaign-archive"),
    path(f"{C}/settings/restore", views.campaign_restore_view, name="campaign-restore"),
    path(f"{C}/leave", views.campaign_leave, name="campaign-leave"),
    path(f"{C}/characters/new", views.character_new, name="campaign-character-new"),
    path("invites/<str:token>", views.invite_landing, name="invite-landing"),
]
