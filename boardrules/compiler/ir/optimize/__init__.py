"""IR-to-IR optimization passes, in the order the pipeline runs them.

Each pass takes the program, what its functions may do (`Effects`, computed
afresh before every pass) and the reporter, and returns a new program that
plays every seeded game exactly as before. `boardrules compile --dump-ir`
prints the program after each of them.
"""

from __future__ import annotations

from collections.abc import Callable

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .aggregates import merge_aggregates
from .bits import bit_walks
from .blind_writes import blind_writes
from .bounded_counts import bound_counts
from .cash_spans import span_cash
from .conjuncts import order_conjuncts
from .counts import count_queries
from .decision_bounds import share_decision_bounds
from .decisions import lazy_decisions
from .disjunctions import factor_disjunctions
from .effects import Effects, analyse
from .elements import known_elements
from .flags import flag_words
from .fold import fold_constants
from .guards import guard_aggregates, guard_loops, guards_before_lookups
from .hoist import hoist_invariants, hoist_option_invariants, settle_lazy_reads
from .idle import skip_idle_loops
from .index import index_filters
from .inline import (
    inline_hoisted,
    inline_procedures,
    lets_as_arguments,
    lift_early_exits,
    returns_as_expressions,
)
from .integers import drop_proven_checks, narrow_integers
from .keep import keep_candidates
from .masks import factor_masks
from .memo import memoize_aggregates
from .none_slots import drop_none_slots
from .option_defaults import options_defaults
from .prechecks import invariant_prechecks
from .procedure_memo import memoize_procedures
from .some import eliminate_some, some_of_declared_data
from .sums import keep_sums
from .unwinding import split_unwinding_calls
from .wholes import whole_keys

Optimization = Callable[[ir.Program, Effects, Reporter], ir.Program]

OPTIMIZATIONS: list[tuple[str, Optimization]] = [
    ("fold-constants", fold_constants),
    ("narrow-integers", narrow_integers),
    ("options-defaults", options_defaults),
    ("known-elements", known_elements),
    ("eliminate-some", eliminate_some),
    ("lets-as-arguments", lets_as_arguments),
    ("returns-as-expressions", returns_as_expressions),
    ("inline-procedures", inline_procedures),
    ("eliminate-inlined-some", eliminate_some),
    ("some-of-declared-data", some_of_declared_data),
    ("merge-aggregates", merge_aggregates),
    ("factor-masks", factor_masks),
    ("hoist-invariants", hoist_invariants),
    ("inline-hoisted", inline_hoisted),
    ("lift-early-exits", lift_early_exits),
    ("fold-lifted", fold_constants),
    ("drop-proven-checks", drop_proven_checks),
    ("factor-disjunctions", factor_disjunctions),
    ("order-conjuncts", order_conjuncts),
    ("index-filters", index_filters),
    ("hoist-option-invariants", hoist_option_invariants),
    ("count-queries", count_queries),
    ("keep-sums", keep_sums),
    ("lazy-decisions", lazy_decisions),
    ("share-decision-bounds", share_decision_bounds),
    ("guard-aggregates", guard_aggregates),
    ("skip-idle-loops", skip_idle_loops),
    ("guard-loops", guard_loops),
    ("memoize-aggregates", memoize_aggregates),
    ("span-cash", span_cash),
    ("memoize-procedures", memoize_procedures),
    ("keep-candidates", keep_candidates),
    ("guards-before-lookups", guards_before_lookups),
    ("bit-walks", bit_walks),
    ("whole-keys", whole_keys),
    ("flag-words", flag_words),
    ("drop-none-slots", drop_none_slots),
    ("invariant-prechecks", invariant_prechecks),
    ("bound-counts", bound_counts),
    ("split-unwinding-calls", split_unwinding_calls),
    ("blind-writes", blind_writes),
    ("settle-lazy-reads", settle_lazy_reads),
]

__all__ = ["OPTIMIZATIONS", "Effects", "Optimization", "analyse"]
