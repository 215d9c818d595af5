"""Kept sums (optimize/sums.py): each sum the writes keep equals a recomputation after every
write, and each aggregate answered from one equals its scan, in seeded games of the editions
whose rules ask them; on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.build.obtain import compile_edition
from boardrules.runtime.loader import import_compilation

ROOT = Path(__file__).resolve().parents[2]
DISNEY = ROOT / "rulesets/disney_theme_park/disney_theme_park.rules"
KEPT = ("ks_", "ksk_", "ksc_", "ksdirty_")  # the sums, by key, each member's, still to do


def _sums(game, kept: str = "") -> dict[str, list[int]]:
    """Every kept sum's arrays (or one's), by name."""
    fields = game.c_fields()
    return {name: list(value) if isinstance(value, list) else value
            for name, value in fields.items() if name.startswith(KEPT)
            and (not kept or name.endswith("_" + kept))}


def _answers(game, program, kept: str = "") -> dict[tuple[str, int, int], tuple[int, int]]:
    """Each summed aggregate's answer (of one kept sum's, or all) and its scan's, for every
    player and space (or the player alone)."""
    out = {}
    for a in program.aggregates:
        if a.summed is None or kept and a.summed.kept_sum != kept:
            continue
        for p in range(game.n_players):
            for s in range(len(program.space_ids)) if len(a.params) == 2 else [0]:
                args = (p, s)[:len(a.params)]
                out[a.name, p, s] = (getattr(game, a.name)(*args),
                                     getattr(game, "compute_" + a.name)(*args))
    return out


def test_disney_keeps_the_shortages_funds():
    program = compile_edition(DISNEY).program
    summed = {a.name.split("_in_proc_")[-1] for a in program.aggregates if a.summed}
    assert {"group_funds", "group_raise"} <= summed
    # what selling back and mortgaging all a player owns would raise: one aggregate, asked
    # by can_raise and by the debtor's sale test, named after the procedure first reading it
    assert summed & {"can_raise", "brings_debtor_cash"}
    assert all(not a.memo for a in program.aggregates if a.summed)


@pytest.mark.parametrize("path", [DISNEY], ids=lambda p: p.stem)
def test_every_kept_sum_equals_a_recomputation_after_every_write(path, monkeypatch):
    compilation = compile_edition(path)
    program = compilation.program
    module = import_compilation(compilation, "interpreted")
    checked = {"writes": 0, "answers": 0, "nonzero": 0}
    moving = []

    def check(game, name: str) -> None:
        """On a copy (the game itself goes on as it would): the sums of `name` as the
        marked members' contributions bring them up to date, and worked out afresh."""
        copy = game.copy()
        getattr(copy, "ksrefresh_" + name)()
        kept = _sums(copy, name)
        getattr(copy, "ksrebuild_" + name)()
        getattr(copy, "ksrefresh_" + name)()
        assert kept == _sums(copy, name), f"{name} after write {checked['writes']}"
        checked["writes"] += 1
        checked["nonzero"] += any(kept["ks_" + name])
        if not moving and checked["writes"] % 20 == 0:  # the scans walk the owners' index
            for key, (kept_answer, scanned) in _answers(game.copy(), program, name).items():
                assert kept_answer == scanned, key
                checked["answers"] += 1

    def after(name: str, method):
        def checking(self, *args):
            result = method(self, *args)
            check(self, name)  # (the other sums may be half way through this write)
            return result
        return checking

    def move(write):
        def vxset(self, value, x):
            moving.append(True)
            result = write(self, value, x)
            moving.pop()
            return result
        return vxset

    for ks in program.kept_sums:
        for what in ("mark", "move"):
            name = f"ks{what}_{ks.name}"
            monkeypatch.setattr(module.Game, name, after(ks.name, getattr(module.Game, name)))
    for cx in {ks.counter_index for ks in program.kept_sums}:
        name = "vxset_" + next(c.counter for c in program.counter_indexes if c.name == cx)
        monkeypatch.setattr(module.Game, name, move(getattr(module.Game, name)))
    for seed in range(2):
        for policy in ("default", "random"):
            module.Game(4, seed=seed, policies=[policy] * 4).play()
    assert checked["writes"] > 500 and checked["answers"] > 1000 and checked["nonzero"] > 100


@pytest.mark.parametrize("path", [DISNEY], ids=lambda p: p.stem)
def test_the_kept_sums_are_the_same_on_both_backends_and_a_recomputation(path):
    compilation = compile_edition(path)
    program = compilation.program
    summed = [a for a in program.aggregates if a.summed is not None]
    spaces = len(program.space_ids)
    games = {backend: import_compilation(compilation, backend).Game(4, seed=3)
             for backend in ("compiled", "interpreted")}

    def asked(game) -> tuple[dict, dict]:
        """A copy's answers of every summed aggregate, then its kept sums (up to date)."""
        copy = game.copy()
        answers = {(a.name, p, s): copy.invoke(a.name, (p, s)[:len(a.params)])
                   for a in summed for p in range(copy.n_players)
                   for s in (range(spaces) if len(a.params) == 2 else [0])}
        return answers, _sums(copy)

    for turn in range(120):
        for game in games.values():
            if not game.over and game.alive_of(turn % 4):
                game.play_turn(turn % 4)
        compiled, interpreted = asked(games["compiled"]), asked(games["interpreted"])
        assert compiled == interpreted, f"after turn {turn}"
        fresh = games["compiled"].copy()
        fresh.state_set("c_space_owner", 0, fresh.state_get("c_space_owner", 0))  # rebuilds
        assert asked(fresh) == compiled, f"after turn {turn}"
        scans = _answers(games["interpreted"].copy(), program)
        assert compiled[0] == {key: scanned for key, (_, scanned) in scans.items()}
