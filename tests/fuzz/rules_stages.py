"""Feed a mutant to every stage of the compiler: each one succeeds or raises CompileError
whose diagnostics are located in the files compiled; anything else is a defect.

Stages: parse (the mutated file alone), check (the edition that holds or imports it, or a
library module alone, through the passes that check: load to nesting) and, for a subset,
every pass up to codegen, the generated module compiled by CPython and a few turns played
interpreted (a rules error is fine; any other exception is not).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rules_mutants import EDITIONS, RULESETS, Mutant

from boardrules.compiler import library_check
from boardrules.compiler.common.diagnostics import CompileError, Diagnostic, terminal_text
from boardrules.compiler.front import modules
from boardrules.compiler.front.parser import parse
from boardrules.compiler.library_check import check_library, library_module
from boardrules.compiler.pipeline import PASS_NAMES, compile_rules

CHECK_UNTIL = "nesting"  # the last pass of the front end proper (the optimizations follow)
LAST_CHECKING_PASS = PASS_NAMES[PASS_NAMES.index("codegen") - 1]
INVALID_BYTE = b"\xff"


class Workspace:
    """A copy of rulesets/ in a folder of its own, where one file at a time is mutated."""

    def __init__(self, root: Path) -> None:
        self.root = root / "rulesets"
        if not self.root.exists():
            shutil.copytree(RULESETS, self.root)
        self.importers = {lib: [e for e in EDITIONS if lib in self._imports_of(e)]
                          for lib in (p.stem for p in (self.root / "lib").glob("*.rules"))}

    def originals(self, targets: list[str]) -> dict[str, str]:
        """The texts of these targets as copied (the shipped files may change meanwhile)."""
        return {t: self.path(t).read_text(encoding="utf-8") for t in targets}

    def path(self, target: str) -> Path:
        if target.startswith("lib/"):
            return self.root / "lib" / f"{target[4:]}.rules"
        return self.root / target / f"{target}.rules"

    def _imports_of(self, edition: str) -> set[str]:
        """The libraries an edition imports, directly or not."""
        seen: set[str] = set()
        todo = [self.path(edition)]
        while todo:
            text = todo.pop().read_text(encoding="utf-8")
            for line in re.findall(r"^import (.*)$", text, re.MULTILINE):
                for name in (n.strip() for n in line.split(",")):
                    if name and name not in seen:
                        seen.add(name)
                        todo.append(self.path(f"lib/{name}"))
        return seen

    @contextmanager
    def mutated(self, m: Mutant) -> Iterator[Path]:
        path = self.path(m.target)
        original = path.read_bytes()
        data = m.text.encode("utf-8", "surrogatepass")
        if m.invalid_utf8:
            cut = len(data) // 2
            data = data[:cut] + INVALID_BYTE + data[cut:]
        path.write_bytes(data)
        try:
            yield path
        finally:
            path.write_bytes(original)


def universal_newlines(text: str) -> str:
    """The text as Path.read_text() gives it: \\r\\n and a lone \\r read as \\n."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


_parsed: dict[tuple[str, str], object] = {}


def _cached_parse(text: str, path: str):
    """parse(), remembered for the unchanged files every check of a mutant loads again."""
    key = (path, text)
    if key not in _parsed:
        if len(_parsed) > 256:
            _parsed.clear()
        _parsed[key] = parse(text, path)
    return _parsed[key]


@contextmanager
def parse_cache() -> Iterator[None]:
    """Parse each unchanged file once: loading an edition parses a dozen libraries."""
    saved = modules.parse, library_check.parse
    modules.parse = library_check.parse = _cached_parse
    try:
        yield
    finally:
        modules.parse, library_check.parse = saved


def located(error: CompileError, texts: dict[str, str], label: str) -> None:
    """Fail unless every diagnostic names a file compiled, a line in it, and renders."""
    assert error.diagnostics, f"{label}: a CompileError without diagnostics"
    for d in error.diagnostics:
        _located(d, texts, label)


def _located(d: Diagnostic, texts: dict[str, str], label: str) -> None:
    span = d.span
    where = f"{label}: {span}: {d.message}"
    assert d.severity == "error", where
    if span.path not in texts and Path(span.path).is_file():  # a library found elsewhere
        texts = {**texts, span.path: Path(span.path).read_text(encoding="utf-8")}
    assert span.path in texts, f"{where}: the span names no file compiled"
    rendered = d.render(texts).split("\n")  # must not raise
    if span.line == 0:
        assert d.message.startswith("cannot read"), f"{where}: no line"
        return
    lines = texts[span.path].removeprefix("\ufeff").split("\n")
    assert 1 <= span.line <= len(lines), f"{where}: line {span.line} of {len(lines)}"
    assert span.column >= 1, f"{where}: column {span.column}"
    line = terminal_text(lines[span.line - 1].removesuffix("\r"))  # as a terminal shows it
    assert rendered[1:2] == [f"    {line}"], f"{where}: shows {rendered[1:2]}, not line {line!r}"


def _texts(path: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """Every rules file of the workspace (a span may name any of them), as read."""
    texts = {}
    for p in path.parents[1].glob("**/*.rules"):
        try:
            texts[str(p)] = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            texts[str(p)] = ""
    texts.update(extra or {})
    return texts


def run_stages(ws: Workspace, m: Mutant, edition: str | None, full: bool,
               turns: int = 20) -> str:
    """The mutant through every stage; what became of it (the test asserts the rest)."""
    with ws.mutated(m) as path:
        texts = _texts(path)
        text = universal_newlines(m.text)  # as the compiler reads the file
        try:
            _cached_parse(text, str(path))
        except CompileError as error:
            located(error, {**texts, str(path): text}, "parse")
            if not m.invalid_utf8:
                return "parse error"  # loading it again would fail the same way
        if edition is None:  # a library module checked alone
            try:
                module = library_module(path)
                if module is None:
                    return "not a library module"
                check_library(path, module, until=CHECK_UNTIL)
            except CompileError as error:
                located(error, texts, "check library")
                return "check error"
            return "library checked"
        edition_path = ws.path(edition)
        try:
            compile_rules(edition_path, until=CHECK_UNTIL)
        except CompileError as error:
            located(error, texts, "check")
            return "check error"
        if not full:
            return "checked"
        done: list[str] = []
        try:
            compilation = compile_rules(edition_path, after_pass=lambda name, c: done.append(name))
        except CompileError as error:
            located(error, texts, "compile")
            assert done[-1] != LAST_CHECKING_PASS, \
                f"check passes but codegen rejects: {error.render()}"
            return "optimizer error"
    code = compilation.code
    compiled = compile(code, "<generated>", "exec")
    return "played" if play_interpreted(compiled, turns) else "rule error"


def play_interpreted(code, turns: int) -> bool:
    """Import the generated module with CPython and play a few turns: True when they ran,
    False on a rules error; any other exception fails the test."""
    namespace: dict = {"__name__": "fuzzed_edition"}
    exec(code, namespace)
    game = namespace["Game"](namespace["MIN_PLAYERS"], seed=7, policies=None)
    game.set_policies(["random"] * namespace["MIN_PLAYERS"])
    try:
        game.play(turns)
    except namespace["RuleError"]:
        return False
    return True


def replay(path: Path) -> str:
    """A regression file (an edition) through every stage: its first error, or "ok"."""
    try:
        text = path.read_text(encoding="utf-8")  # as the compiler reads it
    except UnicodeDecodeError:
        text = ""
    texts = {str(path): text}
    try:
        _cached_parse(text, str(path))
        compilation = compile_rules(path)
    except CompileError as error:
        located(error, texts, "replay")
        return error.diagnostics[0].message
    play_interpreted(compile(compilation.code, "<generated>", "exec"), 20)
    return "ok"
