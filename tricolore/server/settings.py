"""What an operator sets when serving: per-address limits, trusted proxies, the database pool and
how long a socket may stay silent before its hello. ``tricolore serve`` reads them from its options
or from ``TRICOLORE_*`` environment variables (see ``tricolore serve --help``)."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tricolore.core.errors import OptionsError
from tricolore.core.inputs import text_problem

MAX_INSTANCE_NAME = 128
"""The longest instance name (a lease's ``owner``)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Settings:
    """An operator's settings; every field has the default a single machine needs."""

    tables_per_minute: int = 10
    """New tables (and open seats taken from the lobby) one client address may ask for a minute."""
    sockets_per_address: int = 64
    """Websockets one client address may hold open at once (a classroom behind one address)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.0/8``) of reverse proxies whose ``X-Forwarded-For`` is
    believed; from any other peer the header is ignored."""
    hello_seconds: float = 5.0
    """Seconds a new socket has to say hello before it is closed with a reason."""
    db_pool_size: int = 5
    """Database connections kept open (PostgreSQL; SQLite keeps one per thread)."""
    policies: str | None = None
    """A folder of trained policies (``.npz``, see :mod:`tricolore.agents.policy`) the lobby offers
    as bots, ``policy:NAME`` for ``NAME.npz``; none offered if not set."""
    instance_name: str | None = None
    """This process's name among several serving one PostgreSQL database (each a different one);
    by default its host's name and process id."""
    lease_seconds: float = 5.0
    """How long a process's hold on a table lasts unless renewed (PostgreSQL): a killed process's
    tables are taken over by another this long after its last renewal."""

    def __post_init__(self) -> None:
        for name, least in (("tables_per_minute", 1), ("sockets_per_address", 1), ("db_pool_size", 1)):
            value = getattr(self, name)
            if type(value) is not int or value < least:
                raise OptionsError(f"{name.replace('_', ' ')} must be a whole number of at least {least}, "
                                   f"not {value!r}")
        if not isinstance(self.hello_seconds, int | float) or not 0.1 <= self.hello_seconds <= 600:
            raise OptionsError("the hello timeout must be from 0.1 to 600 seconds, "
                               f"not {self.hello_seconds!r}")
        networks(self.trusted_proxies)  # each one readable, or a sentence
        if (not isinstance(self.lease_seconds, int | float) or isinstance(self.lease_seconds, bool)
                or not 1 <= self.lease_seconds <= 600):
            raise OptionsError(f"the lease must be from 1 to 600 seconds, not {self.lease_seconds!r}")
        if self.instance_name is not None and (
                text_problem(self.instance_name, "instance name", MAX_INSTANCE_NAME)
                or not self.instance_name.strip()):
            raise OptionsError(f"the instance name is text of 1 to {MAX_INSTANCE_NAME} characters "
                               "that names this process among the servers of one database")
        if self.policies is not None and not os.path.isdir(self.policies):
            raise OptionsError(f"the policies folder {self.policies!r} is not a folder")

    def client_address(self, peer: str | None, headers: Mapping[str, str]) -> str:
        """The address a request comes from: the peer's, unless the peer is a trusted proxy; then
        the last address of ``X-Forwarded-For`` that is not itself a trusted proxy (the one the
        first trusted proxy saw)."""
        address = peer or "unknown"
        trusted = networks(self.trusted_proxies)
        if not trusted or not within(address, trusted):
            return address
        forwarded = [part.strip() for part in headers.get("x-forwarded-for", "").split(",") if part.strip()]
        for hop in reversed(forwarded):
            if not within(hop, trusted):
                return hop if readable(hop) else address
        return address


def networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """The networks of trusted proxies; an entry that is not an address or network gets a sentence."""
    found = []
    for entry in entries:
        try:
            found.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise OptionsError(f"a trusted proxy is an address or a network such as 10.0.0.0/8, "
                               f"not {entry!r}") from None
    return tuple(found)


def readable(address: str) -> bool:
    """Whether ``address`` is an IP address."""
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def within(address: str, trusted: tuple[Network, ...]) -> bool:
    """Whether ``address`` belongs to one of ``trusted``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)
