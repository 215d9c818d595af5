"""Source positions and gcc-style diagnostics (`file:line:col: error: message [BR201]`)."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .error_codes import ErrorCode
from .files import read_text

# a rules file's line that silences named warnings: `# boardrules: allow unused-param`
_ALLOW = re.compile(r"#\s*boardrules:\s*allow\s+([A-Za-z0-9_,\- ]+)")


def allowed(text: str) -> set[str]:
    """The warnings a rules file silences (lint's checks, the optimizer's warnings alike)."""
    return {name for match in _ALLOW.finditer(text)
            for name in re.split(r"[,\s]+", match.group(1).strip()) if name}


def short_where(span: Span) -> str:
    """file:line without the folder, so generated code (and its cache key) do not depend on
    where the rules files are."""
    return f"{Path(span.path).name}:{span.line}"

@dataclass(frozen=True)
class Span:
    """Where a node came from: 1-based line and column, end exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        if self.line <= 0:  # the whole file (it could not be read, say)
            return self.path
        return f"{self.path}:{self.line}:{self.column}"


UNKNOWN_SPAN = Span("<builtin>", 0, 0, 0, 0)


def source_lines(text: str) -> list[str]:
    """A file's lines as spans number them: split at \\n only, as the parser counts (not
    at the \\r, \\f, \\x85 or \\u2028 that str.splitlines() also breaks at), each
    without its \\r\\n ending's \\r."""
    return [line.removesuffix("\r") for line in text.removeprefix("\ufeff").split("\n")]


def one_line(text: str) -> str:
    """A message on one line: the control characters a string of the rules file may bring
    into it (a newline, a carriage return) are written as escapes, so no output line is
    forged."""
    return terminal_text(text, keep="")


def terminal_text(text: str, keep: str = "\t") -> str:
    """Text safe to print on a terminal: control characters (ESC and its colour and cursor
    sequences, a newline...) and the invisible format characters (bidi overrides) written
    as escapes, except those in `keep`."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in keep else ascii(ch)[1:-1] for ch in text)


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" or "warning"
    span: Span
    message: str
    hint: str = ""
    # an error's code from the registry (error_codes.py: "BR201"); a warning's lint check
    # ("unused-procedure"), or nothing
    code: str = ""

    @property
    def header(self) -> str:
        """The first line: `file:line:col: error: message [BR201]`."""
        suffix = f" [{self.code}]" if self.code else ""
        return f"{self.span}: {self.severity}: {one_line(self.message)}{suffix}"

    def render(self, sources: dict[str, str] | None = None) -> str:
        """The message, the offending line and a caret under the span."""
        lines = [self.header]
        text = (sources or {}).get(self.span.path)
        if text is None and self.span.line > 0:
            try:
                text = read_text(self.span.path)
            except (OSError, UnicodeDecodeError):
                text = None
        if text is not None and self.span.line > 0:
            numbered = source_lines(text)
            if self.span.line <= len(numbered):
                line = numbered[self.span.line - 1]
                shown = terminal_text(line)  # a raw ESC in the file is not sent as is
                shift = len(terminal_text(line[:max(1, self.span.column) - 1]))
                lines.append(f"    {shown}")
                lines.append("    " + " " * (shift - max(1, self.span.column) + 1)
                             + _caret(line, self.span))
        if self.hint:
            lines.append(f"  hint: {one_line(self.hint)}")
        return "\n".join(lines)


_MAX_CARETS = 60


def _caret(line: str, span: Span) -> str:
    """Carets under the span on `line`: to the end of the line when the span goes on.

    Tabs before the column are copied, so the carets line up however wide a tab is shown.
    """
    start = max(1, span.column) - 1
    if span.end_line == span.line:
        width = span.end_column - span.column
    else:
        width = len(line.rstrip()) - start
    indent = "".join(ch if ch == "\t" else " " for ch in line[:start])
    indent += " " * (start - len(indent))
    return indent + "^" * max(1, min(width, _MAX_CARETS))


class CompileError(Exception):
    """One or more error diagnostics; compilation stops at the end of the pass."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(
            diagnostics, key=lambda d: (d.span.path, d.span.line, d.span.column)
        )
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


def error_at(span: Span, message: str, hint: str = "", *, code: ErrorCode) -> Diagnostic:
    """An error diagnostic of the kind `code`."""
    return Diagnostic("error", span, message, hint, code.code)


@dataclass
class Reporter:
    """Collects diagnostics during a pass, so all mistakes are reported together."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, span: Span, message: str, hint: str = "", *, code: ErrorCode) -> None:
        self._add(error_at(span, message, hint, code=code))

    def warning(self, span: Span, message: str, hint: str = "", *, code: str = "") -> None:
        self._add(Diagnostic("warning", span, message, hint, code))

    def _add(self, diagnostic: Diagnostic) -> None:
        """Keep a diagnostic once: the steps of a scenario fixture are checked in every
        scenario that uses it, and a mistake in them is one mistake."""
        if diagnostic not in self.diagnostics:
            self.diagnostics.append(diagnostic)

    def reporting(self, code: ErrorCode) -> Reporter:
        """A reporter into the same list whose errors are of the kind `code` unless they
        say otherwise: for passes that report one kind of error and name no code (the
        optimizations, which fold constants)."""
        return _OneKindReporter(self.diagnostics, code)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise CompileError(self.errors)


class _OneKindReporter(Reporter):
    """Reporter.reporting(kind): errors that name no code are of the kind `kind`."""

    def __init__(self, diagnostics: list[Diagnostic], kind: ErrorCode):
        super().__init__(diagnostics)
        self.kind = kind

    def error(self, span: Span, message: str, hint: str = "", *,
              code: ErrorCode | None = None) -> None:
        super().error(span, message, hint, code=code or self.kind)


def did_you_mean(name: str, candidates: list[str] | set[str]) -> str:
    """A hint naming the closest known name, or nothing."""
    import difflib

    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def print_warnings(compilation) -> None:
    """A compilation's warnings on stderr, before what the command prints next: stdout is
    flushed first and stderr after, so that the two streams merged on a pipe (`2>&1 |`)
    keep the order in which things happened."""
    texts = compilation.sources.texts if compilation.sources else None
    sys.stdout.flush()
    for warning in compilation.warnings:
        print(warning.render(texts), file=sys.stderr)
    sys.stderr.flush()
