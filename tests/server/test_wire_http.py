"""Issue 25, finding 8: a request body is at most 64 KiB. A 10 MiB ``POST /api/tables`` body
used to be read and parsed, then refused 422 after up to 1.75 s; now a declared length over the
limit is refused 413 before the body is read, and a chunked body is counted as it arrives and
refused 413 once it passes the limit. Nothing is created. Raw HTTP against a real server."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from typing import Any

import httpx

from hexfolk.server.client import HexfolkClient
from hexfolk.server.limits import BODY_MAX
from tests.server.helpers import ThreadServer, run


def _player(server: ThreadServer) -> tuple[str, str]:
    made = httpx.post(server.url + "/api/players", json={"name": "Big"}).json()
    return made["token"], made["id"]


def _tables(server: ThreadServer, token: str) -> list[Any]:
    got = httpx.get(server.url + "/api/me/tables", headers={"Authorization": f"Bearer {token}"})
    return list(got.json()["tables"])


def _raw_request(server: ThreadServer, head: str, body: bytes) -> tuple[int, dict[str, Any], float]:
    """Send ``head`` and as much of ``body`` as the server takes; return the status, the JSON
    answer and the seconds from the first byte sent to the answer's status line."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        start = time.perf_counter()
        sock.sendall(head.encode())
        sock.settimeout(0.05)
        sent = 0
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
            if sent < len(body):
                with contextlib.suppress(
                    BlockingIOError, TimeoutError, BrokenPipeError, ConnectionResetError
                ):
                    sent += sock.send(body[sent : sent + 65536])
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                chunk = b"-"
            except ConnectionResetError:
                break
            if not chunk:
                break
            if chunk != b"-":
                answer += chunk
            if time.perf_counter() - start > 10:
                raise AssertionError(f"no answer in 10 s ({sent} body bytes taken)")
        elapsed = time.perf_counter() - start
    status_line, _, rest = answer.partition(b"\r\n")
    payload = rest.partition(b"\r\n\r\n")[2]
    return int(status_line.split()[1]), json.loads(payload), elapsed


def _big_table_body(size: int) -> bytes:
    settings = {"game": "island", "players": 2, "options": {"pad": "x" * size}}
    return json.dumps(settings).encode()


def test_a_10_mib_body_is_refused_413_before_it_is_read(server: ThreadServer) -> None:
    token, _ = _player(server)
    body = _big_table_body(10 << 20)
    head = (
        "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    status, answer, elapsed = _raw_request(server, head, body)
    assert status == 413 and answer["error"]["code"] == "too_large"
    assert str(BODY_MAX) in answer["error"]["message"]
    assert elapsed < 1.0, elapsed
    assert _tables(server, token) == []


def test_a_chunked_body_is_counted_and_refused_past_the_limit(server: ThreadServer) -> None:
    token, _ = _player(server)
    body = _big_table_body(10 << 20)
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(body[i : i + 8192]), body[i : i + 8192])
        for i in range(0, len(body), 8192)
    )
    head = (
        "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    status, answer, elapsed = _raw_request(server, head, chunks + b"0\r\n\r\n")
    assert status == 413 and answer["error"]["code"] == "too_large"
    assert elapsed < 1.0, elapsed
    assert _tables(server, token) == []


def test_a_client_sending_the_whole_body_gets_413_and_bodies_under_the_limit_pass(
    server: ThreadServer,
) -> None:
    token, _ = _player(server)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    start = time.perf_counter()
    refused = httpx.post(
        server.url + "/api/tables", content=_big_table_body(10 << 20), headers=headers
    )
    assert refused.status_code == 413, refused.text
    assert time.perf_counter() - start < 1.0
    assert _tables(server, token) == []
    # just under the limit: read and judged by the lobby (an unknown option), not by size
    near = _big_table_body(BODY_MAX - 100)
    assert len(near) <= BODY_MAX
    answer = httpx.post(server.url + "/api/tables", content=near, headers=headers)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_option"

    async def normal() -> None:
        client = HexfolkClient(server.url, token)
        made = await client.create_table(game="island", players=2)
        assert made["status"] == "lobby"
        await client.aclose()

    run(normal())
    assert len(_tables(server, token)) == 1
