"""Memoized procedures (optimize/procedure_memo.py): in seeded games of Disney, whose
shortage check asks what each player could wish to buy of a kind of building, every kept
value equals the procedure worked out afresh, whatever was written since (by every
player's builds, mortgages and trades, the supply it is clamped by apart), on both
policies; and a lookup is mostly a hit."""

from __future__ import annotations

from pathlib import Path

from boardrules.compiler.build.obtain import compile_edition
from boardrules.runtime.loader import import_compilation

ROOT = Path(__file__).resolve().parents[2]
DISNEY = ROOT / "rulesets/disney_theme_park/disney_theme_park.rules"


def test_disney_memoizes_what_a_player_could_wish_to_buy():
    program = compile_edition(DISNEY).program
    memos = {f.name: f.memo for f in program.functions if f.memo is not None}
    wanted = next(memo for name, memo in memos.items() if name.endswith("buildings_wanted"))
    assert wanted.clamp is not None and wanted.owner and wanted.cash_of
    assert not {"game_houses_left", "game_hotels_left"} & set(wanted.reads)


def test_every_kept_value_equals_a_recomputation(monkeypatch):
    compilation = compile_edition(DISNEY)
    module = import_compilation(compilation, "interpreted")
    memoized = [f.name for f in compilation.program.functions if f.memo is not None]
    counted = {"calls": 0, "hits": 0}

    def checking(name: str, method):
        def check(self, *args):
            stamps = self.memo_stamp[:]
            kept = method(self, *args)
            counted["calls"] += 1
            counted["hits"] += stamps == self.memo_stamp
            copy = self.copy()
            copy.memo_forget()  # every kept value outdated: worked out afresh
            assert kept == method(copy, *args), (name, args)
            return kept
        return check

    for name in memoized:
        monkeypatch.setattr(module.Game, name, checking(name, getattr(module.Game, name)))
    for seed in range(3):
        for policy in ("default", "random"):
            module.Game(4, seed=seed, policies=[policy] * 4).play()
    assert counted["calls"] > 200 and counted["hits"] > counted["calls"] // 4
