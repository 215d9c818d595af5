"""`boardrules check` on a library module alone: what can be checked without an edition.

A library module is a rules file without an `edition` header (and not laid out as an
edition, `NAME/NAME.rules`, whose missing header stays an error). It is checked as
if an edition imported it and nothing else: its imports are loaded from the library
search path, names and types are checked and every checking pass runs. What only an
edition gives is not asked for: a value for each param declared without one (the
edition `set`s it), a board, a rule that plays the turn, and the quotes (checked
against the rulebook of each edition that imports the module).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .common.diagnostics import CompileError, Diagnostic, Span, error_at
from .common.error_codes import ErrorCode
from .common.files import read_text
from .front import ast
from .front.libpath import configured_dirs, search_path
from .front.modules import SourceSet, _load_imports
from .front.parser import parse
from .pipeline import PASSES, Compilation

IMPORTER = "<an edition importing it>"  # the path of the edition the check pretends
_SKIPPED = ("load", "quotes")  # sources are loaded here; there is no rulebook
# what the whole program lacks that the editions importing the module give
_ONLY_AN_EDITION_GIVES = (ErrorCode.NO_BOARD.code, ErrorCode.NO_TURN.code)


def library_module(path: Path) -> ast.Module | None:
    """The parsed file when it is a library module (no edition header, not NAME/NAME.rules);
    None for an edition. Raises CompileError when it cannot be read or parsed."""
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise CompileError([error_at(Span(str(path), 0, 0, 0, 0),
                                     f"cannot read rules file: {exc}",
                                     code=ErrorCode.UNREADABLE_FILE)]) from None
    module = parse(text, str(path))
    if any(isinstance(d, ast.Edition) for d in module.decls):
        return None
    if path.resolve().parent.name == path.stem:  # an edition that lacks its header
        return None
    return module


def check_library(path: Path, module: ast.Module | None = None,
                  until: str | None = None) -> Compilation:
    """Run every checking pass (or those up to `until`) on the library module at `path`
    as imported by an empty edition; raise CompileError on its errors."""
    module = module if module is not None else library_module(path)
    if module is None:
        raise ValueError(f"{path} is an edition, not a library module")
    texts = {str(path): read_text(path)}
    loaded: list[ast.Module] = []
    _load_imports(module, _search(path), texts, loaded, (str(path),))
    span = Span(IMPORTER, 1, 1, 1, 1)
    header = ast.Edition(span, "library check",
                         (("rulebook", (ast.StrLit(span, "rulebook.txt"),), span),))
    compilation = Compilation(Path(path))
    compilation.sources = SourceSet(ast.Module(span, IMPORTER, (header,)),
                                    (*loaded, module), texts)
    last = until or PASSES[[name for name, _, _ in PASSES].index("codegen") - 1][0]
    for name, run, stop_on_error in PASSES:
        if name in _SKIPPED:
            continue
        run(compilation)
        _forgive(compilation)
        if stop_on_error:
            compilation.reporter.raise_if_errors()
        if name == last:
            break
    return compilation


def _search(path: Path) -> list[Path]:
    """The library search path, with the module's own folder right after the configured
    folders: its neighbours are the libraries it is written against."""
    folders = [*configured_dirs(), path.resolve().parent, *search_path(path)]
    return [f for i, f in enumerate(folders)
            if f.resolve() not in {g.resolve() for g in folders[:i]}]


def _forgive(compilation: Compilation) -> None:
    """Drop the errors only an edition can fix: a param without a value (the edition
    sets it) and the missing board; move any other error about the pretend edition onto
    the library's first line."""
    symbols = compilation.symbols
    unset = set()
    if symbols is not None:
        unset = {decl.span for name, decl in symbols.params.items()
                 if decl.value is None and name not in symbols.sets}
    kept: list[Diagnostic] = []
    for d in compilation.reporter.diagnostics:
        if d.code == ErrorCode.PARAM_WITHOUT_VALUE.code and d.span in unset:
            continue
        if d.span.path == IMPORTER:
            if d.code in _ONLY_AN_EDITION_GIVES:
                continue
            d = dataclasses.replace(d, span=Span(str(compilation.path), 1, 1, 1, 2))
        kept.append(d)
    compilation.reporter.diagnostics[:] = kept


def summary(path: str, compilation: Compilation) -> str:
    """The one-line result of checking a library module."""
    s = compilation.symbols
    assert s is not None
    return (f"{path}: ok: library module: {len(s.rules)} rules, {len(s.procs)} procedures, "
            f"{len(s.decisions)} decisions, {len(compilation.warnings)} warning(s) "
            "(its quotes and params are checked when an edition imports it)")
