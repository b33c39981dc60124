"""``hexfolk serve --help`` and ``hexfolk connect``: a bot plays a seat over the wire."""

from __future__ import annotations

import subprocess
import sys

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, run
from tests.server.people_tables import start_as, wait_for_person


def test_serve_help_names_every_setting() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "hexfolk.cli.main", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    for flag in ("--host", "--port", "--db", "--data-dir", "--allow-seeded-tables", "HEXFOLK_DATA"):
        assert flag in out.stdout


def test_connect_plays_a_seat_with_a_bot(server: ThreadServer) -> None:
    async def create() -> tuple[str, str]:
        host = HexfolkClient(server.url)
        await host.create_player("Organizer")
        t = await host.create_table(
            game="island",
            players=2,
            options={"vp_target": 8},
            bot_delay=0,
            seats=[{"kind": "bot", "level": "easy"}, {"kind": "open"}],
        )
        await host.aclose()
        return str(t["id"]), str(host.token)

    tid, token = run(create())
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hexfolk.cli.main",
            "connect",
            server.url,
            "--table",
            tid,
            "--name",
            "Robo",
            "--bot",
            "easy",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        seats = wait_for_person(server.url, tid, 1)
        assert seats[1]["name"] == "Robo"
        start_as(server.url, tid, token)
        out, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "game over" in out
    assert "token:" in err  # the guest's token is shown once, to its owner
