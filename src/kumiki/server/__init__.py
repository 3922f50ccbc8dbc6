"""The Kumiki game server: a lobby, storage and AI seats over HTTP and WebSocket (``kumiki serve``).

It holds no game rule of its own: every move is checked, played and shown by the kumiki API.
"""

from kumiki.server.app import create_app

__all__ = ["create_app"]
