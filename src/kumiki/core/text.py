"""What a name or a chat line may hold: printable text, and the invisible joiners that emoji sequences need (the
server's names and chat, the names `kumiki replay` shows from a record)."""

from __future__ import annotations

# ZERO WIDTH NON-JOINER and JOINER (a family or "technologist" emoji is several joined by U+200D); the tag letters
# U+E0020-U+E007F spell a subdivision flag (Scotland, Wales) after a black flag. All are "format" characters, which
# str.isprintable() refuses; the other format characters (bidirectional overrides and isolates, which can make a
# name read backwards, soft hyphens, byte-order marks) stay refused.
JOINERS = frozenset({"\u200c", "\u200d"})


def _shown(ch: str) -> bool:
    return ch.isprintable() or ch in JOINERS or "\U000e0020" <= ch <= "\U000e007f"


def printable(text: str) -> bool:
    """Whether ``text`` is one line a page can show as written: printable characters, joiners and emoji tags."""
    return all(_shown(ch) for ch in text)


def printable_only(text: str) -> str:
    """``text`` without what ``printable`` refuses (control characters, bidirectional overrides, NUL)."""
    return "".join(ch for ch in text if _shown(ch))
