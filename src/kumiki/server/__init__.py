"""The Kumiki game server: a lobby, storage and AI seats over HTTP and WebSocket (``kumiki serve``).

It holds no game rule of its own: every move is checked, played and shown by the kumiki API.
"""

# What the 'web' extra installs that the server imports: without one of them, one line that names the extra.
_WEB_EXTRA = ("fastapi", "starlette", "sqlalchemy", "uvicorn")

try:
    from kumiki.server.app import create_app
except ModuleNotFoundError as error:
    if (error.name or "").partition(".")[0] not in _WEB_EXTRA:
        raise
    raise ImportError(
        f"kumiki.server needs the 'web' extra: pip install 'kumiki[web]' ({error})", name=error.name
    ) from None

__all__ = ["create_app"]
