"""Sign-in answers for an unknown user name and for a wrong password take the same time (issue
30 point 2): a real server on loopback, ``POST /api/account/signin`` alternately with a name
that does not exist and with a wrong password for one that does, each timed from the client.

The attempt limits are lifted on the server for the run (they would refuse all but the first
10 and 30), so only the two paths are measured: the account's lookup, then one Argon2id check
(the account's hash, or the dummy hash of the same parameters).

    .venv/bin/python benchmarks/signin_timing.py --rounds 40
"""

from __future__ import annotations

import argparse
import secrets
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from limits.aio.storage import MemoryStorage

from hexfolk.server.app import create_app
from hexfolk.server.attempts import Attempts
from hexfolk.server.config import ServerConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="sign-ins of each kind")
    args = parser.parse_args()
    config = ServerConfig(data_dir=Path(tempfile.mkdtemp()), sqlite_synchronous="NORMAL")
    app = create_app(config)
    app.state.attempts = Attempts(MemoryStorage(), (10**9, 900), (10**9, 900))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=60) as http:
            guest = http.post("/api/players", json={"name": "Timer"}).json()
            name = "timer_" + secrets.token_hex(3)
            http.post(
                "/api/account/claim",
                json={"username": name, "password": "the right one"},
                headers={"Authorization": f"Bearer {guest['token']}"},
            ).raise_for_status()
            times: dict[str, list[float]] = {"unknown name": [], "wrong password": []}
            for i in range(args.rounds * 2):
                kind = "unknown name" if i % 2 else "wrong password"
                who = "nobody_" + secrets.token_hex(4) if i % 2 else name
                start = time.perf_counter()
                r = http.post(
                    "/api/account/signin", json={"username": who, "password": "a wrong guess"}
                )
                times[kind].append(time.perf_counter() - start)
                assert r.status_code == 401, r.text
        for kind, xs in times.items():
            xs.sort()
            p10, p90 = xs[len(xs) // 10] * 1000, xs[len(xs) * 9 // 10] * 1000
            print(
                f"{kind:15s} n={len(xs)} median {statistics.median(xs) * 1000:7.1f} ms  "
                f"p10 {p10:7.1f} ms  p90 {p90:7.1f} ms"
            )
        unknown = statistics.median(times["unknown name"])
        wrong = statistics.median(times["wrong password"])
        print(f"median ratio unknown/wrong: {unknown / wrong:.3f}")
    finally:
        server.should_exit = True
        thread.join(30)


if __name__ == "__main__":
    main()
