from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView

from apps.accounts import views as account_views
from apps.core.apis import ApiDocsView
from apps.core.exceptions import api_not_found
from apps.core.views import favicon

handler400 = "apps.core.exceptions.handler400"
handler403 = "apps.core.exceptions.handler403"
handler404 = "apps.core.exceptions.handler404"
handler500 = "apps.core.exceptions.handler500"

admin.site.site_header = "SagaSmith staff"
admin.site.site_title = "SagaSmith staff"

urlpatterns = [
    path("", account_views.home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("accounts/signup/", account_views.SignupView.as_view(), name="account_signup"),
    # Only a confirmed address may become the sign-in address (allauth allows any while the
    # user has none confirmed).
    path("accounts/email/", account_views.EmailView.as_view(), name="account_email"),
    path("accounts/", include("allauth.urls")),
    path("", include("apps.accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("apps.core.urls")),
    path("api/", include("apps.quota.api_urls")),
    path("api/", include("apps.domains.api_urls")),
    path("api/", include("apps.campaigns.api_urls")),
    path("api/", include("apps.rooms.api_urls")),
    path("api/", include("apps.turns.api_urls")),
    path("", include("apps.quota.urls")),
    path("", include("apps.domains.urls")),
    path("", include("apps.campaigns.urls")),
    path("", include("apps.rooms.urls")),
    path("", include("apps.turns.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    # Last: any other /api/ path is the JSON 404, with DEBUG on too (Django's debug page is
    # HTML and lists every route). The pages' slashless forms stay unmatched, so they redirect.
    re_path(r"^api/(?!(?:docs|schema)$)", api_not_found),
]
