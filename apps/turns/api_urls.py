from django.urls import path

from . import apis

urlpatterns = [
    path(
        "campaigns/<uuid:campaign_id>/room/actions",
        apis.RoomActionsApi.as_view(),
        name="api-room-actions",
    ),
    path(
        "campaigns/<uuid:campaign_id>/room/jobs", apis.RoomJobsApi.as_view(), name="api-room-jobs"
    ),
    path(
        "campaigns/<uuid:campaign_id>/room/jobs/<uuid:job_id>",
        apis.RoomJobApi.as_view(),
        name="api-room-job",
    ),
    path(
        "campaigns/<uuid:campaign_id>/room/jobs/<uuid:job_id>/cancel",
        apis.RoomJobCancelApi.as_view(),
        name="api-room-job-cancel",
    ),
    path(
        "campaigns/<uuid:campaign_id>/room/panel",
        apis.RoomPanelApi.as_view(),
        name="api-room-panel",
    ),
]
