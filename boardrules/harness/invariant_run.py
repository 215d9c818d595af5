"""`boardrules simulate ... --check-invariants`: the run's games again, each checked after
every turn (harness/invariants.py), in worker processes; violations per game with seed
and turn, exit status 1 when there is one."""

from __future__ import annotations

import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..agents.policies import playable
from ..runtime.loader import load_module, load_published, published_name
from .invariants import Violation, check_games, facts, first_per_game
from .options import parse_options
from .simulate import ignore_sigint, stop_pool

SHOWN = 20  # violations listed; the rest are counted


def check_chunk(module_name: str, backend: str, *chunk: Any) -> list[Violation]:
    """A worker's share of the games (the module the driver built, from the cache)."""
    return check_games(load_published(module_name, backend), *chunk)


def check_run(edition: str, games: int, players: int, seed: int, backend: str = "compiled",
              policies: list[str] | None = None, options: list[str] | None = None,
              turn_cap: int | None = None, workers: int | None = None,
              params: list[str] | None = None) -> list[Violation]:
    """Every violation in the games of a simulate run with these settings, in game order."""
    module = load_module(edition, backend, params or ())
    chosen = parse_options(module, options or [])
    policies = playable(edition, policies)  # a Python policy's name: the policy, as simulate's
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    size = max(1, -(-games // (workers * 4)))
    chunks = [(min(size, games - first), players, seed, first, policies, chosen, turn_cap)
              for first in range(0, games, size)]
    if workers == 1:
        found = [v for chunk in chunks for v in check_games(module, *chunk)]
    else:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_sigint)
        try:
            found = [v for part in pool.map(check_chunk, [published_name(module)] * len(chunks),
                                            [backend] * len(chunks), *zip(*chunks, strict=True))
                     for v in part]
        except BaseException:  # Ctrl-C or a failure: no game goes on
            stop_pool(pool)
            raise
        pool.shutdown()
    return sorted(found, key=lambda v: (v.game, v.turn))


def format_violations(module_facts: tuple[str, ...], games: int, found: list[Violation]) -> str:
    """The report: which invariants were checked, and the first violation of each
    invariant in each game (SHOWN of them)."""
    firsts = list(first_per_game(found))
    per = Counter(v.invariant for v in firsts)
    lines = [f"invariants         checked after every turn of {games} games: "
             + ", ".join(module_facts),
             "violations         " + (", ".join(f"{name} in {n} game(s)"
                                               for name, n in sorted(per.items())) or "none")]
    lines += [f"  {v}" for v in firsts[:SHOWN]]
    if len(firsts) > SHOWN:
        lines.append(f"  ... and {len(firsts) - SHOWN} more")
    return "\n".join(lines)


def command(args: Any, policies: list[str] | None) -> int:
    """simulate's --check-invariants, after the summary: 0 when every invariant held."""
    found = check_run(args.edition, args.games, args.players, args.seed, args.backend,
                      policies, args.option, args.turn_limit, args.workers, args.param)
    applicable = facts(load_module(args.edition, args.backend, args.param)).applicable
    print()
    print(format_violations(applicable, args.games, found))
    return 1 if found else 0
