import socket
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from apps.core.management.commands.run_local import MAX_RESTARTS
from domain_servers.common.testing import listening_socket


def _free_port() -> int:
    """A port free as it is chosen, for run_local's own servers: run_local binds (and binds
    again on a restart) from the port numbers it is given, so it cannot be handed a socket."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_taken_domain_port_is_named_before_anything_starts(settings):
    # The web port is held (bound, never listening) so no other process takes it meanwhile.
    with listening_socket() as taken, socket.socket() as web:
        web.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        settings.SAGASMITH_LOCAL_DOMAIN_SERVERS = {
            "narrative": {"module": "domain_servers.narrative", "port": port, "plugin": "x"}
        }
        with pytest.raises(CommandError) as exc:
            call_command("run_local", port=web.getsockname()[1])
    assert str(exc.value) == (
        f"Port {port} for the narrative domain server is already in use (another copy "
        "running?); set PORT, or SAGASMITH_NARRATIVE_PORT, to another port."
    )


@pytest.mark.parametrize(
    ("web", "dnd5e", "narrative"), [("8000", 8101, 8103), ("8800", 8901, 8903)]
)
def test_the_local_domain_ports_follow_port(monkeypatch, web, dnd5e, narrative):
    # Settings are read once per process: a fresh interpreter reads them under this PORT.
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'sagasmith_web.settings.local';"
        "from django.conf import settings;"
        "print(sorted((k, v['port']) for k, v in settings.SAGASMITH_LOCAL_DOMAIN_SERVERS.items()))"
    )
    env = {"PATH": "/usr/bin:/bin", "PORT": web}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == str([("dnd5e", dnd5e), ("narrative", narrative)])


def _processes_of(var_dir) -> dict[str, int]:
    """The product's processes started for this var dir: {"worker": pid, ...} by command."""
    from pathlib import Path

    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"SAGASMITH_VAR_DIR={var_dir}".encode() not in environ:
            continue
        words = [w.decode() for w in cmdline if w]
        if "celery" in words and "worker" in words:
            found["worker"] = int(entry.name)
        elif "uvicorn" in words:
            found["web"] = int(entry.name)
        elif "run_local" in words:
            found["run_local"] = int(entry.name)
    return found


def _migrated_product(var_dir) -> tuple[int, dict[str, str], list[str]]:
    """A free port, the environment and the manage.py command for a local product on the
    embedded defaults (as `make run` uses them) in its own var dir, migrated."""
    import os
    from pathlib import Path

    from django.conf import settings

    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "sagasmith_web.settings.local",
        "SAGASMITH_VAR_DIR": str(var_dir),
        "PORT": str(port),
        # Free ports of their own too: PORT's neighbours (the defaults) may be another test's.
        "SAGASMITH_DND5E_PORT": str(_free_port()),
        "SAGASMITH_NARRATIVE_PORT": str(_free_port()),
        "C_FORCE_ROOT": "1",
    }
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, timeout=120)
    return port, env, manage


def test_a_process_that_dies_is_started_again_and_the_rest_go_on(tmp_path):
    import os
    import signal
    import time

    port, env, manage = _migrated_product(tmp_path)
    runner = subprocess.Popen(
        [*manage, "run_local", "--port", str(port)], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while "worker" not in _processes_of(tmp_path) or not _port_open_at(port):
            _still_running(runner, deadline, "did not start")
            time.sleep(0.2)
        first = _processes_of(tmp_path)
        os.kill(first["worker"], signal.SIGKILL)
        while _processes_of(tmp_path).get("worker") in (None, first["worker"]):
            _still_running(runner, deadline, "worker not restarted")
            time.sleep(0.2)
        # The web server went on serving all along.
        assert _processes_of(tmp_path)["web"] == first["web"] and _port_open_at(port)
        # One that keeps dying (the fifth death within a minute) stops everything, and says so.
        for _ in range(MAX_RESTARTS - 1):
            while (worker := _processes_of(tmp_path).get("worker")) is None:
                _still_running(runner, deadline, "not restarted")
                time.sleep(0.1)
            os.kill(worker, signal.SIGKILL)
            while _processes_of(tmp_path).get("worker") == worker:
                time.sleep(0.1)
        assert runner.wait(timeout=60) == 1
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGTERM)
        _out, err = runner.communicate(timeout=60)
    lines = err.splitlines()
    assert lines.count("worker exited with -9; restarting it.") == MAX_RESTARTS - 1
    assert lines[-1] == (
        f"CommandError: worker exited with -9 {MAX_RESTARTS} times within 60 s; "
        "stopping (see var/logs/)."
    )
    assert set(_processes_of(tmp_path)) == set()  # everything stopped


def _still_running(runner, deadline: float, what: str) -> None:
    """Fail, saying why, once `runner` has ended (with what it wrote) or `deadline` passed."""
    import time

    if runner.poll() is not None:
        raise AssertionError(f"{what}: run_local exited with {runner.returncode}: "
                             f"{runner.stderr.read()}")  # fmt: skip
    assert time.monotonic() < deadline, what


def _port_open_at(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_the_first_command_seats_the_demo_players_at_tables_they_can_play_at_once(tmp_path):
    """`make run`'s steps (migrate, seed_demo, run_local) on the embedded defaults: the banner
    names a room per local system, and a demo player signs in and plays a turn there, run by
    the real worker process against the real domain server."""
    import json
    import os
    import re
    import signal
    import time
    import urllib.request
    from http.cookiejar import CookieJar
    from urllib.parse import urlencode

    from django.conf import settings

    port, env, manage = _migrated_product(tmp_path)
    subprocess.run([*manage, "seed_demo"], env=env, check=True, timeout=120, capture_output=True)
    runner = subprocess.Popen(
        [*manage, "run_local", "--port", str(port)], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        banner = []
        while not banner or not banner[-1].startswith("Press Ctrl-C"):
            line = runner.stdout.readline()
            assert line, f"run_local ended early: {runner.stderr.read()}"
            banner.append(line.rstrip())
        base = f"http://127.0.0.1:{port}"
        rooms = dict(re.findall(r"^  (.+): (http://\S+/campaigns/\S+/room/)$", "\n".join(banner),
                                re.MULTILINE))  # fmt: skip
        assert sorted(rooms) == ["Harbor Lights", "The Sunless Keep"]

        jar = CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        browser.open(f"{base}/accounts/login/", timeout=10)
        csrf = next(c.value for c in jar if c.name == settings.CSRF_COOKIE_NAME)
        form = {"login": "player1@sagasmith.test", "password": "demo-password-123",
                "csrfmiddlewaretoken": csrf}  # fmt: skip
        browser.open(f"{base}/accounts/login/", data=urlencode(form).encode(), timeout=10)
        room = browser.open(rooms["The Sunless Keep"], timeout=10)
        assert (room.status, room.geturl()) == (200, rooms["The Sunless Keep"])  # signed in

        csrf = next(c.value for c in jar if c.name == settings.CSRF_COOKIE_NAME)  # rotated
        api = rooms["The Sunless Keep"].replace(base, f"{base}/api").rstrip("/")
        posted = browser.open(
            urllib.request.Request(
                f"{api}/actions", data=json.dumps({"body": "roll 1d20"}).encode(),
                headers={"Content-Type": "application/json", "X-CSRFToken": csrf,
                         "Idempotency-Key": "first-command-turn"},
            ),
            timeout=10,
        )  # fmt: skip
        assert posted.status == 202
        job = json.loads(posted.read())
        deadline = time.monotonic() + 60
        while job["status"] not in ("succeeded", "failed", "cancelled"):
            assert time.monotonic() < deadline, job
            time.sleep(0.5)
            job = json.loads(browser.open(f"{api}/jobs/{job['id']}", timeout=10).read())
        assert (job["status"], job["error"]) == ("succeeded", None)
        # The narrative table's GM opening ("set phase play") has run: its oracle is open.
        story = rooms["Harbor Lights"].replace(base, f"{base}/api").rstrip("/")
        panel = f"{story}/panel"
        while json.loads(browser.open(panel, timeout=10).read())["phase"] != "play":
            assert time.monotonic() < deadline, "the narrative table never left the lobby"
            time.sleep(0.5)
    finally:
        os.killpg(runner.pid, signal.SIGTERM)
        runner.communicate(timeout=60)
    assert set(_processes_of(tmp_path)) == set()
