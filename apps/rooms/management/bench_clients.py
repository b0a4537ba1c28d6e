"""The websocket clients of `manage.py bench_fanout`, in a process of their own, as browsers are.

    python -m apps.rooms.management.bench_clients   (started by bench_fanout, not by hand)

Sharing a process (and its GIL) with the posting threads would starve the receiving side and
make the bench measure itself. This process imports no Django: it is only real websocket clients
(session cookie, Origin) that stamp every frame with time.perf_counter() the moment it is read.
On Linux that is CLOCK_MONOTONIC, one clock for every process, so the stamps compare with the
send times taken in the bench process.

Protocol, one JSON document per line:
  stdin   {"url", "origin", "rooms": [[campaign_id, [cookie, ...]], ...]}; then EOF means stop.
  stdout  {"ready": sockets}
          [room, "raw" | "live", n, [receipt times]]   once every client of the room has raw
                                                       frame n / live entry sequence n
          {"error": text}                              a socket failed; the run is over
          {"closed": {...}}                            after EOF: what never completed, counts
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import defaultdict

from websockets.asyncio.client import connect

CONNECT_WAIT = 30.0
CONNECT_CONCURRENCY = 8  # a gentle ramp: the server's connect path runs database work


class Clients:
    def __init__(self, url: str, origin: str, rooms: list) -> None:
        self.url, self.origin, self.rooms = url, origin, rooms
        # (room, kind, n) -> receipt times, and which sockets reported it (duplicates count)
        self.pending: dict[tuple, list[float]] = defaultdict(list)
        self.seen: dict[tuple, set[int]] = defaultdict(set)
        self.duplicates = 0
        self.frames = 0
        self.sockets = []
        self.readers = []
        self.out = sys.stdout.buffer
        self.stopping = False

    def emit(self, document) -> None:
        # A blocking write: a line is far below the pipe buffer and the bench reads at once.
        self.out.write(json.dumps(document, separators=(",", ":")).encode() + b"\n")
        self.out.flush()

    def record(self, room: int, kind: str, n: int, sock: int, now: float) -> None:
        key = (room, kind, n)
        seen = self.seen[key]
        if sock in seen:
            self.duplicates += 1
            return
        seen.add(sock)
        times = self.pending[key]
        times.append(now)
        if len(times) == len(self.rooms[room][1]):
            del self.pending[key], self.seen[key]
            self.emit([room, kind, n, times])

    async def reader(self, ws, room: int, sock: int, ready: asyncio.Event) -> None:
        perf_counter, loads = time.perf_counter, json.loads
        try:
            async for text in ws:
                now = perf_counter()  # before parsing: the moment the page would see it
                self.frames += 1
                frame = loads(text)
                kind = frame["type"]
                if kind == "raw":
                    self.record(room, "raw", frame["n"], sock, now)
                elif kind == "entry":
                    self.record(room, "live", frame["entry"]["sequence"], sock, now)
                elif kind == "caught_up":
                    ready.set()
        except Exception as exc:  # reported to the bench, which stops the run
            self.emit({"error": f"room {room} socket {sock}: {exc!r}"})
        else:
            if not self.stopping:
                self.emit({"error": f"room {room} socket {sock}: closed by the server"})

    async def open_all(self) -> None:
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def one(room: int, campaign_id: str, cookie: str, sock: int) -> None:
            async with gate:
                ws = await connect(
                    f"{self.url}/ws/rooms/{campaign_id}/?after=0",
                    additional_headers={"Cookie": cookie, "Origin": self.origin},
                    max_queue=None,
                )
                self.sockets.append(ws)
                ready = asyncio.Event()
                self.readers.append(asyncio.create_task(self.reader(ws, room, sock, ready)))
                await asyncio.wait_for(ready.wait(), CONNECT_WAIT)

        jobs, sock = [], 0
        for room, (campaign_id, cookies) in enumerate(self.rooms):
            for cookie in cookies:
                jobs.append(one(room, campaign_id, cookie, sock))
                sock += 1
        await asyncio.gather(*jobs)

    async def close_all(self) -> float:
        """Close every socket at once (the disconnect storm); returns the seconds it took."""
        self.stopping = True
        started = time.perf_counter()
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        return time.perf_counter() - started


async def main() -> None:
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader(limit=2**24)  # the config is one line, cookies and all
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    config = json.loads(await stdin.readline())
    clients = Clients(config["url"], config["origin"], config["rooms"])
    try:
        await clients.open_all()
    except Exception as exc:
        clients.emit({"error": f"connecting: {exc!r}"})
        await clients.close_all()
        return
    clients.emit({"ready": len(clients.sockets)})
    await stdin.read()  # the bench closes our stdin when the run is over
    close_seconds = await clients.close_all()
    incomplete = {f"{r}:{k}:{n}": len(t) for (r, k, n), t in clients.pending.items() if t}
    clients.emit(
        {
            "closed": {
                "frames": clients.frames,
                "duplicates": clients.duplicates,
                "incomplete": incomplete,
                "close_seconds": round(close_seconds, 3),
            }
        }
    )


def run() -> None:
    try:
        import uvloop  # the instrument should cost as little as it can
    except ImportError:
        asyncio.run(main())
    else:
        uvloop.run(main())


if __name__ == "__main__":
    run()
