"""Reading TOML files a user writes (study files, deck files, Blokus 3D structure files)."""

from __future__ import annotations

import tomllib
from typing import Any


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads``, but every text it cannot read is a ``tomllib.TOMLDecodeError`` with a one-line reason:
    tomllib itself lets an integer of over 4,300 digits raise int()'s ValueError (whose message says to call
    ``sys.set_int_max_str_digits``) and arrays or inline tables nested a few thousand deep a RecursionError."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except ValueError as error:
        reason = "a number of over 4300 digits" if "digits" in str(error) else str(error).split("\n", 1)[0]
        raise tomllib.TOMLDecodeError(reason) from None
    except RecursionError:
        raise tomllib.TOMLDecodeError("arrays or tables nested too deeply") from None
