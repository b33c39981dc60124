"""Accounts (issue 30 point 1): a guest claims its identity and keeps its player id, games and
tables; it signs in on another device (a new session, a new token), signs out, changes its
password (the other sessions end) and signs out its other devices. Guests play as before."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
from limits.aio.storage import MemoryStorage

from hexfolk.server import accounts
from hexfolk.server.attempts import Attempts
from hexfolk.server.errors import ApiError
from hexfolk.server.identity import hash_token
from hexfolk.server.store import Store
from tests.server.helpers import ThreadServer, run

PASSWORD = "correct horse battery"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _guest(server: ThreadServer, name: str = "Guest") -> dict[str, Any]:
    r = httpx.post(server.url + "/api/players", json={"name": name})
    assert r.status_code == 201
    return dict(r.json())


def _username() -> str:
    return "u" + secrets.token_hex(5)


def _claim(server: ThreadServer, token: str, username: str, password: str = PASSWORD) -> Any:
    return httpx.post(
        server.url + "/api/account/claim",
        json={"username": username, "password": password},
        headers=_auth(token),
    )


def _sign_in(
    server: ThreadServer, username: str, password: str = PASSWORD, address: str = "10.1.0.1"
) -> httpx.Response:
    # the test server trusts X-Forwarded-For from 127.0.0.1 (uvicorn's default, as behind a
    # local nginx): each test signs in from an address of its own
    return httpx.post(
        server.url + "/api/account/signin",
        json={"username": username, "password": password},
        headers={"X-Forwarded-For": address},
    )


def _error(r: httpx.Response) -> dict[str, Any]:
    return dict(r.json()["error"])


def test_a_claimed_guest_keeps_its_id_and_tables(server: ThreadServer) -> None:
    """Issue 30 point 1: the claim keeps the player id, name and tables; the claim's new token
    works and the guest token stops (a claim rotates the token)."""
    guest = _guest(server, "Claimer")
    table = httpx.post(
        server.url + "/api/tables",
        json={"game": "island", "players": 2, "seats": [{"kind": "host"}, {"kind": "open"}]},
        headers=_auth(guest["token"]),
    ).json()
    name = _username()
    r = _claim(server, guest["token"], name)
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["id"] == guest["id"] and body["name"] == "Claimer" and body["username"] == name
    assert body["token"] != guest["token"]
    me = httpx.get(server.url + "/api/account", headers=_auth(body["token"])).json()
    assert me == {"id": guest["id"], "name": "Claimer", "username": name}
    mine = httpx.get(server.url + "/api/me/tables", headers=_auth(body["token"])).json()
    assert [t["id"] for t in mine["tables"]] == [table["id"]]
    old = httpx.get(server.url + "/api/me", headers=_auth(guest["token"]))
    assert old.status_code == 401 and _error(old)["code"] == "bad_token"


def test_sign_in_on_another_device_is_the_same_player(server: ThreadServer) -> None:
    """Issue 30 point 1: a sign-in gives a new token (rotated at every sign-in) for the same
    player id; both devices work; the sessions list shows both, this one marked."""
    guest = _guest(server, "Twice")
    name = _username()
    first = _claim(server, guest["token"], name).json()["token"]
    r = _sign_in(server, name.upper())  # case does not matter
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["id"] == guest["id"] and second["username"] == name
    third = _sign_in(server, name).json()
    assert len({first, second["token"], third["token"]}) == 3
    for token in (first, second["token"], third["token"]):
        assert httpx.get(server.url + "/api/me", headers=_auth(token)).json()["id"] == guest["id"]
    listed = httpx.get(server.url + "/api/account/sessions", headers=_auth(second["token"]))
    sessions = listed.json()["sessions"]
    assert len(sessions) == 3
    assert [s["current"] for s in sessions].count(True) == 1
    assert all(set(s) == {"id", "label", "created_at", "last_seen_at", "current"} for s in sessions)
    assert "httpx" in sessions[0]["label"]


def test_sign_out_ends_only_this_session(server: ThreadServer) -> None:
    """Issue 30 point 1: signing out ends this device's token, not the others'."""
    guest = _guest(server)
    name = _username()
    kept = _claim(server, guest["token"], name).json()["token"]
    leaving = _sign_in(server, name).json()["token"]
    r = httpx.post(server.url + "/api/account/signout", headers=_auth(leaving))
    assert r.status_code == 200
    assert httpx.get(server.url + "/api/me", headers=_auth(leaving)).status_code == 401
    assert httpx.get(server.url + "/api/me", headers=_auth(kept)).status_code == 200


def test_a_guest_cannot_sign_out_and_cannot_claim_twice(server: ThreadServer) -> None:
    """Issue 30 point 1: a guest that signed out could never come back: refused; a claimed
    player cannot claim again; a taken user name (any case) is refused."""
    guest = _guest(server)
    r = httpx.post(server.url + "/api/account/signout", headers=_auth(guest["token"]))
    assert r.status_code == 409 and _error(r)["code"] == "not_an_account"
    assert httpx.get(server.url + "/api/me", headers=_auth(guest["token"])).status_code == 200
    name = _username()
    token = _claim(server, guest["token"], name).json()["token"]
    again = _claim(server, token, _username())
    assert again.status_code == 409 and _error(again)["code"] == "already_claimed"
    other = _guest(server)
    taken = _claim(server, other["token"], name.upper())
    assert taken.status_code == 409 and _error(taken)["code"] == "username_taken"
    assert httpx.get(server.url + "/api/me", headers=_auth(other["token"])).status_code == 200


@pytest.mark.parametrize(
    ("username", "password", "code"),
    [
        ("ab", PASSWORD, "bad_username"),
        ("x" * 25, PASSWORD, "bad_username"),
        ("has space", PASSWORD, "bad_username"),
        ("semi;colon", PASSWORD, "bad_username"),
        ("fine_name", "short", "bad_password"),
        ("fine_name", "p" * 257, "bad_password"),
        ("fine_name", "FINE_NAME", "bad_password"),
    ],
)
def test_bad_names_and_passwords_are_refused_and_change_nothing(
    server: ThreadServer, username: str, password: str, code: str
) -> None:
    """Issue 30 point 1 (limits: names 3-24 characters, passwords 8-256): a clear error, the
    guest stays a guest with its token."""
    guest = _guest(server)
    r = _claim(server, guest["token"], username, password)
    assert r.status_code == 400 and _error(r)["code"] == code
    assert password not in r.text
    me = httpx.get(server.url + "/api/account", headers=_auth(guest["token"]))
    assert me.status_code == 200 and me.json()["username"] is None


def test_change_password_needs_the_current_one_and_ends_other_sessions(
    server: ThreadServer,
) -> None:
    """Issue 30 point 1: a wrong current password is refused (nothing changes); the change
    keeps this session, ends the others; the old password no longer signs in."""
    guest = _guest(server)
    name = _username()
    here = _claim(server, guest["token"], name).json()["token"]
    there = _sign_in(server, name, address="10.1.0.2").json()["token"]
    url = server.url + "/api/account/password"
    wrong = httpx.post(
        url, json={"current": "not it at all", "new": "a new secret"}, headers=_auth(here)
    )
    assert wrong.status_code == 403 and _error(wrong)["code"] == "wrong_password"
    assert httpx.get(server.url + "/api/me", headers=_auth(there)).status_code == 200
    r = httpx.post(url, json={"current": PASSWORD, "new": "a new secret"}, headers=_auth(here))
    assert r.status_code == 200 and r.json() == {"ok": True, "ended": 1}
    assert httpx.get(server.url + "/api/me", headers=_auth(here)).status_code == 200
    assert httpx.get(server.url + "/api/me", headers=_auth(there)).status_code == 401
    assert _sign_in(server, name, address="10.1.0.2").status_code == 401
    assert _sign_in(server, name, "a new secret", address="10.1.0.2").status_code == 200


def test_sign_out_other_devices_and_one_device(server: ThreadServer) -> None:
    """Issue 30 point 1: "sign out other devices" ends every session but this one; one
    session can be ended by its id, and only by its own account."""
    guest = _guest(server)
    name = _username()
    here = _claim(server, guest["token"], name).json()["token"]
    others = [_sign_in(server, name, address="10.1.0.3").json()["token"] for _ in range(3)]
    listed = httpx.get(server.url + "/api/account/sessions", headers=_auth(here)).json()
    one = next(s["id"] for s in listed["sessions"] if not s["current"])
    stranger = _guest(server)
    name2 = _username()
    stranger_token = _claim(server, stranger["token"], name2).json()["token"]
    r = httpx.delete(server.url + f"/api/account/sessions/{one}", headers=_auth(stranger_token))
    assert r.status_code == 404
    r = httpx.delete(server.url + f"/api/account/sessions/{one}", headers=_auth(here))
    assert r.status_code == 200
    alive = [httpx.get(server.url + "/api/me", headers=_auth(t)).status_code for t in others]
    assert sorted(alive) == [200, 200, 401]
    r = httpx.post(server.url + "/api/account/sessions/end-others", headers=_auth(here))
    assert r.json() == {"ok": True, "ended": 2}
    assert all(
        httpx.get(server.url + "/api/me", headers=_auth(t)).status_code == 401 for t in others
    )
    assert httpx.get(server.url + "/api/me", headers=_auth(here)).status_code == 200


def test_guests_play_as_before(server: ThreadServer) -> None:
    """Issue 30 point 1: a guest's token works over HTTP and the socket; its account is
    null; its one session is listed."""
    guest = _guest(server, "Plain")
    me = httpx.get(server.url + "/api/account", headers=_auth(guest["token"])).json()
    assert me == {"id": guest["id"], "name": "Plain", "username": None}
    listed = httpx.get(server.url + "/api/account/sessions", headers=_auth(guest["token"]))
    assert [s["current"] for s in listed.json()["sessions"]] == [True]


def test_the_accounts_api_is_in_the_openapi_schema(server: ThreadServer) -> None:
    """Issue 30 point 1: documented in the OpenAPI schema, under the tag "accounts"; no
    password or token ever in a URL (path or query)."""
    schema = httpx.get(server.url + "/openapi.json").json()
    paths = {p: ops for p, ops in schema["paths"].items() if p.startswith("/api/account")}
    assert set(paths) == {
        "/api/account",
        "/api/account/claim",
        "/api/account/signin",
        "/api/account/signout",
        "/api/account/password",
        "/api/account/sessions",
        "/api/account/sessions/{session_id}",
        "/api/account/sessions/end-others",
    }
    for ops in paths.values():
        for op in ops.values():
            assert op["tags"] == ["accounts"]
            assert op.get("description") or op.get("summary")
            for param in op.get("parameters", []):
                assert "password" not in param["name"] and "token" not in param["name"]
    creds = schema["components"]["schemas"]["Credentials"]["properties"]
    assert creds["password"].get("writeOnly") is True


def test_an_account_keeps_its_newest_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30 point 1 (limit: 20 sessions per account, here lowered to 3): a sign-in past
    the limit signs out the session unused for longest; the newest ones keep working."""
    monkeypatch.setattr(accounts, "SESSIONS_PER_ACCOUNT", 3)

    async def scenario() -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'cap.sqlite'}")
        counters = Attempts(MemoryStorage(), (100, 900), (100, 900))
        try:
            guest_token = "guest-token-" + secrets.token_hex(8)
            await store.create_player("p1", "Capped", hash_token(guest_token))
            me = await accounts.authenticate(store, guest_token)
            _, first = await accounts.claim(store, me, "capped", PASSWORD, "one")
            tokens = [first]
            for i in range(4):
                _, _, token = await accounts.sign_in(
                    store, counters, "capped", PASSWORD, "10.1.1.1", f"device {i}"
                )
                tokens.append(token)
            alive = []
            for token in tokens:
                try:
                    await accounts.authenticate(store, token)
                    alive.append(True)
                except ApiError:
                    alive.append(False)
            assert alive == [False, False, True, True, True]
        finally:
            await store.close()

    run(scenario())
