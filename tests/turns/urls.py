"""The project URLconf plus the turn routes the lead includes (api/ and "")."""

from django.urls import include, path

from sagasmith_web.urls import urlpatterns as project_patterns

urlpatterns = [
    path("api/", include("apps.turns.api_urls")),
    path("", include("apps.turns.urls")),
    *project_patterns,
]
