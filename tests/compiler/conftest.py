"""Helpers for the compiler tests: small editions written into a temporary folder.

The layout mirrors rulesets/: <tmp>/ed/ed.rules (+ rulebook.txt) and <tmp>/lib/*.rules,
so `import x` in the edition finds <tmp>/lib/x.rules.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from boardrules.compiler.back.codegen import generate
from boardrules.compiler.common.diagnostics import CompileError, Reporter
from boardrules.compiler.front.checker import Checker, Scope
from boardrules.compiler.front.modules import load_sources
from boardrules.compiler.front.parser import parse
from boardrules.compiler.front.symbols import Collector
from boardrules.compiler.ir.nodes import VOID, Type
from boardrules.compiler.pipeline import Compilation, compile_rules

RULEBOOK = """The Test Game.

Each player starts with
100 beans.   Whoever lands on
a space pays its toll.
"""

# Just enough for a complete edition: a header, space kinds, a board and a turn.
PRELUDE = """edition "T" {
  rulebook "rulebook.txt"
  currency "Beans"
  players 2 to 4
}
enum kind { plain, special }
board {
  space s0 "S0" plain
  space s1 "S1" special
  space s2 "S2" plain
}
rule turn { on turn(p: player) { move(p, 1) } }
"""


class EditionFactory:
    def __init__(self, root: Path):
        self.root = root

    def write(self, body: str, *, prelude: bool = True, rulebook: str | None = RULEBOOK,
              libs: dict[str, str] | None = None, name: str = "ed",
              files: dict[str, str] | None = None) -> Path:
        """The edition (and its rulebook, libraries and `files`: other files of its folder,
        such as scenario files, by their path in it)."""
        folder = self.root / name
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.rules"
        path.write_text((PRELUDE if prelude else "") + body, encoding="utf-8")
        if rulebook is not None:
            (folder / "rulebook.txt").write_text(rulebook, encoding="utf-8")
        for lib, text in (libs or {}).items():
            (self.root / "lib").mkdir(exist_ok=True)
            (self.root / "lib" / f"{lib}.rules").write_text(text, encoding="utf-8")
        for name_in_folder, text in (files or {}).items():
            (folder / name_in_folder).parent.mkdir(parents=True, exist_ok=True)
            (folder / name_in_folder).write_text(text, encoding="utf-8")
        return path

    def compile(self, body: str, until: str = "check", **kwargs) -> Compilation:
        return compile_rules(self.write(body, **kwargs), until=until)

    def module(self, body: str, **kwargs) -> tuple[Compilation, str, dict]:
        """A tiny edition's generated module, run as Python: its compilation, its code and
        its namespace (`Game`, ...)."""
        compilation = compile_rules(self.write(body, **kwargs))
        code = generate(compilation.program, "ed.rules")
        namespace: dict = {"__name__": "generated_under_test"}
        exec(compile(code, "<generated>", "exec"), namespace)
        return compilation, code, namespace

    def three_ways(self, body: str, name: str) -> list:
        """A tiny edition's module interpreted, compiled, and interpreted without any
        optimization (the differential fuzzer's reference)."""
        from boardrules.compiler.ir.optimize import OPTIMIZATIONS
        from boardrules.runtime.loader import import_compilation, load_module

        path = self.write(body, name=name)
        reference = compile_rules(path, skip=[n for n, _ in OPTIMIZATIONS])
        return [load_module(str(path), "interpreted"), load_module(str(path), "compiled"),
                import_compilation(reference, "interpreted")]

    def errors(self, body: str, until: str = "check", **kwargs) -> list[str]:
        """The error messages compilation reports (fails the test if it succeeds)."""
        with pytest.raises(CompileError) as info:
            self.compile(body, until=until, **kwargs)
        return [d.message for d in info.value.diagnostics]

    def located(self, body: str, until: str = "check", **kwargs) -> list[tuple[str, int, int]]:
        """The code, line and column of each error compilation reports (fails the test if
        it succeeds): what tests match rather than the wording."""
        return [(d.code, d.span.line, d.span.column)
                for d in self.diagnostics(body, until=until, **kwargs)]

    def diagnostics(self, body: str, until: str = "check", **kwargs):
        with pytest.raises(CompileError) as info:
            self.compile(body, until=until, **kwargs)
        return info.value.diagnostics

    def collect(self, body: str, **kwargs):
        """Symbols and the reporter after the collect pass (errors are not raised)."""
        path = self.write(body, **kwargs)
        reporter = Reporter()
        symbols = Collector(load_sources(path), reporter).run()
        return symbols, reporter

    def lower(self, body: str, expr: str, variables: dict[str, Type] | None = None):
        """Lower one expression with the checker against the edition's symbols."""
        symbols, reporter = self.collect(body)
        assert not reporter.errors, [d.message for d in reporter.errors]
        checker = Checker(symbols, reporter)
        node = parse(f"set probe = {expr}\n", "probe.rules").decls[0].value
        lowered = checker.expr(node, Scope("probe", VOID, dict(variables or {})))
        return lowered, reporter, checker


@pytest.fixture
def editions(tmp_path) -> EditionFactory:
    return EditionFactory(tmp_path)


@pytest.fixture(scope="module")
def module_editions(tmp_path_factory) -> EditionFactory:
    """Editions a whole test module shares: one build serves all its tests."""
    return EditionFactory(tmp_path_factory.mktemp("editions"))


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A private, empty cache ($BOARDRULES_CACHE) for the test."""
    root = tmp_path / "cache"
    monkeypatch.setenv("BOARDRULES_CACHE", str(root))
    return root


@pytest.fixture
def tiny_copy(tmp_path) -> Path:
    """A private copy of the tiny edition and its library, free to edit."""
    shutil.copytree(FIXTURES / "tiny", tmp_path / "rules" / "tiny")
    shutil.copytree(FIXTURES / "lib", tmp_path / "rules" / "lib")
    return tmp_path / "rules" / "tiny" / "tiny.rules"


@pytest.fixture
def check_memos(monkeypatch):
    """Check memoized methods of a generated module's Game in the games it plays next: each
    value a call returns equals the one worked out afresh on a copy whose every kept value
    is outdated. Returns the counts of the calls and of the hits (no slot written)."""

    def checked(module, names: list[str]) -> dict[str, int]:
        counted = {"calls": 0, "hits": 0}

        def checking(name: str, method):
            def check(self, *args):
                stamps = self.memo_stamp[:]
                kept = method(self, *args)
                counted["calls"] += 1
                counted["hits"] += stamps == self.memo_stamp
                copy = self.copy()
                copy.memo_forget()  # every kept value outdated: worked out afresh
                assert kept == method(copy, *args), (name, args)
                return kept
            return check

        for name in names:
            monkeypatch.setattr(module.Game, name, checking(name, getattr(module.Game, name)))
        return counted

    return checked
