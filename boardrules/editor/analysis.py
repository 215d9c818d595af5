"""Check a document's unsaved text with the compiler's front end, for the language server.

The compiler reads files from disk; an editor holds text that is not saved yet. The
document is parsed from its text and put where the loader would have put the file, and
the rest of the program (its libraries, its edition, the edition's other scenario files)
is loaded from disk; then the checking passes run as `boardrules check` runs them. What
the document is decides what is checked:

- an edition (`NAME/NAME.rules`, or any file with an `edition` header): the edition, its
  libraries and its scenario files;
- a scenario file (`scenarios/*.rules`, `conformance/*.rules` beside an edition): the
  edition it belongs to, with this file's text in place of the saved one;
- a library module (no header, not laid out as an edition): as `boardrules check` checks
  one, imported by an empty edition (compiler/library_check.py).

Nothing is written anywhere: the checks run in the server's process.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..compiler.common.collector import cycle_collection_paused
from ..compiler.common.diagnostics import CompileError, Diagnostic, Span
from ..compiler.front import ast
from ..compiler.front.libpath import SCENARIO_FOLDERS, scenario_paths, search_path
from ..compiler.front.modules import SourceSet, _load_imports, _parsed_edition, _scenario_file
from ..compiler.front.parser import parse
from ..compiler.front.symbols import Symbols
from ..compiler.library_check import IMPORTER, _forgive, _search
from ..compiler.pipeline import LAST_CHECKING_PASS, PASSES, Compilation

_SCENARIO_FOLDERS = {name for name, _ in SCENARIO_FOLDERS}


@dataclass
class Analysis:
    """What the front end made of one document: its diagnostics (in any file), its own
    syntax tree and the program's symbol table, when the checks got that far."""

    path: Path
    text: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    module: ast.Module | None = None
    symbols: Symbols | None = None
    texts: dict[str, str] = field(default_factory=dict)  # every file's text, by span path
    libraries: tuple[str, ...] = ()  # the paths of the library modules the check loaded

    def is_here(self, span: Span) -> bool:
        """Whether a span points into this document."""
        return same_file(span.path, self.path)


def same_file(path: str, other: Path) -> bool:
    try:
        return Path(path).resolve() == other.resolve()
    except (OSError, ValueError):
        return False


def edition_of_scenario_file(path: Path) -> Path | None:
    """The edition a scenario file belongs to: `E/conformance/x.rules` -> `E/E.rules`."""
    folder = path.resolve().parent
    if folder.name not in _SCENARIO_FOLDERS:
        return None
    edition = folder.parent / f"{folder.parent.name}.rules"
    return edition if edition.is_file() else None


# the passes a check runs while the author types: up to the lint, which is most of what
# `boardrules check` finds in a third of its time (the optimizations that follow report
# only capacity, nesting and folded constants out of range)
WHILE_TYPING = "lint"


def analyse(path: Path, text: str, until: str = LAST_CHECKING_PASS) -> Analysis:
    """Check `text` as the content of the file at `path`, running the passes up to `until`
    (all that `boardrules check` runs by default); never raises for bad rules."""
    analysis = Analysis(path, text, texts={str(path): text})
    try:
        analysis.module = _parsed_document(text, str(path))
    except CompileError as exc:
        analysis.diagnostics = list(exc.diagnostics)
        return analysis
    edition = edition_of_scenario_file(path)
    library = edition is None and _is_library(path, analysis.module)
    try:
        if library:
            compilation = _library_compilation(path, analysis)
        else:
            compilation = _edition_compilation(edition or path, analysis)
    except CompileError as exc:  # loading: a missing library, a file that does not parse
        analysis.diagnostics = list(exc.diagnostics)
        return analysis
    except OSError as exc:  # the edition of a scenario file cannot be read
        analysis.diagnostics = [Diagnostic("error", Span(str(path), 1, 1, 1, 2), str(exc))]
        return analysis
    _run_checks(compilation, library, until)
    analysis.diagnostics = list(compilation.reporter.diagnostics)
    analysis.symbols = compilation.symbols
    assert compilation.sources is not None
    analysis.libraries = tuple(m.path for m in compilation.sources.libraries)
    return analysis


@lru_cache(maxsize=4)
def _parsed_document(text: str, path: str) -> ast.Module:
    """A document's syntax tree, kept while its text stays the same (a hover after the
    check), in a cache of its own: the documents' versions never push the editions parsed
    from disk out of the loader's."""
    return parse(text, path)


def _is_library(path: Path, module: ast.Module) -> bool:
    """As library_check.library_module decides, on the parsed text."""
    has_header = any(isinstance(d, ast.Edition) for d in module.decls)
    return not has_header and path.resolve().parent.name != path.stem


def _edition_compilation(edition: Path, analysis: Analysis) -> Compilation:
    """The edition at `edition`, its libraries and scenario files, with the document's
    syntax tree in place of its file."""
    texts = analysis.texts
    if same_file(str(edition), analysis.path):
        module = analysis.module
    else:
        text = edition.read_text(encoding="utf-8")
        texts[str(edition)] = text
        module = _parsed_edition(text, str(edition))
    assert module is not None
    libraries: list[ast.Module] = []
    _load_imports(module, search_path(edition), texts, libraries, (str(edition),))
    scenario_files = []
    for file, suite in scenario_paths(edition):
        if same_file(str(file), analysis.path) and analysis.module is not None:
            scenario_files.append(_marked(analysis.module, suite))
        else:
            scenario_files.append(_scenario_file(file, suite, texts))
    compilation = Compilation(edition)
    compilation.sources = SourceSet(module, tuple(libraries), texts, tuple(scenario_files))
    return compilation


def _marked(module: ast.Module, suite: str) -> ast.Module:
    """The scenarios of a scenario file marked with its folder's suite, as the loader
    marks them."""
    if not suite:
        return module
    return dataclasses.replace(module, decls=tuple(
        dataclasses.replace(d, suite=suite) if isinstance(d, ast.Scenario) else d
        for d in module.decls))


def _library_compilation(path: Path, analysis: Analysis) -> Compilation:
    """A library module imported by an empty edition, as `boardrules check` checks it."""
    assert analysis.module is not None
    loaded: list[ast.Module] = []
    _load_imports(analysis.module, _search(path), analysis.texts, loaded, (str(path),))
    span = Span(IMPORTER, 1, 1, 1, 1)
    header = ast.Edition(span, "library check",
                         (("rulebook", (ast.StrLit(span, "rulebook.txt"),), span),))
    compilation = Compilation(path)
    compilation.sources = SourceSet(ast.Module(span, IMPORTER, (header,)),
                                    (*loaded, analysis.module), analysis.texts)
    return compilation


def _run_checks(compilation: Compilation, library: bool, until: str) -> None:
    """The checking passes after loading, stopping where `boardrules check` would stop;
    the errors are kept in the reporter, not raised."""
    skipped = ("load", "quotes") if library else ("load",)
    with cycle_collection_paused():  # as compile_rules runs them, for speed
        _run_passes(compilation, library, until, skipped)


def _run_passes(compilation: Compilation, library: bool, until: str,
                skipped: tuple[str, ...]) -> None:
    for name, run, stop_on_error in PASSES:
        if name not in skipped:
            try:
                run(compilation)
            except CompileError as exc:
                compilation.reporter.diagnostics.extend(exc.diagnostics)
            except RecursionError:
                break  # nesting beyond Python's stack: the syntax tree is still navigable
            if library:
                _forgive(compilation)
            if stop_on_error and compilation.reporter.errors:
                break
        if name == until:
            break
