"""The site's routes, with /accounts/email/ served by apps.accounts' EmailView."""

from django.urls import path

from apps.accounts import views
from sagasmith_web.urls import urlpatterns as site_urlpatterns

urlpatterns = [
    path("accounts/email/", views.EmailView.as_view(), name="account_email"),
    *site_urlpatterns,
]
