from django.urls import path

from . import views

urlpatterns = [
    path(
        "campaigns/<uuid:campaign_id>/room/artifacts/<uuid:artifact_id>",
        views.artifact_view,
        name="turn-artifact",
    ),
]
