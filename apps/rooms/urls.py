from django.urls import path

from . import views

urlpatterns = [
    path("campaigns/<uuid:campaign_id>/room/", views.room_page, name="room"),
]
