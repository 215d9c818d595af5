"""Memos of the trade partner search (the deed a player would sell, whether any other
player would buy it, each with their cash), found by optimize/memo.py's `cash_versioned`,
are each kept over a range of every player's cash (optimize/cash_spans.py) instead of
until the next payment; in seeded games of Disney every kept value equals
the aggregate worked out afresh, whatever was written or paid since, on both policies;
and some lookups are hits."""

from __future__ import annotations

from pathlib import Path

from boardrules.compiler.build.obtain import compile_edition
from boardrules.compiler.ir.optimize.memo import CASH, KERNEL_VERSIONS
from boardrules.runtime.loader import import_compilation

ROOT = Path(__file__).resolve().parents[2]
DISNEY = ROOT / "rulesets/disney_theme_park/disney_theme_park.rules"


def test_the_partner_search_is_kept_over_every_players_cash():
    program = compile_edition(DISNEY).program
    memos = {a.name: a.memo for a in program.aggregates if a.memo is not None}
    partner = next(memo for name, memo in memos.items() if name.endswith("in_proc_sale_for"))
    assert CASH not in partner.reads and not partner.cash_of and partner.spans >= 0
    # whether any other player would buy one deed: asked by the search, which keeps it
    assert not any(name.endswith("in_proc_sells_to_another") for name in memos)
    assert KERNEL_VERSIONS[CASH] == "cash_version"
    # a question of its own player's cash alone keeps that cash's range instead
    wanted = next(memo for name, memo in memos.items() if name.endswith("in_proc_wanted_by"))
    assert CASH not in wanted.reads and wanted.cash_of and wanted.cash_range


def test_every_kept_value_equals_a_recomputation(check_memos):
    compilation = compile_edition(DISNEY)
    module = import_compilation(compilation, "interpreted")
    versioned = [a.name for a in compilation.program.aggregates
                 if a.memo is not None and a.memo.spans >= 0]
    assert len(versioned) >= 2
    counted = check_memos(module, versioned)
    for seed in range(3):
        for policy in ("default", "random"):
            module.Game(4, seed=seed, policies=[policy] * 4).play()
    assert counted["calls"] > 200 and counted["hits"] > counted["calls"] // 40


def test_a_payment_outdates_the_partner_search(monkeypatch):
    """Whenever the search finds a deed to sell, the other players paying all their cash
    to the Bank outdates it: asked again, it is worked out afresh (nobody can buy)."""
    compilation = compile_edition(DISNEY)
    module = import_compilation(compilation, "interpreted")
    name = next(a.name for a in compilation.program.aggregates
                if a.name.endswith("in_proc_sale_for"))
    method = getattr(module.Game, name)
    counted = {"found": 0, "changed": 0}

    def check(self, p):
        kept = method(self, p)
        if kept != -1:
            poor = self.copy()
            for q in range(poor.n_players):
                if q != p:
                    poor.k_pay(q, -1, poor.cash[q])
            fresh = poor.copy()
            fresh.memo_forget()
            after = method(poor, p)
            assert after == method(fresh, p)
            counted["found"] += 1
            counted["changed"] += after != kept
        return kept

    monkeypatch.setattr(module.Game, name, check)
    for seed in range(3):
        module.Game(4, seed=seed, policies=["default"] * 4).play()
    assert counted["changed"] > 0
