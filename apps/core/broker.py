"""The embedded Celery broker (a folder of message files, `make run`): kombu's filesystem
transport, with messages written whole before a reader can see them.

kombu's own `_put` creates `<name>.msg` and then writes it, so a worker polling the folder can
take the empty file and fail to decode it, which ends the worker (a known race in kombu's
filesystem transport). Here the message is written under a name `_get` skips and renamed into
place, which is atomic on one filesystem."""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = f"{final}.partial"  # not `<queue>.msg`: `_get` passes it by
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
