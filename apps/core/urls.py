from django.urls import path

from . import apis

urlpatterns = [
    path("health", apis.HealthApi.as_view(), name="api-health"),
    path("ready", apis.ReadyApi.as_view(), name="api-ready"),
]
