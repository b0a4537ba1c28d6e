"""The authenticated artifact view: private media, only to the audience it was bound to."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from apps.campaigns.selectors import membership_for
from apps.rooms.selectors import entry_visible_to
from apps.turns.media import INLINE_TYPES
from apps.turns.models import RoomMediaArtifact


@login_required
@require_GET
def artifact_view(request, campaign_id, artifact_id):
    membership = membership_for(campaign_id=campaign_id, user=request.user)
    artifact = RoomMediaArtifact.objects.filter(pk=artifact_id, campaign_id=campaign_id).first()
    # 404 for outsiders and for an audience the viewer is not in: nothing is revealed.
    if (
        membership is None
        or artifact is None
        or not entry_visible_to(
            audience=artifact.audience,
            sender_id=None,
            recipient_ids=artifact.recipient_ids,
            viewer_user_id=membership.user_id,
            viewer_role=membership.role,
        )
    ):
        raise Http404
    response = HttpResponse(bytes(artifact.data), content_type=artifact.mime_type)
    response["Content-Length"] = str(artifact.size_bytes)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, max-age=3600"
    response["ETag"] = f'"{artifact.sha256}"'
    # An SVG opened directly must not run script or load anything.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    if artifact.mime_type not in INLINE_TYPES:
        response["Content-Disposition"] = f'attachment; filename="{artifact.sha256[:16]}"'
    return response
