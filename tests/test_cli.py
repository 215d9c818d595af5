"""End-to-end: the commands as a user runs them, in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boardrules.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_check_an_edition():
    result = run("check", "rulesets/disney_theme_park/disney_theme_park.rules")
    assert result.returncode == 0, result.stderr
    assert "ok:" in result.stdout


def test_simulate_writes_the_figures(tmp_path):
    out = tmp_path / "out.json"
    result = run("simulate", "disney_theme_park", "--games", "40", "--players", "4",
                 "--seed", "7", "--json", str(out), "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert "median turns" in result.stdout and "win rate by seat" in result.stdout
    data = json.loads(out.read_text())
    for key in ("games", "players", "seed", "backend", "capped_games", "mean_turns",
                "median_turns", "win_rate_by_seat", "games_per_second", "landing"):
        assert key in data
    assert data["games"] == 40 and len(data["win_rate_by_seat"]) == 4
    assert abs(sum(e["frequency"] for e in data["landing"]) - 1.0) < 1e-9
    names = [e["name"] for e in data["landing"]]
    assert "In Jail" in names and "In Jail - Just Visiting" in names
    positions = [e["position"] for e in data["landing"]]
    assert positions == sorted(positions)


def test_simulation_results_do_not_depend_on_workers(tmp_path):
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.json"
        assert run("simulate", "disney_theme_park", "--games", "12", "--seed", "3",
                   "--workers", workers, "--json", str(out)).returncode == 0
        data = json.loads(out.read_text())
        outs.append((data["mean_turns"], data["landing"], data["win_rate_by_seat"]))
    assert outs[0] == outs[1]


def test_interpreted_backend_gives_the_same_summary(tmp_path):
    figures = []
    for backend in ("compiled", "interpreted"):
        out = tmp_path / f"{backend}.json"
        assert run("simulate", "disney_theme_park", "--games", "3", "--seed", "1",
                   "--backend", backend, "--json", str(out)).returncode == 0
        data = json.loads(out.read_text())
        figures.append((data["mean_turns"], data["landing"]))
    assert figures[0] == figures[1]


def test_bad_arguments_give_one_line_and_no_traceback():
    for args in (["simulate", "disney_theme_park", "--games", "x"],
                 ["simulate", "disney_theme_park", "--players", "0"],
                 ["simulate", "no_such_edition"],
                 ["simulate", "disney_theme_park", "--players", "12", "--games", "1"],
                 ["check", "missing.rules"],
                 ["frobnicate"]):
        result = run(*args)
        assert result.returncode != 0
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith("boardrules: error:")


def test_a_broken_rules_file_reports_file_line_col(tmp_path):
    edition = tmp_path / "broken" / "broken.rules"
    edition.parent.mkdir()
    edition.write_text('edition "Broken" {\n  rulebook "rulebook.txt"\n  players 2 to 4\n}\n'
                       "param x: int = \n")
    (edition.parent / "rulebook.txt").write_text("Rules.\n")
    result = run("check", str(edition))
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{edition}:") and ": error: " in first
    assert "Traceback" not in result.stderr
    assert "^" in result.stderr


def test_missing_c_compiler_is_reported_and_keeps_the_cache(tmp_path):
    env_cache = tmp_path / "cache"
    import os

    env = dict(os.environ, CC="no-such-compiler-xyz", BOARDRULES_CACHE=str(env_cache))
    result = subprocess.run([sys.executable, "-m", "boardrules.cli", "compile",
                             "tests/fixtures/tiny/tiny.rules"], cwd=ROOT, capture_output=True,
                            text=True, env=env, timeout=600)
    assert result.returncode == 1
    assert "no C compiler" in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1].startswith("boardrules: error: no C compiler")
    generated = list(env_cache.glob("br_tiny_*/*.py"))
    assert generated, "the generated module stays in the cache"


def test_compile_dumps_the_ir_after_each_pass():
    result = run("compile", "tests/fixtures/tiny/tiny.rules", "--backend", "interpreted",
                 "--dump-ir")
    assert result.returncode == 0, result.stderr
    for name in ("check", "fold-constants", "index-filters", "lazy-decisions"):
        assert f"# ---- IR after {name} ----" in result.stdout
    one = run("compile", "tests/fixtures/tiny/tiny.rules", "--backend", "interpreted",
              "--dump-ir", "index-filters")
    assert one.stdout.count("# ---- IR after") == 1 and "def rule_" in one.stdout
    bad = run("compile", "tests/fixtures/tiny/tiny.rules", "--dump-ir", "nonsense")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "--dump-ir takes one of" in bad.stderr


def test_check_rejects_what_only_the_optimizer_sees(tmp_path):
    """check runs every pass that can reject a program: a folded constant out of range."""
    source = ROOT / "tests" / "fixtures" / "tiny" / "tiny.rules"
    broken = tmp_path / "tiny" / "tiny.rules"
    broken.parent.mkdir()
    for other in source.parent.iterdir():
        (broken.parent / other.name).write_text(other.read_text())
    (tmp_path / "lib").mkdir()
    for lib in (ROOT / "tests" / "fixtures" / "lib").iterdir():
        (tmp_path / "lib" / lib.name).write_text(lib.read_text())
    broken.write_text(broken.read_text() + "\nrule big { on turn(p: player) {"
                      " pay(p, bank, 2000000000 * 2) } }\n")
    result = run("check", str(broken))
    assert result.returncode == 1
    assert "outside the integer range" in result.stderr and "tiny.rules:" in result.stderr


def test_simulate_reports_settings_spread_and_uncertainty(tmp_path):
    out, games = tmp_path / "out.json", tmp_path / "games.csv"
    result = run("simulate", "disney_theme_park", "--games", "30", "--seed", "7",
                 "--json", str(out), "--games-out", str(games), "--workers", "1")
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    settings = data["settings"]
    assert settings["policies"] == ["default"] * 4 and settings["turn_limit"] == 1000
    assert (settings["seed"], settings["games"], settings["engine"]) == (7, 30, "processes")
    assert len(settings["rules_hash"]) == 16
    turns = data["turns"]
    assert turns["min"] <= turns["p5"] <= turns["p50"] <= turns["p95"] <= turns["max"]
    assert all(low <= rate <= high for rate, (low, high)
               in zip(data["win_rate_by_seat"], data["win_rate_ci95"], strict=True))
    assert sum(data["end_reasons"].values()) == 30
    rows = games.read_text().splitlines()
    assert rows[0].startswith("game,seed,turns,winners,end,rank_p1") and len(rows) == 31
    lines = tmp_path / "games.jsonl"  # JSON lines name the winners as CSV does
    assert run("simulate", "disney_theme_park", "--games", "30", "--seed", "7", "--games-out",
               str(lines), "--workers", "1").returncode == 0
    winners = [json.loads(line)["winners"] for line in lines.read_text().splitlines()]
    assert [" ".join(w) for w in winners] == [row.split(",")[3] for row in rows[1:]]
    assert all(set(w) <= {"p1", "p2", "p3", "p4"} for w in winners)
    assert "95% intervals" in result.stdout


def test_an_unwritable_output_is_refused_before_playing(tmp_path):
    result = run("simulate", "disney_theme_park", "--games", "100000",
                 "--json", str(tmp_path / "missing" / "out.json"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "cannot write" in result.stderr


def test_a_closed_stdout_ends_quietly_and_the_files_are_written(tmp_path):
    """`simulate ... | head -2`: the reader has gone when the summary is printed; the
    command still writes its --json and --games-out and exits 0, without a word."""
    out, games = tmp_path / "out.json", tmp_path / "games.csv"
    process = subprocess.Popen(
        [sys.executable, "-m", "boardrules.cli", "simulate", "disney_theme_park", "--games",
         "5", "--workers", "1", "--json", str(out), "--games-out", str(games)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.close()  # the reader is gone before anything is printed
    err = process.stderr.read()
    assert process.wait() == 0, err
    assert "Broken pipe" not in err and "Traceback" not in err
    assert json.loads(out.read_text())["settings"]["games"] == 5
    assert len(games.read_text().splitlines()) == 6
