"""Mutated shipped rules files never crash the compiler (issue 13, "Guards that stay").

Every stage either succeeds or raises CompileError with diagnostics located in the files
compiled (rules_stages.py); any other exception, or a diagnostic that names no line of
them, is a defect. A short budget runs with the suite; the long one on request:

    pytest -m fuzz tests/fuzz/test_fuzz_rules.py --fuzz-examples 2000   # per group (5)

A run goes on after a failure and reports every distinct one at the end, each mutant
written to a findings folder ($BOARDRULES_FUZZ_FINDINGS, else pytest's temporary
folder). A finding made small is kept in tests/fuzz/regressions/ (replayed by
test_fuzz_regressions.py). $BOARDRULES_FUZZ_REPORT=FILE adds a line per run to FILE:
mutants, seconds and what became of them.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rules_mutants import EDITIONS, LIBRARIES, mutant
from rules_stages import Workspace, parse_cache, run_stages

CI_EXAMPLES = 50
LONG_DEFAULT = 2000
# The long run's groups: each edition with its mutants, and the library modules.
GROUPS = {**{e: [e] for e in EDITIONS}, "lib": [f"lib/{name}" for name in LIBRARIES]}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    return Workspace(tmp_path_factory.mktemp("fuzz"))


@pytest.fixture(scope="module")
def findings(tmp_path_factory) -> Path:
    folder = os.environ.get("BOARDRULES_FUZZ_FINDINGS")
    return Path(folder) if folder else tmp_path_factory.mktemp("findings")


def fuzz(ws: Workspace, targets: list[str], examples: int, full_share: int,
         derandomize: bool, findings: Path, in_editions: bool = True
         ) -> tuple[Counter, dict[str, str]]:
    """Run `examples` mutants of `targets`; a library module's is checked alone or (when
    `in_editions`) in an edition that imports it; one in `full_share` of those checked in
    an edition goes through every pass. What became of them, and each distinct failure
    (by its first line) with the file its mutant was written to."""
    outcomes: Counter = Counter()
    failures: dict[str, str] = {}
    originals = ws.originals(targets)

    @settings(max_examples=examples, deadline=None, database=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    @given(st.data())
    def one(data: st.DataObject) -> None:
        m = mutant(data, originals)
        edition = m.target
        if m.target.startswith("lib/"):
            choices = [None, *(ws.importers[m.target[4:]] if in_editions else [])]
            edition = data.draw(st.sampled_from(choices), label="checked as")
        full = full_share > 0 and edition is not None and data.draw(
            st.integers(0, full_share - 1), label="full") == 0
        try:
            outcomes[run_stages(ws, m, edition, full)] += 1
        except Exception as error:  # AssertionError from the checks, or a crash
            outcomes["failure"] += 1
            what = f"{type(error).__name__}: {error}".split("\n")[0][:300]
            if what not in failures:
                failures[what] = _keep(findings, m, edition, what)

    with parse_cache():
        one()
    return outcomes, failures


def _keep(findings: Path, m, edition: str | None, what: str) -> str:
    """Write a failing mutant where it can be made into a regression file."""
    findings.mkdir(parents=True, exist_ok=True)
    name = f"{m.target.replace('/', '_')}-{hashlib.sha1(m.text.encode()).hexdigest()[:8]}"
    path = findings / f"{name}.rules"
    path.write_text(f"# {what}\n# mutant of {m.target} (checked as {edition or 'a library'}):"
                    f" {'; '.join(m.changes)}\n" + m.text, encoding="utf-8",
                    errors="surrogatepass")
    return str(path)


def _report(name: str, outcomes: Counter, seconds: float) -> None:
    path = os.environ.get("BOARDRULES_FUZZ_REPORT")
    if path:
        with Path(path).open("a") as out:
            out.write(json.dumps({"group": name, "mutants": sum(outcomes.values()),
                                  "seconds": round(seconds, 1), "outcomes": outcomes}) + "\n")


def _verdict(failures: dict[str, str]) -> str:
    return "\n".join(f"{what}\n    mutant: {path}" for what, path in failures.items())


def test_a_short_run_of_mutants_fails_cleanly(workspace, findings):
    """The CI budget, the same mutants every run: the library modules, parsed and checked
    alone (an edition costs ten times as much to check; the long run mutates them)."""
    started = time.perf_counter()
    outcomes, failures = fuzz(workspace, [f"lib/{n}" for n in LIBRARIES], CI_EXAMPLES,
                              full_share=0, derandomize=True, findings=findings,
                              in_editions=False)
    _report("ci", outcomes, time.perf_counter() - started)
    assert not failures, _verdict(failures)
    assert sum(outcomes.values()) == CI_EXAMPLES


@pytest.mark.fuzz
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_the_long_run_of_mutants_fails_cleanly(workspace, findings, group, fuzz_examples):
    started = time.perf_counter()
    outcomes, failures = fuzz(workspace, GROUPS[group], fuzz_examples or LONG_DEFAULT,
                              full_share=25, derandomize=False, findings=findings)
    _report(group, outcomes, time.perf_counter() - started)
    print(f"\n{group}: {sum(outcomes.values())} mutants in "
          f"{time.perf_counter() - started:.0f} s: {dict(outcomes)}")
    assert not failures, _verdict(failures)
