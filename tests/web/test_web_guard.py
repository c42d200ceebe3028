"""The local server answers only its own pages (a cross-site request, tests/repro/web_csrf.sh): a
foreign Host header (DNS rebinding) or Origin (another site's page) is refused with 403, a
POST body that is not application/json with 415, and no job starts."""

from __future__ import annotations

import re

import pytest

from web_api_helpers import STATIC, TestClient, create_app

from polytile.web.guard import host_name, host_names

CROSS_SITE_PUZZLE = '{"board": [[0,0],[0,199999]], "pieces": "pentominoes"}'
CROSS_SITE_BODY = (
    '{"action":"count","puzzle":{"kind":"tiling","text":' + repr(CROSS_SITE_PUZZLE).replace("'", '"') + "}}"
)
SMALL = '{"puzzle": {"kind": "shikaku", "rows": [[2, 0]]}}'


def test_foreign_origin_host_and_text_plain_start_no_job(client):
    before = client.get("/api/info").json()["server"]["kept"]
    r = client.post(
        "/api/jobs",
        content=CROSS_SITE_BODY,
        headers={"Content-Type": "text/plain", "Origin": "http://evil.example", "Host": "evil.example:18931"},
    )
    assert r.status_code == 403 and "host" in r.json()["error"]
    assert "\n" not in r.json()["error"]
    assert client.get("/api/info").json()["server"]["kept"] == before  # no job was made


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:8765",
        "127.0.0.1.evil.example",
        "localhost.evil.example:80",
        "127.0.0.1:abc",
        "[::1",
        "",
        "0.0.0.0",
    ],
)
def test_foreign_host_is_403(client, host):
    for method, path in (("GET", "/"), ("GET", "/api/info"), ("POST", "/api/check")):
        r = client.request(method, path, content=SMALL, headers={"Host": host, "Content-Type": "application/json"})
        assert r.status_code == 403, (host, path, r.text)
        assert r.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8765", "localhost:8765", "LOCALHOST", "[::1]:8765"])
def test_own_host_names_are_served(client, host):
    r = client.post("/api/check", content=SMALL, headers={"Host": host, "Content-Type": "application/json"})
    assert r.status_code == 200, r.text
    r = client.post(
        "/api/check",
        content=SMALL,
        headers={"Host": host, "Origin": f"http://{host.lower()}", "Content-Type": "application/json"},
    )
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://127.0.0.1:9999", "https://127.0.0.1", "http://localhost"]
)
def test_foreign_origin_is_403(client, origin):
    r = client.post("/api/check", content=SMALL, headers={"Content-Type": "application/json", "Origin": origin})
    assert r.status_code == 403 and "other sites" in r.json()["error"], origin
    r = client.delete("/api/jobs/nope", headers={"Origin": origin})
    assert r.status_code == 403


@pytest.mark.parametrize(
    "kind",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None, "application/jsonp", "text/json"],
)
def test_post_bodies_must_be_json(client, kind):
    headers = {"Content-Type": kind} if kind else {}
    for path in ("/api/check", "/api/jobs"):
        r = client.post(path, content=SMALL, headers=headers)
        assert r.status_code == 415 and "application/json" in r.json()["error"], (kind, r.text)


def test_json_with_a_charset_is_accepted(client):
    r = client.post("/api/check", content=SMALL, headers={"Content-Type": "Application/JSON; charset=utf-8"})
    assert r.status_code == 200, r.text


def test_host_names_and_parsing():
    assert host_names() == ("localhost", "127.0.0.1", "[::1]")
    assert host_names("192.168.1.5")[-1] == "192.168.1.5"
    assert host_names("::1") == ("localhost", "127.0.0.1", "[::1]")
    assert host_names("fe80::2")[-1] == "[fe80::2]"
    assert host_names("0.0.0.0") == host_names()
    assert [host_name(h) for h in ("a:1", "[::1]:80", "[::1]", "a:", "a:b", "[::1]x")] == [
        "a",
        "[::1]",
        "[::1]",
        None,
        None,
        None,
    ]


def test_the_bound_host_is_allowed():
    app = create_app(per_client=1, max_active=1, count_jobs=1, warm=False, hosts=host_names("10.1.2.3"))
    with TestClient(app, base_url="http://10.1.2.3:8765") as c:
        assert (
            c.post(
                "/api/check",
                content=SMALL,
                headers={"Content-Type": "application/json", "Origin": "http://10.1.2.3:8765"},
            ).status_code
            == 200
        )
        assert c.get("/", headers={"Host": "10.1.2.4:8765"}).status_code == 403


def test_the_page_sends_json():
    """Every request of the page goes through api(), which labels its bodies as JSON, or
    labels its body itself (the keepalive cancel sent when the tab closes)."""
    js = (STATIC / "app.js").read_text()
    for call in re.finditer(r"\bfetch\(([^;]*)\);", js):
        args = call.group(1)
        assert args.startswith("path, opts") or '"Content-Type": "application/json"' in args, args
    api = js[js.index("async function api(") :]
    api = api[: api.index("\n}\n")]
    assert 'opts.headers["Content-Type"] = "application/json"' in api and "fetch(path, opts)" in api
