"""Media in a turn's tool results: the size limit, the checksum, the journal keeping every block
as sent, and an image bound to the audience of the message that shows it."""

from __future__ import annotations

import base64
import hashlib

import pytest
from mcp.types import (
    BlobResourceContents,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextResourceContents,
)

from apps.turns.models import RoomMediaArtifact
from apps.turns.services import turn_run
from apps.turns.types import AgentMessage, AgentOutput
from tests.campaigns.conftest import join
from tests.turns.test_jobs import narrations, submit

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(8))  # 16 bytes


def _image(data: bytes) -> ImageContent:
    return ImageContent(type="image", data=base64.b64encode(data).decode(), mime_type="image/png")


@pytest.fixture
def dice_roll_adds(monkeypatch):
    """`dice_roll_adds(*blocks)`: the live server's dice_roll answer gains these content blocks.
    Added before the client converts the wire result, so they take the path a server's do."""
    import apps.domains.client as client

    real = client._to_result

    def add(*blocks):
        def to_result(plugin, tool, result, delegation):
            if tool == "dice_roll":
                result = result.model_copy(update={"content": [*result.content, *blocks]})
            return real(plugin, tool, result, delegation)

        monkeypatch.setattr(client, "_to_result", to_result)

    return add


@pytest.fixture
def rolls_and_says(monkeypatch):
    """`rolls_and_says(*messages)`: the turn's agent rolls 1d20, then says these."""

    def use(*messages: AgentMessage):
        class Agent:
            def run_turn(self, context, call):
                call("dice_roll", {"expression": "1d20"})
                return AgentOutput(messages=messages)

        monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Agent())

    return use


def _run(room, django_capture_on_commit_callbacks, user=None, **extra):
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, user or room.player, key="media-1", **extra)
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    return job


def test_an_image_over_the_size_limit_is_not_stored(
    dnd_room, settings, dice_roll_adds, rolls_and_says, django_capture_on_commit_callbacks
):
    settings.SAGASMITH_TURN_ARTIFACT_MAX_BYTES = len(PNG)
    over = PNG + b"!"
    dice_roll_adds(_image(PNG), _image(over))
    rolls_and_says(AgentMessage("It rolls."))
    job = _run(dnd_room, django_capture_on_commit_callbacks)
    # The image at the limit is stored; the one a byte over is not, and the room is shown the
    # narration and its dice without it.
    (artifact,) = RoomMediaArtifact.objects.all()
    assert (artifact.size_bytes, bytes(artifact.data)) == (len(PNG), PNG)
    (narration,) = narrations(job)
    assert (narration.body, len(narration.data["dice"])) == ("It rolls.", 1)
    assert [a["artifact_id"] for a in narration.data["artifacts"]] == [str(artifact.id)]
    # The journal keeps the skipped image as the server sent it.
    (op,) = job.operations.all()
    assert op.result["content"][2] == {
        "type": "image",
        "data": base64.b64encode(over).decode(),
        "mimeType": "image/png",
    }


def test_a_stored_image_records_its_checksum_and_size(
    dnd_room, dice_roll_adds, rolls_and_says, django_capture_on_commit_callbacks
):
    dice_roll_adds(_image(PNG))
    rolls_and_says(AgentMessage("It rolls."))
    job = _run(dnd_room, django_capture_on_commit_callbacks)
    (artifact,) = RoomMediaArtifact.objects.all()
    digest = hashlib.sha256(PNG).hexdigest()
    assert (
        artifact.sha256, artifact.size_bytes, bytes(artifact.data), artifact.mime_type,
        artifact.kind, artifact.job_id, artifact.step, artifact.content_index,
        artifact.audience, artifact.recipient_ids,
    ) == (digest, 16, PNG, "image/png", "image", job.pk, 1, 1, "public", [])  # fmt: skip
    (narration,) = narrations(job)
    assert narration.data["artifacts"] == [
        {
            "artifact_id": str(artifact.id),
            "kind": "image",
            "mime_type": "image/png",
            "size_bytes": 16,
            "sha256": digest,
            "url": f"/campaigns/{dnd_room.campaign.id}/room/artifacts/{artifact.id}",
        }
    ]


def test_resource_blocks_are_kept_in_the_journal_as_sent(
    dnd_room, dice_roll_adds, rolls_and_says, django_capture_on_commit_callbacks
):
    dice_roll_adds(
        ResourceLink(
            type="resource_link", uri="saga://maps/keep", name="keep", mime_type="image/png"
        ),
        EmbeddedResource(
            type="resource",
            resource=TextResourceContents(
                uri="saga://notes/1", mime_type="text/markdown", text="# The keep"
            ),
        ),
        EmbeddedResource(
            type="resource",
            resource=BlobResourceContents(
                uri="saga://files/1", mime_type="application/pdf", blob="JVBERi0="
            ),
        ),
    )
    rolls_and_says(AgentMessage("It rolls."))
    job = _run(dnd_room, django_capture_on_commit_callbacks)
    (op,) = job.operations.all()
    assert op.result["content"][0]["type"] == "text"  # the server's own roll text
    assert op.result["content"][1:] == [
        {"type": "resource_link", "uri": "saga://maps/keep", "name": "keep",
         "mimeType": "image/png"},  # fmt: skip
        {"type": "resource",
         "resource": {"uri": "saga://notes/1", "mimeType": "text/markdown", "text": "# The keep"}},
        {"type": "resource",
         "resource": {"uri": "saga://files/1", "mimeType": "application/pdf", "blob": "JVBERi0="}},
    ]  # fmt: skip
    # None of them is an image: nothing is stored as an artifact.
    assert RoomMediaArtifact.objects.count() == 0
    assert narrations(job)[0].data["artifacts"] == []


@pytest.mark.parametrize(
    ("trigger", "said", "audience", "to_requester", "statuses"),
    [
        # Nothing the whole room sees: the GM-only message carries the image, so the image is
        # the GM's alone.
        ("public", "gm", "gm", False, {"gm": 200, "player": 404, "other": 404}),
        ("public", "requester", "private", True, {"gm": 200, "player": 200, "other": 404}),
        # Wider than the GM's GM-only action: the message, and so its image, is held to it.
        ("gm", "public", "gm", False, {"gm": 200, "player": 404, "other": 404}),
    ],
)
def test_an_image_is_no_wider_than_the_message_that_carries_it(
    dnd_room, make_user, client, turn_urls, dice_roll_adds, rolls_and_says,
    django_capture_on_commit_callbacks, trigger, said, audience, to_requester, statuses,
):  # fmt: skip
    room = dnd_room
    other = make_user("other@example.test")
    join(room.campaign, room.gm, other)
    dice_roll_adds(_image(PNG))
    rolls_and_says(AgentMessage("Only some see this.", said))
    # Players may only act in public; a GM-only action is the GM's.
    actor = room.gm if trigger == "gm" else room.player
    job = _run(room, django_capture_on_commit_callbacks, user=actor, audience=trigger)
    (narration,) = narrations(job)
    (shown,) = narration.data["artifacts"]
    artifact = RoomMediaArtifact.objects.get()
    recipients = [str(room.player.id)] if to_requester else []
    assert (narration.audience, str(artifact.id)) == (audience, shown["artifact_id"])
    assert (artifact.audience, artifact.recipient_ids) == (audience, recipients)
    # Through the authenticated view: the bytes to those the message reaches, 404 to the rest.
    served = {}
    for name, user in (("gm", room.gm), ("player", room.player), ("other", other)):
        client.force_login(user)
        response = client.get(shown["url"])
        served[name] = (
            response.status_code,
            response.content if response.status_code == 200 else None,
        )
    assert served == {
        name: (status, PNG if status == 200 else None) for name, status in statuses.items()
    }
