from django.urls import path

from . import views

urlpatterns = [
    path("account/", views.account, name="account"),
    path("account/display-name", views.display_name_set, name="account-display-name"),
    path("account/sessions/end-others", views.sessions_end_others, name="sessions-end-others"),
    path("account/deactivate", views.deactivate, name="account-deactivate"),
    path("account/tokens", views.api_token_create, name="api-token-create"),
    path("account/tokens/<uuid:token_id>/revoke", views.api_token_revoke, name="api-token-revoke"),
    path("legal/terms", views.terms, name="legal-terms"),
    path("legal/privacy", views.privacy, name="legal-privacy"),
    path("legal/accept", views.legal_accept, name="legal-accept"),
]
