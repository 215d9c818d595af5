"""Pass 3: collect every declaration of the edition and its libraries into one table.

Reports duplicates (with the first definition's position), unknown types, and
resolves overriding: an edition may redefine a library's rule, procedure,
decision or game property by name; inside one file a name is defined once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..common.diagnostics import Reporter, Span, did_you_mean
from ..common.diagnostics import short_where as _where
from ..common.error_codes import ErrorCode
from ..common.lang_types import ENTITY_TYPES, Type
from . import ast
from .fixtures import add_fixture, expand_scenarios
from .modules import SourceSet

# Events the kernel raises itself: the game loop (start, turn, turn_over) and movement
# (pass, land).
KERNEL_EVENTS: dict[str, tuple[tuple[str, Type], ...]] = {
    "start": (),
    "turn": (("p", Type("player")),),
    "turn_over": (("p", Type("player")),),
    "pass": (("p", Type("player")), ("s", Type("space"))),
    "land": (("p", Type("player")), ("s", Type("space"))),
}

BUILTIN_VALUES = {"current", "turn", "bank", "players_count", "game_over", "winner",
                  "rounds", "bankruptcies", "bankruptcy_ends_game"}
SCALAR_TYPES = {"int": "int", "money": "int", "bool": "bool", "str": "str", "deck": "deck"}
OVERRIDABLE = (ast.RuleDecl, ast.ProcDecl, ast.DecisionDecl)
# what a scenario file (scenarios/*.rules, conformance/*.rules) may hold
SCENARIO_FILE_ITEMS = (ast.Scenario, ast.Fixture, ast.Equivalent)


@dataclass
class Symbols:
    """Every top-level definition, by kind, in declaration order."""

    edition: ast.Edition | None = None
    params: dict[str, ast.ParamDecl] = field(default_factory=dict)
    sets: dict[str, ast.SetParam] = field(default_factory=dict)
    decision_defaults: dict[str, ast.DecisionDefault] = field(default_factory=dict)
    enums: dict[str, ast.EnumDecl] = field(default_factory=dict)
    fields: dict[tuple[str, str], ast.FieldDecl] = field(default_factory=dict)
    counters: dict[tuple[str, str], ast.CounterDecl] = field(default_factory=dict)
    options: dict[str, ast.OptionDecl] = field(default_factory=dict)
    groups: dict[str, ast.GroupDecl] = field(default_factory=dict)
    spaces: dict[str, ast.SpaceDecl] = field(default_factory=dict)
    dice: dict[str, ast.DieDecl] = field(default_factory=dict)
    decks: dict[str, ast.DeckDecl] = field(default_factory=dict)
    cards: dict[str, tuple[str, ast.CardDecl]] = field(default_factory=dict)
    grids: dict[str, ast.GridDecl] = field(default_factory=dict)
    events: dict[str, tuple[tuple[str, Type], ...]] = field(default_factory=dict)
    decisions: dict[str, ast.DecisionDecl] = field(default_factory=dict)
    procs: dict[str, ast.ProcDecl] = field(default_factory=dict)
    rules: dict[str, ast.RuleDecl] = field(default_factory=dict)
    rule_origin: dict[str, str] = field(default_factory=dict)  # rule -> defining file
    uses: dict[str, list[ast.UseRule]] = field(default_factory=dict)
    waivers: list[ast.Waive] = field(default_factory=list)
    equivalents: list[ast.Equivalent] = field(default_factory=list)  # for boardrules mutate
    assumptions: list[ast.Assumption] = field(default_factory=list)
    game: dict[str, ast.GameProp] = field(default_factory=dict)
    scenarios: list[ast.Scenario] = field(default_factory=list)  # fixtures expanded
    fixtures: dict[str, ast.Fixture] = field(default_factory=dict)
    enum_members: dict[str, list[str]] = field(default_factory=dict)  # member -> enums
    board_span: Span | None = None

    def global_names(self) -> set[str]:
        names: set[str] = set()
        for table in (self.params, self.options, self.enums, self.groups, self.spaces, self.dice,
                      self.decks, self.cards, self.grids, self.decisions, self.procs):
            names |= set(table)
        names |= {n for (owner, n) in self.counters if owner == ""}
        names |= set(self.enum_members)
        return names | BUILTIN_VALUES

    def definition_of(self, name: str) -> str:
        """What a top-level name stands for, as a message says it: the kind, the name and
        where it is defined (`the param 'salary' (classic.rules:12)`)."""
        kinds = (("param", self.params), ("option", self.options), ("enum", self.enums),
                 ("group", self.groups), ("space", self.spaces), ("die", self.dice),
                 ("deck", self.decks), ("grid", self.grids), ("decision", self.decisions),
                 ("procedure", self.procs))
        for kind, table in kinds:
            if name in table:
                return f"the {kind} '{name}' ({_where(table[name].span)})"
        if name in self.cards:
            return f"the card '{name}' ({_where(self.cards[name][1].span)})"
        if ("", name) in self.counters:
            return f"the counter '{name}' ({_where(self.counters[('', name)].span)})"
        if name in self.enum_members:
            enums = self.enum_members[name]
            return f"the member '{name}' of enum {', '.join(enums)} " \
                   f"({_where(self.enums[enums[0]].span)})"
        return f"the built-in '{name}'"



class Collector:
    def __init__(self, sources: SourceSet, reporter: Reporter):
        self.sources = sources
        self.report = reporter
        self.symbols = Symbols()
        self._defined: dict[str, tuple[str, Span, str]] = {}  # name -> (kind, span, file)

    def run(self) -> Symbols:
        self.symbols.events.update(KERNEL_EVENTS)
        for module in self.sources.modules:
            is_edition = module is self.sources.edition
            for decl in module.decls:
                self._collect(decl, module.path, is_edition)
        for module in self.sources.scenario_files:
            self._collect_scenario_file(module)
        self.symbols.scenarios = expand_scenarios(self.symbols.scenarios, self.symbols.fixtures,
                                                  self.report)
        self._apply_decision_defaults()
        self._check_edition()
        self._check_types()
        return self.symbols

    # ---- naming ---------------------------------------------------------------
    def _define(self, name: str, kind: str, span: Span, path: str, overridable=False) -> bool:
        """Claim a global name; False (and an error) when it is taken."""
        if name in BUILTIN_VALUES or name in KERNEL_EVENTS and kind == "event":
            self.report.error(span, f"'{name}' is a built-in name and cannot be redefined",
                              code=ErrorCode.BUILTIN_REDEFINED)
            return False
        previous = self._defined.get(name)
        if previous is not None:
            prev_kind, prev_span, prev_path = previous
            if overridable and prev_kind == kind and prev_path != path:
                self._defined[name] = (kind, span, path)
                return True
            if prev_kind == kind:
                self.report.error(span, f"{kind} '{name}' is already defined at {prev_span}",
                                  "rename or remove one of them", code=ErrorCode.DEFINED_TWICE)
            else:
                self.report.error(
                    span, f"{kind} '{name}' is already defined as {article(prev_kind)} at "
                    f"{prev_span}", "rename one of them", code=ErrorCode.DEFINED_TWICE)
            return False
        self._defined[name] = (kind, span, path)
        return True

    def _collect(self, decl: ast.Decl, path: str, is_edition: bool) -> None:
        s = self.symbols
        named = _NAMED.get(type(decl))
        if named is not None:  # a definition with a name of its own, kept in one table
            kind, table, overridable = named
            if self._define(decl.name, kind, decl.span, path, overridable=overridable):
                getattr(s, table)[decl.name] = decl
            return
        listed = _LISTED.get(type(decl))
        if listed is not None:  # kept in order, several allowed
            getattr(s, listed).append(decl)
            return
        match decl:
            case ast.Fixture():
                add_fixture(s.fixtures, decl, self.report)
            case ast.Edition():
                self._collect_edition(decl, is_edition)
            case ast.SetParam():
                if decl.name in s.sets:
                    self.report.error(decl.span, f"'{decl.name}' is set twice",
                                      f"it is first set at {s.sets[decl.name].span}",
                                      code=ErrorCode.GIVEN_TWICE)
                s.sets[decl.name] = decl
            case ast.DecisionDefault():
                if decl.name in s.decision_defaults:
                    self.report.error(decl.span, f"the default of '{decl.name}' is given twice",
                                      f"it is first given at "
                                      f"{s.decision_defaults[decl.name].span}",
                                      code=ErrorCode.GIVEN_TWICE)
                s.decision_defaults[decl.name] = decl
            case ast.EnumDecl():
                self._collect_enum(decl, path)
            case ast.FieldDecl():
                self._owned(decl, s.fields, "field")
            case ast.CounterDecl():
                if decl.owner == "" and not self._define(decl.name, "counter", decl.span, path):
                    return
                self._owned(decl, s.counters, "counter")
            case ast.Board():
                self._collect_board(decl, path)
            case ast.DeckDecl():
                if self._define(decl.name, "deck", decl.span, path):
                    s.decks[decl.name] = decl
                    for card in decl.cards:
                        if self._define(card.name, "card", card.span, path):
                            s.cards[card.name] = (decl.name, card)
            case ast.GridDecl():
                if s.grids:
                    self.report.error(decl.span, "only one grid (building map) is supported",
                                      code=ErrorCode.ONE_GRID)
                elif self._define(decl.name, "grid", decl.span, path):
                    s.grids[decl.name] = decl
            case ast.EventDecl():
                if decl.name in s.events:
                    self.report.error(decl.span, f"event '{decl.name}' is already defined",
                                      code=ErrorCode.DEFINED_TWICE)
                else:
                    s.events[decl.name] = tuple(
                        (p.name, self.type_of(p.type)) for p in decl.params
                    )
            case ast.RuleDecl():
                self._collect_rule(decl, path)
            case ast.UseRule():
                s.uses.setdefault(decl.name, []).append(decl)
            case ast.GameDecl():
                for prop in decl.props:
                    previous_prop = s.game.get(prop.kind)
                    if previous_prop is not None and previous_prop.span.path == path:
                        self.report.error(prop.span, f"game property '{prop.kind}' is given twice",
                                          code=ErrorCode.GIVEN_TWICE)
                    s.game[prop.kind] = prop

    def _collect_scenario_file(self, module: ast.Module) -> None:
        """A file of scenarios beside the edition: scenarios, fixtures and equivalent-mutant
        notes, nothing that could change the production module."""
        for decl in module.decls:
            if isinstance(decl, SCENARIO_FILE_ITEMS):
                self._collect(decl, module.path, False)
            else:
                self.report.error(
                    decl.span,
                    "a scenario file holds only scenarios, fixtures and equivalent notes",
                    "move this declaration into the edition's rules file (or a library)",
                    code=ErrorCode.NOT_A_SCENARIO)

    def _collect_edition(self, decl: ast.Edition, is_edition: bool) -> None:
        if not is_edition:
            self.report.error(decl.span, "a library cannot declare an edition",
                              code=ErrorCode.NO_EDITION)
        elif self.symbols.edition is not None:
            self.report.error(decl.span, "the edition is declared twice",
                              code=ErrorCode.GIVEN_TWICE)
        else:
            self.symbols.edition = decl

    def _collect_enum(self, decl: ast.EnumDecl, path: str) -> None:
        s = self.symbols
        if not self._define(decl.name, "enum", decl.span, path):
            return
        s.enums[decl.name] = decl
        seen: set[str] = set()
        for member in decl.members:
            if member in seen:
                self.report.error(decl.span, f"enum '{decl.name}' lists '{member}' twice",
                                  code=ErrorCode.DEFINED_TWICE)
            seen.add(member)
            s.enum_members.setdefault(member, []).append(decl.name)

    def _collect_board(self, decl: ast.Board, path: str) -> None:
        s = self.symbols
        if s.board_span is not None:
            self.report.error(decl.span, f"the board is already defined at {s.board_span}",
                              code=ErrorCode.GIVEN_TWICE)
            return
        s.board_span = decl.span
        for space in decl.spaces:
            if self._define(space.name, "space", space.span, path):
                s.spaces[space.name] = space

    def _collect_rule(self, decl: ast.RuleDecl, path: str) -> None:
        """A rule of the same name in another file replaces the earlier one (an edition
        replacing a library's rule); twice in one file is an error."""
        s = self.symbols
        if s.rule_origin.get(decl.name) == path:
            self.report.error(decl.span, f"rule '{decl.name}' is already defined at "
                              f"{s.rules[decl.name].span}", code=ErrorCode.DEFINED_TWICE)
            return
        s.rules[decl.name] = decl
        s.rule_origin[decl.name] = path

    def _owned(self, decl, table: dict, what: str) -> None:
        if decl.owner and decl.owner not in ENTITY_TYPES:
            self.report.error(
                decl.span,
                f"a {what} belongs to one of {', '.join(ENTITY_TYPES)}, not '{decl.owner}'",
                did_you_mean(decl.owner, ENTITY_TYPES),
                code=ErrorCode.UNKNOWN_TYPE,
            )
            return
        key = (decl.owner, decl.name)
        if key in table or (what == "field" and key in self.symbols.counters) or (
            what == "counter" and key in self.symbols.fields
        ):
            owner = f"{decl.owner}." if decl.owner else ""
            self.report.error(decl.span, f"'{owner}{decl.name}' is already declared",
                              code=ErrorCode.DEFINED_TWICE)
            return
        table[key] = decl

    # ---- whole-program checks -------------------------------------------------
    def _apply_decision_defaults(self) -> None:
        """`decision NAME default EXPR` replaces the default of the decision as finally
        declared (wherever the declaration stands); its quotes join the decision's."""
        s = self.symbols
        for name, given in s.decision_defaults.items():
            decision = s.decisions.get(name)
            if decision is None:
                self.report.error(given.span, f"no decision named '{name}' to give a default",
                                  did_you_mean(name, set(s.decisions)),
                                  code=ErrorCode.UNKNOWN_DECISION)
                continue
            s.decisions[name] = dataclasses.replace(
                decision, default=given.value,
                provenance=decision.provenance + given.provenance)

    def _check_edition(self) -> None:
        s = self.symbols
        if s.edition is None:
            span = Span(self.sources.edition.path, 1, 1, 1, 2)
            self.report.error(
                span, "the file declares no edition",
                'start it with: edition "Title" { rulebook "rulebook.txt" players 2 to 6 }',
                code=ErrorCode.NO_EDITION,
            )
        for name, uses in s.uses.items():
            if name not in s.rules:
                self.report.error(
                    uses[0].span, f"no rule named '{name}' to use",
                    did_you_mean(name, set(s.rules)),
                    code=ErrorCode.UNKNOWN_RULE,
                )
        for name, setting in s.sets.items():
            if name not in s.params:
                self.report.error(
                    setting.span, f"no param named '{name}' to set",
                    did_you_mean(name, set(s.params)),
                    code=ErrorCode.UNKNOWN_PARAM,
                )

    def _check_types(self) -> None:
        for decl in self.symbols.fields.values():
            self.type_of(decl.type)
        for decl in self.symbols.counters.values():
            self.type_of(decl.type)
        for decl in self.symbols.params.values():
            self.type_of(decl.type)

    def type_of(self, ref: ast.TypeRef) -> Type:
        return resolve_type(ref, self.symbols, self.report)


def resolve_type(ref: ast.TypeRef, symbols: Symbols, report: Reporter) -> Type:
    if ref.name in SCALAR_TYPES:
        base = SCALAR_TYPES[ref.name]
    elif ref.name in ENTITY_TYPES or ref.name in symbols.enums:
        base = ref.name
    else:
        known = set(SCALAR_TYPES) | set(ENTITY_TYPES) | set(symbols.enums)
        report.error(ref.span, f"unknown type '{ref.name}'", did_you_mean(ref.name, known),
                     code=ErrorCode.UNKNOWN_TYPE)
        return Type("error")
    return Type(base, ref.optional, ref.name if ref.name != base else "")


def article(word: str) -> str:
    """'a player', 'an int'."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


# Definitions kept by name in one table of Symbols: (kind, table, may an edition
# replace a library's definition of that name).
_NAMED: dict[type, tuple[str, str, bool]] = {
    ast.ParamDecl: ("param", "params", False),
    ast.OptionDecl: ("option", "options", False),
    ast.GroupDecl: ("group", "groups", False),
    ast.DieDecl: ("die", "dice", False),
    ast.DecisionDecl: ("decision", "decisions", True),
    ast.ProcDecl: ("procedure", "procs", True),
}
# Declarations kept in order in a list of Symbols (imports are resolved before).
_LISTED: dict[type, str] = {
    ast.Waive: "waivers",
    ast.Equivalent: "equivalents",
    ast.Assumption: "assumptions",
    ast.Scenario: "scenarios",
}
