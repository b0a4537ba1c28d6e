from django.urls import path

from apps.domains import views

urlpatterns = [
    path(".well-known/sagasmith/jwks.json", views.jwks_view, name="domains-jwks"),
]
