from django.urls import path

from . import apis

urlpatterns = [
    path(
        "campaigns/<uuid:campaign_id>/room/messages",
        apis.RoomMessagesApi.as_view(),
        name="api-room-messages",
    ),
    path(
        "campaigns/<uuid:campaign_id>/room/read", apis.RoomReadApi.as_view(), name="api-room-read"
    ),
]
