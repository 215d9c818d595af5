"""Generated programs play alike on both backends (issue 13, "Guards that stay"), and
alike with and without the optimizations that only make them faster.

Each program (programs.py) runs two turns of a three-player game per input, seed and
policy (the default policy traced and untraced: what a trace turns off, the answers taken
inline and the windows skipped), on the interpreted and the compiled backend, and
interpreted once more from the edition compiled without those optimizations
(differential.REFERENCE_PASSES are kept);
trace, payments, counters, cash, positions and cards must be identical, or the error the
same (type, message and rules location). Many programs share one edition, so one build
serves them all. With them run the programs that diverged once (WRITTEN). The CI budget
is one build; the long one (where an interpreted run longer than LONG_LIMIT is a
finding: a turn that never ends):

    pytest -m fuzz tests/fuzz/test_differential.py [--fuzz-examples N]   # N programs, 1000
"""

from __future__ import annotations

import time

import pytest
from differential import build, compare, outcome

CI_SEED, CI_PROGRAMS = 1, 12  # a build costs some 8 s of CPU, and 0.1 s more a program
LONG_PROGRAMS, PER_BUILD = 1000, 50
LONG_LIMIT = 300  # seconds an interpreted run may take in the long run (most take < 1)

# What diverged once, written out: each is run with every input, seed and policy.
WRITTEN = {
    # a division by zero raised each backend's own ZeroDivisionError message
    1001: """rule prog_1001 {
  on turn(p: player) when mode == 1001 {
    result = arg1 / arg2
    result += arg1 % (arg3 - arg3)
    end turn
  }
}
""",
    # C took the stop of a range before its start, and min/max their last argument first
    1002: """rule prog_1002 {
  on turn(p: player) when mode == 1002 {
    for i in random(3) to random(5) + roll(six) {
      pinged += 1
    }
    result = max(ask pick(p, 0, 3), roll(six)) + min(roll(six), ask pick(p, 1, 6))
    end turn
  }
}
""",
    # Cython evaluated a call before a read it changes: `x += f()`, `p.cash + f()`
    1003: """proc bump(q: player) -> int {
  q.score += 10
  pay(bank, q, 7)
  return 1
}
rule prog_1003 {
  on turn(p: player) when mode == 1003 {
    p.score += bump(p)
    result = p.cash + bump(p) * 1000 + p.score
    end turn
  }
}
""",
    # a product of products in `x *= e` overflowed 64 bits in C before it was checked
    1004: """rule prog_1004 {
  on turn(p: player) when mode == 1004 {
    let a = arg1
    a *= (arg2 + 1073741824) * -count(c in cards chance)
    result = a
    end turn
  }
}
""",
    # two parts that may raise: C raised the second one's error (a range's stop, the
    # last argument of max)
    1006: """rule prog_1006 {
  on turn(p: player) when mode == 1006 {
    result = sum(x for x in s5.rent[arg1] to (arg2 % (arg3 - arg3)) % 5)
    end turn
  }
}
""",
    1007: """rule prog_1007 {
  on turn(p: player) when mode == 1007 {
    result = max(s1.rent[arg1], arg2 / (arg3 - arg3))
    end turn
  }
}
""",
    # an overflow in an inlined procedure named the procedure in the reference and its
    # caller when optimized: its argument, a list read at a constant element, could not
    # fail once known-elements said so, and only then was the call inlined (seed 43)
    1008: """proc twice_1008(x: int) -> int {
  return x * 2
}
rule prog_1008 {
  on turn(p: player) when mode == 1008 {
    result = twice_1008(-s1.rent[2 % 3])
    end turn
  }
}
""",
    # a guarded range evaluated its bounds twice (the loop guard, then the loop)
    1005: """rule prog_1005 {
  on turn(p: player) when mode == 1005 {
    for i in 0 to (arg1 + 1) * roll(six) - arg1 {
      pinged += 1
    }
    end turn
  }
}
""",
}


@pytest.mark.long
def test_generated_programs_agree_on_both_backends(tmp_path):
    """The CI budget: one build, of CI_PROGRAMS generated programs and WRITTEN; their
    trees of calls stay within the turn's budget (the long run's reach it)."""
    ids = list(range(1, CI_PROGRAMS + 1)) + sorted(WRITTEN)
    batch = build(tmp_path / "differential", CI_SEED, ids, WRITTEN, deep=False)
    report = compare(batch)
    assert len(batch.programs) >= CI_PROGRAMS * 0.8 + len(WRITTEN), batch.rejected
    assert report.runs and not report.divergences, "\n\n".join(report.divergences[:3])
    for module in batch.modules:  # a guarded range's bounds are evaluated once
        error, trace, *_ = outcome(module, 1005, (5, 0, 0), 3, "default")
        first = trace[trace.index(next(t for t in trace if t.startswith("turn 1 "))):]
        first = first[:next(i for i, t in enumerate(first) if t.startswith("turn 2 "))]
        assert error is None and sum("roll six" in line for line in first) == 1, trace


@pytest.mark.fuzz
def test_the_long_run_of_programs_agrees(tmp_path_factory, fuzz_examples):
    """1000 programs (or --fuzz-examples), 50 to a build."""
    total = fuzz_examples or LONG_PROGRAMS
    started, runs, programs, divergences = time.perf_counter(), 0, 0, []
    for first in range(1, total + 1, PER_BUILD):
        ids = list(range(first, min(first + PER_BUILD, total + 1)))
        batch = build(tmp_path_factory.mktemp("long") / f"long{first}", 7, ids)
        report = compare(batch, limit=LONG_LIMIT)
        runs, programs = runs + report.runs, programs + len(batch.programs)
        divergences += report.divergences
    print(f"\n{programs} programs of {total} compiled, {runs} runs on each backend, "
          f"{len(divergences)} divergences, {time.perf_counter() - started:.0f} s")
    assert not divergences, "\n\n".join(divergences[:3])
