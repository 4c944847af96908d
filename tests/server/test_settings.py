"""An operator's settings: per-address limits behind trusted proxies, the hello timeout, the
database pool, and `tricolore serve` refusing bad settings with a sentence."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.server.conftest import free_port, serve
from tricolore.cli.main import app as cli
from tricolore.core.errors import OptionsError
from tricolore.server.db import sqlite_url
from tricolore.server.settings import Settings

PROXY = Settings(trusted_proxies=("127.0.0.1", "10.0.0.0/8"))


@pytest.mark.parametrize(("peer", "forwarded", "client"), [
    ("203.0.113.9", "198.51.100.1", "203.0.113.9"),  # not a proxy: its header is not believed
    ("127.0.0.1", "198.51.100.1", "198.51.100.1"),
    ("127.0.0.1", "198.51.100.1, 10.1.2.3", "198.51.100.1"),  # through two trusted proxies
    ("127.0.0.1", "6.6.6.6, 198.51.100.1", "198.51.100.1"),  # a forged first hop is not believed
    ("127.0.0.1", "", "127.0.0.1"),
    ("127.0.0.1", "not an address", "127.0.0.1"),
    (None, "198.51.100.1", "unknown"),
])
def test_the_client_address_comes_from_x_forwarded_for_only_through_a_trusted_proxy(peer, forwarded, client):
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    assert PROXY.client_address(peer, headers) == client
    assert Settings().client_address(peer, headers) == (peer or "unknown")


@pytest.mark.parametrize(("fields", "words"), [
    ({"tables_per_minute": 0}, "tables per minute must be a whole number of at least 1"),
    ({"sockets_per_address": -3}, "sockets per address must be"),
    ({"db_pool_size": 1.5}, "db pool size must be"),
    ({"hello_seconds": 0}, "hello timeout must be from 0.1 to 600 seconds"),
    ({"trusted_proxies": ("the proxy",)}, "a trusted proxy is an address or a network"),
])
def test_settings_out_of_range_are_refused_with_a_sentence(fields, words):
    with pytest.raises(OptionsError, match=words):
        Settings(**fields)


def test_tables_per_minute_count_each_client_behind_a_trusted_proxy_apart(tmp_path: Path):
    settings = Settings(tables_per_minute=2, trusted_proxies=("127.0.0.1",))
    body = {"game": "culottes", "players": 3, "seats": ["random"] * 3}
    for server in serve(sqlite_url(tmp_path / "t.db"), create_limit=None, settings=settings):  # type: ignore[arg-type]
        http = server.http
        codes = [http.post("/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.1"}).status_code
                 for _ in range(3)]
        assert codes == [200, 200, 429]
        # another person behind the same proxy
        other = http.post("/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.2"})
        assert other.status_code == 200


def test_without_a_trusted_proxy_a_forwarded_header_buys_nothing(tmp_path: Path):
    for server in serve(sqlite_url(tmp_path / "t.db"), create_limit=None,  # type: ignore[arg-type]
                        settings=Settings(tables_per_minute=2)):
        body = {"game": "culottes", "players": 3, "seats": ["random"] * 3}
        codes = [server.http.post("/api/tables", json=body, headers={"X-Forwarded-For": f"198.51.100.{i}"})
                 .status_code for i in range(3)]
        assert codes == [200, 200, 429]


def test_a_socket_that_does_not_say_hello_is_closed_with_a_reason(tmp_path: Path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    for server in serve(sqlite_url(tmp_path / "t.db"), settings=Settings(hello_seconds=0.5)):
        table = server.create("culottes", ["random"] * 3)["table_id"]
        sockets = [connect(server.base.replace("http", "ws") + f"/ws/{table}").__enter__() for _ in range(20)]
        started = time.monotonic()
        for ws in sockets:
            said = json.loads(ws.recv(timeout=5))
            assert said["code"] == "no_hello" and said["message"].startswith("No hello within 0.5 seconds")
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert closed.value.rcvd.reason.startswith("No hello within 0.5 seconds")
        assert time.monotonic() - started < 5


def test_serve_refuses_a_bad_setting_in_one_sentence_before_it_starts(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("TRICOLORE_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.0.1 proxy.example")
    database = sqlite_url(tmp_path / "t.db")
    result = CliRunner().invoke(cli, ["serve", "--port", str(free_port()), "--db", database])
    assert result.exit_code != 0
    assert "a trusted proxy is an address or a network such as 10.0.0.0/8, not 'proxy.example'" in (
        result.output)
    assert "Traceback" not in result.output
    monkeypatch.delenv("TRICOLORE_TRUSTED_PROXIES")
    result = CliRunner().invoke(cli, ["serve", "--port", str(free_port()), "--tables-per-minute", "0",
                                      "--db", database])
    assert "tables per minute must be a whole number of at least 1" in result.output
