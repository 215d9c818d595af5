"""Where boardrules keeps what it builds and caches: one folder, shared by every checkout.

In `common` because every stage that keeps something there (the back end its compiled
templates, the build its modules and indexes) reads it, and the back end imports no build.
Standard library only: the loader's fast path imports it.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """`$BOARDRULES_CACHE`, else the user's cache folder: shared by every checkout."""
    configured = os.environ.get("BOARDRULES_CACHE")
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "boardrules"
