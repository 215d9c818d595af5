"""Pass 2: load the edition file and, depth first, the libraries it imports.

`import classic` reads `classic.rules` from the library folder: the edition's
sibling `lib/` folder (rulesets/lib). Libraries come before the edition, in
import order, each once; a cycle or a missing library is an error at the import.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import ast
from .diagnostics import CompileError, Diagnostic, Span, did_you_mean
from .parser import parse


@dataclass(frozen=True)
class SourceSet:
    """The edition module, its libraries (dependencies first) and all their texts."""

    edition: ast.Module
    libraries: tuple[ast.Module, ...]
    texts: dict[str, str]

    @property
    def modules(self) -> tuple[ast.Module, ...]:
        return (*self.libraries, self.edition)


def library_dir(edition_path: Path) -> Path:
    return edition_path.resolve().parent.parent / "lib"


def load_sources(edition_path: Path) -> SourceSet:
    texts: dict[str, str] = {}
    path = str(edition_path)
    try:
        text = edition_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CompileError(
            [Diagnostic("error", Span(path, 0, 0, 0, 0), f"cannot read rules file: {exc}")]
        ) from None
    texts[path] = text
    edition = parse(text, path)
    libraries: list[ast.Module] = []
    _load_imports(edition, library_dir(edition_path), texts, libraries, (path,))
    return SourceSet(edition, tuple(libraries), texts)


def _load_imports(
    module: ast.Module,
    lib_dir: Path,
    texts: dict[str, str],
    loaded: list[ast.Module],
    stack: tuple[str, ...],
) -> None:
    errors: list[Diagnostic] = []
    for decl in module.decls:
        if not isinstance(decl, ast.Import):
            continue
        lib_path = lib_dir / f"{decl.name}.rules"
        key = str(lib_path)
        if key in stack:
            chain = [Path(p).stem for p in stack[stack.index(key):]] + [decl.name]
            errors.append(
                Diagnostic("error", decl.span, f"import cycle: {' -> '.join(chain)}",
                           "a library may not import, directly or not, what imports it")
            )
            continue
        if any(m.path == key for m in loaded):
            continue
        if not lib_path.is_file():
            available = sorted(p.stem for p in lib_dir.glob("*.rules")
                               if p.is_file()) if lib_dir.is_dir() else []
            hint = did_you_mean(decl.name, available) or (
                f"libraries in {lib_dir}: {', '.join(available) or 'none'}"
            )
            errors.append(
                Diagnostic("error", decl.span, f"no library named '{decl.name}'", hint)
            )
            continue
        try:
            text = lib_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(Diagnostic("error", decl.span, f"cannot read library '{decl.name}': "
                                     f"{exc}", "library files are UTF-8 text"))
            continue
        texts[key] = text
        library = parse(text, key)
        _load_imports(library, lib_dir, texts, loaded, (*stack, key))
        loaded.append(library)
    if errors:
        raise CompileError(errors)
