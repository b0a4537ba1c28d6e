"""Start the whole product on one machine: web, worker, beat and the domain servers.

Ctrl-C (or SIGTERM) stops every child: each runs in its own process group, gets SIGTERM,
and is killed if it has not exited after a grace period. A child that dies on its own is
started again (one that keeps dying stops everything).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.accounts.management.commands.seed_demo import (
    DEMO_GM,
    DEMO_PASSWORD,
    DEMO_PLAYERS,
    DEMO_USERS,
)

GRACE_SECONDS = 10
# A child that dies is started again, unless it died this many times within the window.
MAX_RESTARTS = 5
RESTART_WINDOW = 60.0


def _port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.3)
        return sock.connect_ex((host, port)) == 0


class Command(BaseCommand):
    help = "Run web (uvicorn), a Celery worker, Celery beat and every local domain server."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("SAGASMITH_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))

    def handle(self, *args, host: str, port: int, **options):
        if _port_open(port, "127.0.0.1"):
            raise CommandError(f"Port {port} is already in use; set PORT to another port.")
        local_servers = getattr(settings, "SAGASMITH_LOCAL_DOMAIN_SERVERS", {})
        for system_id, spec in sorted(local_servers.items()):
            if _port_open(spec["port"], "127.0.0.1"):
                raise CommandError(
                    f"Port {spec['port']} for the {system_id} domain server is already in use "
                    f"(another copy running?); set PORT, or SAGASMITH_{system_id.upper()}_PORT, "
                    "to another port."
                )
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": os.environ.get(
                "DJANGO_SETTINGS_MODULE", "sagasmith_web.settings.local"
            ),
        }
        env.setdefault("C_FORCE_ROOT", "1")  # dev machines and containers often run as root
        var = settings.VAR_DIR
        (var / "domains").mkdir(parents=True, exist_ok=True)
        (var / "logs").mkdir(parents=True, exist_ok=True)
        from apps.domains.keys import ensure_local_keys

        jwks = ensure_local_keys()  # the servers verify delegation tokens against these keys

        commands: list[tuple[str, list[str]]] = []
        for system_id, spec in sorted(local_servers.items()):
            cmd = [
                sys.executable,
                "-m",
                spec["module"],
                "--transport",
                "http",
                "--host",
                "127.0.0.1",
                "--port",
                str(spec["port"]),
                "--db",
                f"sqlite:///{var / 'domains' / (system_id + '.sqlite3')}",
                "--jwks",
                str(jwks),
            ]
            commands.append((f"domain:{system_id}", cmd))
        commands += [
            (
                "worker",
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "sagasmith_web",
                    "worker",
                    "-P",
                    "solo",
                    "--loglevel",
                    "INFO",
                ],
            ),
            (
                "beat",
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "sagasmith_web",
                    "beat",
                    "--loglevel",
                    "INFO",
                    "--schedule",
                    str(var / "celerybeat-schedule"),
                ],
            ),
            (
                "web",
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "sagasmith_web.asgi:application",
                    "--host",
                    host,
                    "--port",
                    str(port),
                    "--lifespan",
                    "on",
                    "--log-level",
                    "warning",
                ],
            ),
        ]

        children: list[tuple[str, subprocess.Popen]] = []
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        def spawn(name: str, cmd: list[str]) -> subprocess.Popen:
            with open(var / "logs" / f"{name.replace(':', '-')}.log", "ab") as log:
                return subprocess.Popen(
                    cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            for name, cmd in commands:
                children.append((name, spawn(name, cmd)))
            deadline = time.monotonic() + 60
            ports = [port, *(spec["port"] for spec in local_servers.values())]
            while (
                not all(_port_open(p) for p in ports)
                and time.monotonic() < deadline
                and not stopping
            ):
                for name, proc in children:
                    if proc.poll() is not None:
                        raise CommandError(f"{name} exited early; see var/logs/.")
                time.sleep(0.2)
            if not stopping:
                tables = self._demo_tables()
                self._banner(host, port, [name for name, _ in children], tables)
            # A process that dies is started again, as a supervisor would in production: the
            # others go on (turns recover by themselves). One that keeps dying stops it all.
            restarts: dict[str, list[float]] = {}
            while not stopping:
                for index, (name, proc) in enumerate(children):
                    if proc.poll() is None or stopping:
                        continue
                    # What the dead process started (a worker's pool) goes with it.
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGKILL)
                    now = time.monotonic()
                    recent = [t for t in restarts.get(name, []) if now - t < RESTART_WINDOW]
                    if len(recent) + 1 >= MAX_RESTARTS:
                        raise CommandError(
                            f"{name} exited with {proc.returncode} {len(recent) + 1} times "
                            f"within {RESTART_WINDOW:.0f} s; stopping (see var/logs/)."
                        )
                    self.stderr.write(f"{name} exited with {proc.returncode}; restarting it.")
                    restarts[name] = [*recent, now]
                    # A short, growing pause: a process failing at start does not spin.
                    time.sleep(0.5 * len(recent))
                    children[index] = (name, spawn(name, dict(commands)[name]))
                time.sleep(0.5)
        finally:
            self._stop_all(children)

    def _demo_tables(self) -> list:
        """The demo GM's tables with both demo players in them (once the demo users exist and
        the domain servers answer). A failure is reported, not fatal: the product runs without."""
        from apps.accounts.models import User
        from apps.turns.services.demo import demo_tables_ensure

        users = {u.email: u for u in User.objects.filter(email__in=[DEMO_GM, *DEMO_PLAYERS])}
        gm, players = users.get(DEMO_GM), [users.get(e) for e in DEMO_PLAYERS]
        if gm is None or None in players:
            return []
        try:
            tables = demo_tables_ensure(gm=gm, players=players)
        except Exception as exc:  # noqa: BLE001 - any failure leaves the product usable
            self.stderr.write(f"The demo tables could not be set up: {exc}")
            return []
        for failure in tables.failures:
            self.stderr.write(f"A demo table could not be set up: {failure}")
        return tables.campaigns

    def _banner(self, host: str, port: int, names: list[str], tables: list) -> None:
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # noqa: S104
        base = f"http://{shown}:{port}"
        self.stdout.write(self.style.SUCCESS(f"\nSagaSmith is running at {base}/"))
        self.stdout.write(f"Processes: {', '.join(names)} (logs in var/logs/)")
        self.stdout.write("Demo logins:")
        for email, _name, staff in DEMO_USERS:
            role = "staff" if staff else ("GM" if email.startswith("gm") else "player")
            self.stdout.write(f"  {role:7} {email} / {DEMO_PASSWORD}")
        if tables:
            self.stdout.write(
                "Demo tables (the GM and both players are in each; sign in and play):"
            )
            for campaign in tables:
                self.stdout.write(f"  {campaign.name}: {base}/campaigns/{campaign.id}/room/")
        self.stdout.write("Press Ctrl-C to stop everything.\n")

    def _stop_all(self, children) -> None:
        for _name, proc in children:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + GRACE_SECONDS
        for _name, proc in children:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.stdout.write("All processes stopped.")
