"""A TCP relay to Redis, for tests of a channel layer whose Redis misbehaves while it stays up."""

import socket
import threading
import time
from urllib.parse import urlparse


class RedisRelay:
    """Relays connections to the Redis at `target`; `url` is the relay's own Redis URL.

    `delay` holds every chunk sent to Redis that many seconds: a Redis that answers, slowly (an
    overloaded server, a congested link). `silence()` makes every open connection a black hole
    from then on (the connection stays up and nothing is answered, as with a half-open
    connection to a Redis that went away); connections opened after `answer_again()` are
    relayed as before.
    """

    def __init__(self, target: str, *, delay: float = 0.0):
        parsed = urlparse(target)
        self.target = (parsed.hostname, parsed.port or 6379)
        self.delay = delay
        # Even: connections opened now are relayed; odd: they are silent too.
        self.generation = 0
        self.sockets: list[socket.socket] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.server.getsockname()[1]}{parsed.path or '/0'}"
        threading.Thread(target=self._accept, daemon=True).start()

    def silence(self) -> None:
        self.generation += 1

    def answer_again(self) -> None:
        self.generation += 1

    def close(self) -> None:
        for sock in [self.server, *self.sockets]:
            try:
                sock.close()
            except OSError:
                pass

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            born = self.generation
            for src, dst, delay in ((client, upstream, self.delay), (upstream, client, 0)):
                threading.Thread(
                    target=self._pump, args=(src, dst, born, delay), daemon=True
                ).start()

    def _pump(self, src, dst, born, delay) -> None:
        try:
            while data := src.recv(65536):
                if self.generation != born or born % 2:
                    continue  # swallowed; the connection stays open and silent
                time.sleep(delay)
                dst.sendall(data)
        except OSError:
            pass


def vacant_redis_url(db: int) -> str:
    """A Redis URL on a local port nobody listens on: a Redis being restarted."""
    vacant = socket.create_server(("127.0.0.1", 0))
    port = vacant.getsockname()[1]
    vacant.close()
    return f"redis://127.0.0.1:{port}/{db}"
