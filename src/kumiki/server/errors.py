"""The HTTP refusal every endpoint raises: a status and one line (``{"error": "..."}``)."""

from __future__ import annotations


class BadRequest(Exception):
    """An HTTP request refused with ``status`` and one line."""

    def __init__(self, message: str, status: int = 400, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.headers = headers
