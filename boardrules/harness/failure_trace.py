"""How much of a scenario's trace its failure shows: the last lines, by default these many."""

from __future__ import annotations

TRACE_LINES = 40  # the lines of the trace under a failure, by default


def trace_tail(trace: list[str], limit: int | None) -> list[str]:
    """The trace under a failure: its last `limit` lines (all of them for None)."""
    shown = trace if limit is None else trace[len(trace) - limit:] if limit else []
    prefix = ([f"  ... ({len(trace) - len(shown)} earlier lines; --trace-lines N or -v "
               "shows more)"] if len(shown) < len(trace) else [])
    return ["what happened:"] + prefix + [f"  {line}" for line in shown]
