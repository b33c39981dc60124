"""The page's files at ``/app`` come from memory (``server.web_files.WebFiles``) but answer as
Starlette's ``StaticFiles`` does: the same bytes and headers, 304 for a matching ``ETag``,
404 outside the folder, an edited file served anew, ``Range`` honoured. Over real HTTP: uvicorn
on loopback serving both side by side."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from hexfolk.server.web_files import WebFiles
from hexfolk.web import WEB_DIR
from tests.server.helpers import free_port


@contextmanager
def served(directory: Path, cls: type[StaticFiles] = WebFiles) -> Iterator[httpx.Client]:
    """``directory`` at ``/app`` by ``cls``, on a loopback port, and a client of it."""
    port = free_port()
    app = Starlette(routes=[Mount("/app", cls(directory=directory))])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        assert thread.is_alive() and time.time() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            yield http
    finally:
        server.should_exit = True
        thread.join(30)


@pytest.mark.parametrize("name", ["index.html", "style.css", "games/island.js", "i18n/ko.json"])
def test_the_page_files_as_static_files_gives_them(name: str) -> None:
    with served(WEB_DIR) as ours, served(WEB_DIR, StaticFiles) as theirs:
        answers(ours, theirs, name)


def answers(ours: httpx.Client, theirs: httpx.Client, name: str) -> None:
    for _ in range(2):  # the first answer reads the file, the second comes from memory
        a, b = ours.get(f"/app/{name}"), theirs.get(f"/app/{name}")
        assert a.status_code == b.status_code == 200
        assert a.content == b.content == (WEB_DIR / name).read_bytes()
        for header in ("content-type", "content-length", "etag", "last-modified"):
            assert a.headers[header] == b.headers[header], header
    again = ours.get(f"/app/{name}", headers={"If-None-Match": a.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_an_edited_file_is_served_anew(tmp_path: Path) -> None:
    f = tmp_path / "a.js"
    f.write_text("one")
    with served(tmp_path) as web:
        assert web.get("/app/a.js").text == "one"
        f.write_text("two, longer")
        os.utime(f, ns=(f.stat().st_atime_ns, f.stat().st_mtime_ns + 1_000_000))
        assert web.get("/app/a.js").text == "two, longer"


def test_outside_the_folder_and_missing_files_are_404(tmp_path: Path) -> None:
    (tmp_path / "inside").mkdir()
    (tmp_path / "secret.txt").write_text("no")
    with served(tmp_path / "inside") as web:
        assert web.get("/app/%2e%2e/secret.txt").status_code == 404
        assert web.get("/app/..%2fsecret.txt").status_code == 404
        assert web.get("/app/nothing.js").status_code == 404


def test_a_range_request_gets_its_range(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("0123456789")
    with served(tmp_path) as web:
        got = web.get("/app/a.txt", headers={"Range": "bytes=2-4"})
    assert got.status_code == 206 and got.text == "234"
