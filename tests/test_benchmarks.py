"""The benchmark script runs as the README says, on tiny sizes (its figures are not checked:
performance is measured, not asserted)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_backends_benchmark_reports_each_engine_and_the_ratios(tmp_path):
    out = tmp_path / "bench.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/bench_backends.py"), "--games", "2",
         "--compiled-games", "4", "--repeat", "2", "--cref-games", "20", "--json", str(out),
         "--no-pgo"],  # the profile-guided build: test_build.py's, on a small edition
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "best of 2 rounds in turn" in run.stdout
    report = json.loads(out.read_text())
    assert {"interpreted", "compiled"} <= set(report["results"])
    assert report["results"]["compiled"]["games"] == 4
    assert "compiled/interpreted" in report["ratios"]
    if "C reference" in report["results"]:  # when ../shared/reference is there
        assert report["results"]["C reference"]["games"] == 20
        assert "compiled/C" in report["ratios"]
    else:
        assert "C reference skipped" in run.stdout


def test_the_backends_benchmark_plays_the_random_policy_on_request(tmp_path):
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/bench_backends.py"), "animal_crossing",
         "--policy", "random", "--games", "2", "--compiled-games", "2", "--repeat", "1",
         "--cref", str(tmp_path / "none.c"), "--no-pgo"],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "animal_crossing, 4 players, random policy" in run.stdout
    assert "C reference skipped" in run.stdout and "compiled/interpreted" in run.stdout


def test_the_build_benchmark_times_a_cold_build_and_a_load(tmp_path):
    out = tmp_path / "build.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/bench_build.py"),
         str(ROOT / "tests/fixtures/tiny/tiny.rules"), "--repeat", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "best of 1 rounds" in run.stdout
    best = json.loads(out.read_text())["best"]
    assert set(best) == {"cold build", "front end", "Cython", "C compiler",
                         "cached load and a game"}
    assert best["front end"] + best["Cython"] + best["C compiler"] < best["cold build"]


def test_the_build_benchmark_reports_a_failed_build_in_one_message(tmp_path):
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/bench_build.py"), str(tmp_path / "none.rules"),
         "--repeat", "1"], capture_output=True, text=True, timeout=600)
    assert run.returncode != 0 and "failed" in run.stderr and "Traceback" not in run.stderr


def test_the_recompute_oracle_counts_recomputes_and_idle_calls():
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/recompute_oracle.py"), "disney_theme_park",
         "--games", "2", "--regions", "group", "--calls", "manage", "--top", "3"],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    recomputes, avoided = map(float, re.search(
        r"recomputes ([\d.]+) a turn, of which a kept read set avoids ([\d.]+)",
        run.stdout).groups())
    assert 0 < avoided <= recomputes  # the memo wrappers were found and observed
    calls, idle, skippable = map(float, re.search(
        r"manage: ([\d.]+) calls a turn, ([\d.]+) of them write nothing, ([\d.]+)",
        run.stdout).groups())
    assert 0 < skippable <= idle <= calls
    assert len(re.findall(r"^  agg_\w+ ", run.stdout, re.MULTILINE)) == 3


@pytest.mark.long
def test_the_instruction_count_reports_the_game_loop_per_turn():
    """Counted inside the game loop only (or, without valgrind, the script says what is
    missing); one game, as valgrind is slow to start Python."""
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks/instructions.py"),
                          "disney_theme_park", "--games", "1"],
                         capture_output=True, text=True, timeout=600)
    if shutil.which("valgrind") is None:
        assert run.returncode == 2 and "valgrind not found" in run.stdout
        return
    assert run.returncode == 0, run.stderr
    turns, instructions, per_turn = (int(n.replace(",", "")) for n in re.search(
        r"(\d+) turns, ([\d,]+) instructions in the game loop, ([\d,]+) a turn",
        run.stdout).groups())
    assert turns > 0 and per_turn == round(instructions / turns)
    assert 100 < per_turn < 1_000_000  # the game loop, not Python's start


# A stand-in for the C reference: its landing table in the reference's format, every
# square at 2.5% but In Jail, which shows the turn cap the script set, and Go, which
# shows the jail reserve (in units of a billion: 1 when nobody pays the fine early).
FAKE_REFERENCE = r"""
#include <stdio.h>
#define JAIL_RESERVE    100   /* pay the fine at once if cash >= 50 + this */
#define TURN_CAP        1000  /* turns per player */
int main(void) {
    printf("capped fraction: 0\n\nlanding frequency (%% of landings):\n");
    printf(" 0 Square 0           %8.4f\n", JAIL_RESERVE / 1e9);
    for (int i = 1; i < 40; i++) printf("%2d Square %-16d%8.4f\n", i, i, 2.5);
    printf("40 In Jail           %8.4f\n", TURN_CAP / 100.0);
    return 0;
}
"""


def landing_report(tmp_path: Path, *arguments: str) -> tuple[dict, str]:
    """The script's JSON report and its output, against the stand-in reference."""
    source = tmp_path / "monopoly_ref.c"
    source.write_text(FAKE_REFERENCE)
    out = tmp_path / "landing.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/landing_vs_cref.py"), "--games", "20",
         "--seed", "1", "--cref", str(source), "--json", str(out), *arguments],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return json.loads(out.read_text()), run.stdout


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_landing_is_compared_square_by_square_with_the_reference_capped_at_the_mean(
        tmp_path):
    report, stdout = landing_report(tmp_path)
    rounds = round(report["mean_turns"] / 4)
    assert report["reference_rounds"] == rounds
    squares = {row["square"]: row for row in report["squares"]}
    assert sorted(squares) == list(range(41)) and squares[30]["id"] == "go_to_jail"
    assert squares[40]["id"] == "in_jail" and squares[40]["reference"] == rounds / 100
    assert squares[10]["id"] == "visiting" and squares[10]["reference"] == 2.5
    assert all(row["difference"] == pytest.approx(row["edition"] - row["reference"],
                                                  abs=1e-3) for row in squares.values())
    gaps = [abs(row["difference"]) for row in report["squares"]]
    assert gaps == sorted(gaps, reverse=True) and f"largest difference: {gaps[0]:.3f}" in stdout
    # by default neither side pays the jail fine early: the same policy on both
    assert squares[0]["reference"] == 1.0 and report["jail_policy"] == "never"
    assert report["params"] == ["jail_reserve=1000000000"]
    missing = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/landing_vs_cref.py"), "--cref",
         str(tmp_path / "none.c")], capture_output=True, text=True, timeout=600)
    assert missing.returncode == 2 and "boardrules: error: needs" in missing.stderr
    unknown = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/landing_vs_cref.py"), "--cref",
         str(tmp_path / "monopoly_ref.c"), "--reserve-param", "jail_reserv"],
        capture_output=True, text=True, timeout=600)
    assert unknown.returncode == 2 and unknown.stderr.startswith(
        "boardrules: error: disney_theme_park has no param 'jail_reserv'")


def test_each_jail_policy_sets_the_same_reserve_on_both_sides():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from landing_vs_cref import jail_settings
    finally:
        sys.path.pop(0)
    assert jail_settings("never", "jail_reserve") == (
        ["jail_reserve=1000000000"], {"JAIL_RESERVE": 1000000000})
    assert jail_settings("always", "reserve") == (["reserve=0"], {"JAIL_RESERVE": 0})
    assert jail_settings("own", "jail_reserve") == ([], {})


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_each_side_may_keep_its_own_jail_policy(tmp_path):
    report, _ = landing_report(tmp_path, "--jail-policy", "own")
    squares = {row["square"]: row for row in report["squares"]}
    assert squares[0]["reference"] == 0.0 and report["params"] == []  # the reserve of 100
    assert report["reference_defines"] == {"TURN_CAP": report["reference_rounds"]}


def _reference() -> Path | None:
    """The C reference the benchmarks build, when it is there (beside the checkout)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_backends import CREF_DEFAULT
    finally:
        sys.path.pop(0)
    return CREF_DEFAULT if CREF_DEFAULT.exists() and shutil.which("gcc") else None


@pytest.mark.skipif(_reference() is None, reason="needs ../shared/reference and gcc")
def test_the_equivalence_measure_compares_every_figure_of_both_engines(tmp_path):
    out = tmp_path / "equivalence.json"
    run = subprocess.run(
        # 8 batches (not 4 of twice the games): z divides by a spread measured from the
        # batches, whose tails with 3 degrees of freedom put one of 46 figures past 6 in
        # a few samples in a hundred (the multiply-shift draw's default seed did)
        [sys.executable, str(ROOT / "benchmarks/equivalence.py"), "--batches", "8",
         "--games", "15", "--players", "2", "--json", str(out)],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(out.read_text())
    names = [row["figure"] for row in report["figures"]]
    assert names[:5] == ["mean turns", "capped fraction", "landings per turn", "win rate p1",
                         "win rate p2"]
    assert names[5:] == [f"square {n}" for n in range(40)] + ["In Jail (40)"]
    for row in report["figures"]:
        assert abs(row["z"]) < 6, row  # the same rules: no figure far out on a small sample
        assert row["edition_se"] >= 0 and row["cref_se"] >= 0
    shares = [row for row in report["figures"] if row["figure"].startswith(("square", "In"))]
    assert sum(row["edition"] for row in shares) == pytest.approx(100, abs=1e-6)
    assert sum(row["cref"] for row in shares) == pytest.approx(100, abs=0.01)
    assert report["sum_z2"] == pytest.approx(sum(row["z"] ** 2 for row in report["figures"]))
    assert re.search(r"sum of z\^2: [\d.]+ over \d+ figures", run.stdout)


@pytest.mark.skipif(_reference() is None, reason="needs ../shared/reference and gcc")
def test_the_reference_benchmark_times_the_same_game_on_both_engines(tmp_path):
    out = tmp_path / "reference.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/bench_reference.py"), "--games", "4",
         "--cref-games", "20", "--repeat", "1", "--instruction-games", "1", "--no-pgo",
         "--json", str(out)],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(out.read_text())
    assert set(report["results"]) == {"compiled", "C reference"}
    assert report["results"]["C reference"]["games"] == 20
    assert "compiled/C" in report["ratios"]
    if shutil.which("valgrind"):
        assert set(report["instructions"]) == {"compiled", "C reference"}
        assert all(i["per_turn"] > 0 for i in report["instructions"].values())


def test_the_state_benchmark_reports_apply_clone_and_rollouts(tmp_path):
    out = tmp_path / "state.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/bench_state.py"), "--actions", "60",
         "--samples", "20", "--rollouts", "3", "--api-rollouts", "1", "--json",
         str(out)],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "chance mode: 60 actions in" in run.stdout
    report = json.loads(out.read_text())
    assert report["apply_median_us"] > 0 and report["clone_median_us"] > 0
    assert report["rollouts_per_second"] > 0 and report["mode"] == "chance"
    assert report["api_rollouts_per_second"] > 0


def test_bench_mcts_reports_a_win_rate_with_its_interval(tmp_path):
    pytest.importorskip("pyspiel")
    out = tmp_path / "mcts.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/bench_mcts.py"), "super_mario_celebration",
         "--games", "2", "--simulations", "3", "--turn-cap", "6", "--json", str(out)],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(out.read_text())
    low, high = report["win_rate_ci95"]
    assert report["games"] == 2 and low <= report["win_rate"] <= high
    assert "MCTS won" in run.stdout
