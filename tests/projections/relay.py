"""A TCP relay to Redis, and a private Redis, for tests of a channel layer whose Redis misbehaves
while it stays up."""

import socket
import subprocess
import threading
import time
from urllib.parse import urlparse

import redis


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


class PrivateRedis:
    """A redis-server of the test's own on a free local port (`url`), for states a shared Redis
    must not be put in. `busy()` starts a script that never ends: from then on the server
    answers every other command `-BUSY ...` until `script_kill()`."""

    def __init__(self, executable: str):
        self.port = port = urlparse(vacant_redis_url(0)).port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process = subprocess.Popen(
            [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--lua-time-limit", "50"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.client = redis.Redis.from_url(self.url, socket_timeout=5)
        self._script: socket.socket | None = None
        self._until(lambda: self.client.ping())

    def busy(self) -> None:
        self._script = socket.create_connection(("127.0.0.1", self.port))
        self._script.sendall(_command("EVAL", "while true do end", "0"))
        self._until(lambda: self._refuses_ping("BUSY"))

    def script_kill(self) -> None:
        self.client.script_kill()
        self._until(lambda: self.client.ping())

    def close(self) -> None:
        if self._script is not None:
            try:
                self.client.script_kill()  # a busy server defers its shutdown
            except redis.exceptions.RedisError:
                pass
            self._script.close()
        self.client.close()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def _refuses_ping(self, code: str) -> bool:
        try:
            self.client.ping()
        except redis.exceptions.ResponseError as error:
            return str(error).startswith(f"{code} ")
        return False

    def _until(self, ready, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if ready():
                    return
            except redis.exceptions.RedisError:
                pass  # starting, or still busy
            time.sleep(0.02)
        raise AssertionError("the private Redis did not reach the expected state")


def _command(*words: str) -> bytes:
    encoded = [word.encode() for word in words]
    return b"*%d\r\n" % len(encoded) + b"".join(b"$%d\r\n%s\r\n" % (len(w), w) for w in encoded)
