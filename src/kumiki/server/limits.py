"""Size and rate limits: what one connection or one address may send."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

MAX_MESSAGE = 16 * 1024  # bytes in one WebSocket message
MAX_BODY = 64 * 1024  # bytes in a JSON request body
MAX_RECORD = 1024 * 1024  # bytes in an imported record
SOCKETS_PER_ADDRESS = 200  # WebSockets open at once from one client address (a club behind one NAT shares one)


@dataclass
class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = field(default=-1.0)
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class Limits:
    """The server's limits (tests and the load benchmark may set their own)."""

    message_bytes: int = MAX_MESSAGE
    body_bytes: int = MAX_BODY
    record_bytes: int = MAX_RECORD
    ws_rate: float = 10.0  # messages a second per WebSocket
    ws_burst: float = 30.0
    http_rate: float = 2.0  # game creations and imports a second per client address
    http_burst: float = 60.0
    agent_pace: float = 1.5  # seconds a computer teammate waits after any edit where everyone builds at once
    sockets_per_address: int = SOCKETS_PER_ADDRESS
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    sockets: dict[str, int] = field(default_factory=dict)

    def ws_bucket(self) -> TokenBucket:
        return TokenBucket(self.ws_rate, self.ws_burst)

    def allow_http(self, address: str) -> bool:
        if len(self.buckets) > 10_000:
            self.buckets.clear()
        bucket = self.buckets.setdefault(address, TokenBucket(self.http_rate, self.http_burst))
        return bucket.take()

    def open_socket(self, address: str) -> bool:
        """Count one more WebSocket from ``address``; False (nothing counted) when it has as many as it may."""
        if self.sockets.get(address, 0) >= self.sockets_per_address:
            return False
        self.sockets[address] = self.sockets.get(address, 0) + 1
        return True

    def close_socket(self, address: str) -> None:
        left = self.sockets.get(address, 0) - 1
        if left > 0:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)
