"""Reading the files a user names: rules files, library modules, rulebooks.

Only a regular file is read, and only up to MAX_BYTES: `/dev/zero` given as a rulebook
would be read until memory runs out, and a FIFO would block the command for ever (it is
opened without waiting for a writer, then refused). Failures are OSErrors, which every
caller already reports as a file it cannot read.

Standard library only: the loader's fast path (source_index.py) reads through it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_BYTES = 16 * 1024 * 1024  # 16 MiB: a hundred times the largest edition and rulebook


def read_bytes(path: Path | str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (OSError otherwise)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit // (1024 * 1024)} MiB", str(path))
    return data


def read_text(path: Path | str, limit: int = MAX_BYTES) -> str:
    """A regular file's UTF-8 text (OSError, or UnicodeDecodeError when not UTF-8)."""
    return read_bytes(path, limit).decode("utf-8")
