"""The ray engine plays exactly the games the local processes play. Ray starts slowly:
one local Ray with 2 CPUs and a few games, in one test (xdist spreads tests over its
workers, and each would start its own Ray)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from boardrules.harness import ray_engine
from boardrules.harness.simulate import simulate

# Ray itself is imported by the test that starts it: its import takes 0.7 s, which
# every worker would spend collecting the suite
pytestmark = pytest.mark.skipif(
    find_spec("ray") is None,
    reason="Ray is not installed: pip install -e '.[dev,ray]' (as .ci/run does)")

ROOT = Path(__file__).resolve().parents[2]
EDITION, GAMES, SEED = "disney_theme_park", 40, 11
TIMING = ("seconds", "games_per_second")


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray with 2 CPUs; its address, for a driver in another process."""
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def _comparable(data: dict) -> dict:
    """A summary without its timing and the engine's name."""
    data = {k: v for k, v in data.items() if k not in TIMING}
    data["settings"] = {k: v for k, v in data["settings"].items() if k != "engine"}
    return data


def test_ray_plays_the_games_the_processes_play(local_ray, monkeypatch, tmp_path):
    processes = _comparable(simulate(EDITION, GAMES, 4, SEED, workers=2).to_json())
    batches: list[int] = []
    run_batches = ray_engine.run_batches

    def counting(module, backend, chunks, play, failure):
        batches.extend(chunk[3] for chunk in chunks)  # games per task
        yield from run_batches(module, backend, chunks, play, failure)
    monkeypatch.setattr(ray_engine, "run_batches", counting)
    data = simulate(EDITION, GAMES, 4, SEED, engine="ray").to_json()
    assert data["settings"]["engine"] == "ray" and data["settings"]["workers"] == 2
    assert _comparable(data) == processes
    assert sum(batches) == GAMES and 1 < len(batches) < GAMES  # batches, not one per game

    # `--address`: the command line in another process drives the same Ray as a cluster
    out = tmp_path / "ray.json"
    result = subprocess.run(
        [sys.executable, "-m", "boardrules.cli", "simulate", EDITION, "--games", str(GAMES),
         "--seed", str(SEED), "--engine", "ray", "--address", local_ray, "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "RAY_AUTH_MODE": os.environ.get("RAY_AUTH_MODE", "token")})
    assert result.returncode == 0, result.stderr
    assert "; ray x2;" in result.stdout
    assert _comparable(json.loads(out.read_text())) == processes
