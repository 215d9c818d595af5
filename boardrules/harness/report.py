"""`boardrules report`: simulate an edition (and each of its variants) and write a folder
that a browser opens offline: index.html with the figures embedded, summary.json (what
`simulate --json` writes), one JSON per further variant, and the figures as SVG files.

Variants: the options given on the command line hold for every run; every other
option of the edition that can take another value (a bool, an enum) gives one more run
with that value, side by side with the first. Cash over time comes from a few of the
run's own games, replayed turn by turn (`Game.play(1)`), which plays them exactly as
the simulation did.
"""

from __future__ import annotations

import base64
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from .. import __version__
from ..outputs import write_atomic
from ..runtime.loader import load_module
from .options import parse_options
from .simulate import Interrupted, Summary, game_seed, simulate

FIGURES = (("board", "Where throws leave the token"), ("turns", "How long games last"),
           ("win_rate", "Win rate by seat"), ("cash", "Cash over time in sample games"))

_environment = Environment(loader=PackageLoader("boardrules.harness", "templates"),
                           autoescape=True, undefined=StrictUndefined,
                           trim_blocks=True, lstrip_blocks=True)


@dataclass
class Variant:
    """One configuration of the edition's options that the report simulates."""

    label: str
    slug: str  # for file names
    options: dict[str, int]


@dataclass
class Run:
    """A simulated variant: its summary, JSON and sample games."""

    variant: Variant
    summary: Summary
    data: dict[str, Any]
    samples: list[Any]


def option_text(module: ModuleType, name: str, value: int) -> str:
    """An option's value as `--option` takes it: true/false, an enum member, a number."""
    type_name = next(t for n, t, _, _ in module.OPTIONS if n == name)
    if type_name == "bool":
        return "true" if value else "false"
    if type_name in module.ENUMS:
        return module.ENUMS[type_name][value]
    return str(value)


def variants(module: ModuleType, fixed: dict[str, int]) -> list[Variant]:
    """The runs of a report: the options given, then one per other value of each option
    not given (bools and enums; a number option keeps its default)."""

    def variant(options: dict[str, int]) -> Variant:
        if not options:
            return Variant("standard rules", "standard", {})
        label = ", ".join(f"{n}={option_text(module, n, v)}" for n, v in options.items())
        return Variant(label, re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-"), options)

    found = [variant(dict(fixed))]
    for name, type_name, default, _ in module.OPTIONS:
        if name in fixed:
            continue
        if type_name == "bool":
            others = [1 - int(default)]
        elif type_name in module.ENUMS:
            others = [v for v in range(len(module.ENUMS[type_name])) if v != default]
        else:
            continue
        found += [variant({**fixed, name: value}) for value in others]
    return found


def cash_samples(module: ModuleType, players: int, seed: int, options: dict[str, int],
                 turn_cap: int | None, policies: list[str] | None, count: int) -> list[Any]:
    """The first `count` games of a run, replayed one turn at a time: each seat's cash and
    score after every turn (None once out)."""
    from .figures import CashSample

    samples = []
    for index in range(count):
        kwargs = {} if turn_cap is None else {"turn_cap": turn_cap}
        game = module.Game(players, seed=game_seed(seed, index), policies=policies,
                           options=options, **kwargs)
        game.start()
        turns = [0]
        cash: list[list[int | None]] = [[c] for c in game.players_cash()]
        score: list[list[int | None]] = [[game.score(s)] for s in range(players)]
        while not game.over:
            if game.play(1) == 0:
                break
            turns.append(game.turn)
            for seat, value in enumerate(game.players_cash()):
                alive = game.alive_of(seat)
                cash[seat].append(value if alive else None)
                score[seat].append(game.score(seat) if alive else None)
        samples.append(CashSample(index, game_seed(seed, index), turns, cash, game.winners(),
                                  score))
    return samples


def run_report(edition: str, games: int, players: int, seed: int, out: Path,
               options: list[str] | None = None, backend: str = "compiled",
               workers: int | None = None, engine: str = "processes",
               turn_cap: int | None = None, policies: list[str] | None = None,
               samples: int = 3,
               progress: Callable[[], Callable[[int, int], None] | None] | None = None,
               ) -> list[Run]:
    """Simulate every variant and write the report folder `out` (created if need be)."""
    module = load_module(edition, backend)
    fixed = parse_options(module, options or [])
    runs: list[Run] = []
    for variant in variants(module, fixed):
        chosen = [f"{n}={option_text(module, n, v)}" for n, v in variant.options.items()]
        try:
            summary = simulate(edition, games, players, seed, backend, workers=workers,
                               engine=engine, turn_cap=turn_cap, policies=policies,
                               options=chosen, progress=progress() if progress else None)
        except KeyboardInterrupt as stop:
            if isinstance(stop, Interrupted):
                runs.append(Run(variant, stop.done, stop.done.to_json(), []))
            write_partial(runs, out)
            raise Interrupted(runs) from None
        picked = cash_samples(module, players, seed, variant.options, turn_cap, policies,
                              min(samples, games))
        runs.append(Run(variant, summary, summary.to_json(), picked))
    write_report(module, runs, out)
    return runs


def write_partial(runs: list[Run], out: Path) -> None:
    """An interrupted report: the runs' JSON files only (no figures or page, which take
    seconds), each marked partial; nothing when no game was played."""
    if not runs:
        return
    out.mkdir(parents=True, exist_ok=True)
    for index, run in enumerate(runs):
        write_atomic(out / json_name(index, run),
                     json.dumps({**run.data, "partial": True}, indent=2) + "\n")


def writes_in_folder(name: str) -> bool:
    """Whether a report writes a file of that name into its folder."""
    return name == "index.html" or name in {f"{figure}.svg" for figure, _ in FIGURES} or (
        name.startswith("summary") and name.endswith(".json"))


def json_name(index: int, run: Run) -> str:
    """summary.json for the first run, summary-<variant>.json for the others."""
    return "summary.json" if index == 0 else f"summary-{run.variant.slug}.json"


def write_report(module: ModuleType, runs: list[Run], out: Path) -> dict[str, float]:
    """The JSON files, the figures (SVG) and index.html; seconds spent on each part."""
    from . import figures

    out.mkdir(parents=True, exist_ok=True)
    for index, run in enumerate(runs):
        write_atomic(out / json_name(index, run), json.dumps(run.data, indent=2) + "\n")
    panels = [figures.Panel(run.variant.label, run.data, run.summary.tally.turns, run.samples)
              for run in runs]
    drawn = {"board": figures.board_figure(panels), "turns": figures.turns_figure(panels),
             "win_rate": figures.win_rate_figure(panels),
             "cash": figures.cash_figure(panels, getattr(module, "CURRENCY", ""))}
    timings: dict[str, float] = {}
    embedded = {}
    for name, figure in drawn.items():
        started = time.perf_counter()
        path = out / f"{name}.svg"
        figures.save(figure, path)
        embedded[name] = base64.b64encode(path.read_bytes()).decode("ascii")
        timings[name] = time.perf_counter() - started
    write_atomic(out / "index.html", render_html(module, runs, embedded))
    return timings


def render_html(module: ModuleType, runs: list[Run], embedded: dict[str, str]) -> str:
    """The page: settings, a table of figures per variant, the figures, the landing table."""
    first = runs[0].data
    spaces = [{"position": e["position"], "name": e["name"],
               "shares": [(run.data["landing"][i]["frequency"],
                           run.data["landing"][i]["arrivals"]) for run in runs]}
              for i, e in enumerate(first["landing"])]
    titles = {name: title for name, _, _, title in module.OPTIONS}
    chosen = [[f"{titles[name]} ({name}={option_text(module, name, value)})"
               for name, value in run.variant.options.items()] for run in runs]
    return _environment.get_template("report.html.j2").render(
        title=module.EDITION, runs=runs, settings=first["settings"], spaces=spaces,
        figures=[(name, caption, embedded[name]) for name, caption in FIGURES],
        json_files=[json_name(i, run) for i, run in enumerate(runs)],
        chosen=chosen, version=__version__,
        created=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))
