"""The code generator's templates, compiled once and kept on disk.

Jinja compiles each template to Python before it renders it: 0.2 to 0.4 s of every
process that generates a module, a third of a small edition's front end. Its own
bytecode cache keeps the result in `<cache>/templates/`, keyed by the template's name
and file and by what else decides the compiled code (Jinja's version and the
environment's settings, which live in codegen.py). A damaged, unreadable or
unwritable entry is only a miss: the template is compiled as before.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

from ..common.cache_folder import cache_root

FOLDER = "templates"


@lru_cache(maxsize=1)
def _settings_digest() -> str:
    """Jinja's version and the generator's source, where the environment is configured."""
    codegen_source = Path(__file__).with_name("codegen.py").read_bytes()
    return hashlib.sha256(jinja2.__version__.encode() + b"\0" + codegen_source).hexdigest()


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache under the boardrules cache, tolerant of any broken entry."""

    def __init__(self) -> None:
        super().__init__(str(cache_root() / FOLDER), "%s.jinja")

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        key = f"{name}\0{filename}\0{_settings_digest()}".encode()
        return hashlib.sha256(key).hexdigest()[:32]

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - unpickling garbage raises almost anything
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            Path(self.directory).mkdir(parents=True, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass  # a read-only cache: the next process compiles the template again
