"""Issue 25, finding 16: ``hexfolk serve`` fails to start with one clear line and exit code 1,
never a traceback: an unwritable data folder, an unreachable database, a port already taken.
The port is checked first: with it taken, nothing is migrated and nothing says "ready" (it
used to migrate, log "ready" and only then fail to bind). Each case runs ``hexfolk serve`` as a
child process."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.server.helpers import free_port
from tests.server.serve_command import serve


def _one_clear_line(code: int, lines: list[str], *words: str) -> None:
    text = "\n".join(lines)
    assert "Traceback" not in text, text
    assert code == 1, text
    assert len(lines) == 1 and lines[0].startswith("error: "), text
    for word in words:
        assert word in lines[0], text


def test_an_unwritable_data_folder_is_one_line(tmp_path: Path) -> None:
    # the tests may run as root, who writes anywhere: a folder under a regular file is a
    # folder nobody can create
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    folder = blocker / "data"
    code, lines = serve("--port", str(free_port()), "--data-dir", str(folder))
    _one_clear_line(code, lines, "data folder", str(folder), "not writable")


def test_an_unreachable_database_is_one_line(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    url = f"postgresql+asyncpg://postgres:secret@127.0.0.1:{port}/hexfolk"
    code, lines = serve("--port", str(free_port()), "--db", url, "--data-dir", str(tmp_path))
    _one_clear_line(code, lines, "cannot reach the database", f"127.0.0.1:{port}")
    assert "secret" not in lines[0]  # the password stays hidden


def test_a_port_in_use_is_one_line_before_anything_is_migrated(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        data = tmp_path / "data"
        code, lines = serve("--port", str(port), "--data-dir", str(data))
    _one_clear_line(code, lines, f"127.0.0.1:{port}", "in use")
    assert not any("server ready" in ln or "migration" in ln for ln in lines)
    assert not (data / "hexfolk.sqlite").exists()
