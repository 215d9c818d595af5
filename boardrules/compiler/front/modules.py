"""Pass 2: load the edition file and, depth first, the libraries it imports.

`import classic` reads `classic.rules` from the first folder of the library
search path that has it (libpath.py: $BOARDRULES_PATH and --lib, the edition's
sibling `lib/` folder, the bundled library). Libraries come before the edition,
in import order, each once; a cycle or a missing library is an error at the import.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from ..common.diagnostics import CompileError, Diagnostic, Span, did_you_mean, error_at
from ..common.error_codes import ErrorCode
from ..common.files import read_text
from . import ast
from .libpath import available_libraries, find_library, scenario_paths, search_path
from .parser import parse


@dataclass(frozen=True)
class SourceSet:
    """The edition module, its libraries (dependencies first) and all their texts."""

    edition: ast.Module
    libraries: tuple[ast.Module, ...]
    texts: dict[str, str]
    # the edition's scenario files (scenarios/*.rules, conformance/*.rules beside it): only
    # scenarios, which never reach the production module
    scenario_files: tuple[ast.Module, ...] = ()

    @property
    def modules(self) -> tuple[ast.Module, ...]:
        return (*self.libraries, self.edition)

    def is_scenario_file(self, path: str) -> bool:
        return any(m.path == path for m in self.scenario_files)


def library_dir(edition_path: Path) -> Path:
    """The `lib` folder beside the edition's folder (one folder of the search path)."""
    return edition_path.resolve().parent.parent / "lib"


def load_sources(edition_path: Path, search: list[Path] | None = None,
                 scenario_files: bool = True) -> SourceSet:
    """The edition and its libraries, found on `search` (default: libpath.search_path), and
    its scenario files (unless `scenario_files` is False)."""
    texts: dict[str, str] = {}
    path = str(edition_path)
    edition = _parsed_edition(_read(edition_path, "rules file", texts), path)
    libraries: list[ast.Module] = []
    search = search_path(edition_path) if search is None else search
    _load_imports(edition, search, texts, libraries, (path,))
    scenario_files = tuple(_scenario_file(p, suite, texts) for p, suite in
                           (scenario_paths(edition_path) if scenario_files else ()))
    return SourceSet(edition, tuple(libraries), texts, scenario_files)


def _scenario_file(path: Path, suite: str, texts: dict[str, str]) -> ast.Module:
    """A scenario file, parsed, its scenarios marked with the suite of its folder (the
    collector reports anything else it holds)."""
    module = _parsed_library(_read(path, "scenario file", texts), str(path))
    if not suite:
        return module
    return replace(module, decls=tuple(replace(d, suite=suite) if isinstance(d, ast.Scenario)
                                       else d for d in module.decls))


def _read(path: Path, what: str, texts: dict[str, str]) -> str:
    """A file's text, kept in `texts` under its path as given; an error for the whole file
    when it cannot be read."""
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise CompileError(
            [error_at(Span(str(path), 0, 0, 0, 0), f"cannot read {what}: {exc}",
                      code=ErrorCode.UNREADABLE_FILE)]
        ) from None
    texts[str(path)] = text
    return text


@lru_cache(maxsize=8)
def _parsed_edition(text: str, path: str) -> ast.Module:
    """An edition's syntax tree (immutable), parsed once per process while its text stays
    the same: parsing is a third of the front end, which a process may run on one edition
    several times (the suite's workers, `check` then `coverage`). Few are kept: a mutation
    run parses hundreds of variants of one edition."""
    return parse(text, path)


@lru_cache(maxsize=256)
def _parsed_library(text: str, path: str) -> ast.Module:
    """A library's syntax tree (immutable), parsed once per process for every edition that
    imports it: the suite compiles the four editions in each worker, `compare` two."""
    return parse(text, path)


def _load_imports(
    module: ast.Module,
    search: list[Path],
    texts: dict[str, str],
    loaded: list[ast.Module],
    stack: tuple[str, ...],
) -> None:
    errors: list[Diagnostic] = []
    for decl in module.decls:
        if not isinstance(decl, ast.Import):
            continue
        lib_path = find_library(decl.name, search)
        if lib_path is None:
            available = available_libraries(search)
            close = did_you_mean(decl.name, available)
            hint = (f"{close} Or add its folder with --lib DIR or $BOARDRULES_PATH" if close
                    else f"libraries on the search path: {', '.join(available) or 'none'} "
                    "(add a folder with --lib DIR or $BOARDRULES_PATH)")
            errors.append(
                error_at(decl.span, f"no library named '{decl.name}'", hint,
                         code=ErrorCode.UNKNOWN_LIBRARY)
            )
            continue
        key = str(lib_path)
        same = [Path(p).resolve() == lib_path.resolve() for p in stack]
        if any(same):
            chain = [Path(p).stem for p in stack[same.index(True):]] + [decl.name]
            errors.append(
                error_at(decl.span, f"import cycle: {' -> '.join(chain)}",
                         "a library may not import, directly or not, what imports it",
                         code=ErrorCode.IMPORT_CYCLE)
            )
            continue
        if any(Path(m.path).resolve() == lib_path.resolve() for m in loaded):
            continue
        try:
            text = read_text(lib_path)
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(error_at(decl.span, f"cannot read library '{decl.name}': {exc}",
                                   "library files are UTF-8 text",
                                   code=ErrorCode.UNREADABLE_FILE))
            continue
        texts[key] = text
        library = _parsed_library(text, key)
        _load_imports(library, search, texts, loaded, (*stack, key))
        loaded.append(library)
    if errors:
        raise CompileError(errors)
