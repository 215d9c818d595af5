"""Source positions and gcc-style diagnostics (`file:line:col: error: message`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Span:
    """Where a node came from: 1-based line and column, end exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


UNKNOWN_SPAN = Span("<builtin>", 0, 0, 0, 0)


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" or "warning"
    span: Span
    message: str
    hint: str = ""

    def render(self, sources: dict[str, str] | None = None) -> str:
        """The message, the offending line and a caret under the column."""
        lines = [f"{self.span}: {self.severity}: {self.message}"]
        text = (sources or {}).get(self.span.path)
        if text is None and self.span.line > 0:
            try:
                text = Path(self.span.path).read_text(encoding="utf-8")
            except OSError:
                text = None
        if text is not None and self.span.line > 0:
            source_lines = text.splitlines()
            if self.span.line <= len(source_lines):
                line = source_lines[self.span.line - 1]
                lines.append(f"    {line}")
                width = 1
                if self.span.end_line == self.span.line:
                    width = max(1, self.span.end_column - self.span.column)
                lines.append("    " + " " * (self.span.column - 1) + "^" * min(width, 60))
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


class CompileError(Exception):
    """One or more error diagnostics; compilation stops at the end of the pass."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(
            diagnostics, key=lambda d: (d.span.path, d.span.line, d.span.column)
        )
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


@dataclass
class Reporter:
    """Collects diagnostics during a pass, so all mistakes are reported together."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, span: Span, message: str, hint: str = "") -> None:
        self.diagnostics.append(Diagnostic("error", span, message, hint))

    def warning(self, span: Span, message: str, hint: str = "") -> None:
        self.diagnostics.append(Diagnostic("warning", span, message, hint))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise CompileError(self.errors)


def did_you_mean(name: str, candidates: list[str] | set[str]) -> str:
    """A hint naming the closest known name, or nothing."""
    import difflib

    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
