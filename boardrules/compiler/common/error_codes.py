"""The registry of compile errors: one stable code for each kind of mistake.

Every error the compiler reports carries one of these codes, shown at the end of its first
line (`file:line:col: error: unknown name 'x' [BR201]`), so that tests and tools match the
code and the position instead of the wording, which may improve. The hundreds say where a
mistake is found:

    BR1xx  reading and parsing a file
    BR2xx  names and scope
    BR3xx  types and values
    BR4xx  declarations, data layout and the kernel's limits
    BR5xx  scenarios
    BR6xx  quotes and the rulebook

A code is never reused for another kind of mistake, nor renumbered; a kind that is no
longer reported keeps its number retired. Lint warnings are named instead (`lint.CHECKS`),
since a rules file silences them by name. docs/errors.md lists the codes (`table()`, which
`python -m boardrules.compiler.common.error_codes` prints); tests/compiler/test_error_codes.py
checks that the table, this registry and the compiler's call sites agree.
"""

from __future__ import annotations

from enum import Enum, unique


@unique
class ErrorCode(Enum):
    """A kind of compile error: its code, a short title and why it is an error."""

    code: str
    title: str
    why: str

    def __new__(cls, code: str, title: str, why: str) -> ErrorCode:
        member = object.__new__(cls)
        member._value_ = code
        member.code, member.title, member.why = code, title, why
        return member

    def __str__(self) -> str:
        return self.code

    # ---- BR1xx: reading and parsing a file -----------------------------------------------
    UNEXPECTED_TOKEN = (
        "BR101", "unexpected token",
        "the grammar allows no such word or symbol at that place; the hint says what it expects")
    UNEXPECTED_END = (
        "BR102", "unexpected end of file",
        "the file ends inside a declaration, usually at a bracket that is never closed")
    UNEXPECTED_CHARACTER = (
        "BR103", "unexpected character",
        "the character belongs to no word, number, string or operator of the language")
    UNTERMINATED_STRING = (
        "BR104", "unterminated string",
        "a string must end with a double quote on the line it starts on")
    BAD_ESCAPE = (
        "BR105", "bad escape in a string",
        "an escape must stand for a whole character the generated module can print")
    NUMBER_TOO_LARGE = (
        "BR106", "number too large",
        "numbers are stored as 32-bit integers on both backends")
    BAD_COUNT = (
        "BR107", "count out of range",
        "a list length, a card's copies or a die's faces must be at least one and within the "
        "compiler's bounds")
    UNREADABLE_FILE = (
        "BR108", "cannot read a rules file",
        "a rules file or an imported library must exist and be UTF-8 text")
    NUMBER_TOO_LONG = (
        "BR109", "number written with too many digits",
        "a number has at most 20 digits, leading zeros included (the largest has 10)")
    DESC_WITHOUT_ORDER = (
        "BR110", "desc without by",
        "desc reverses the order of a key, so it follows by KEY")

    # ---- BR2xx: names and scope ----------------------------------------------------------
    UNKNOWN_NAME = (
        "BR201", "unknown name",
        "a name must be a local, a parameter, a param, an option, a counter or an enum member "
        "in scope")
    UNKNOWN_TYPE = (
        "BR202", "unknown type",
        "a type must be built in, an entity (player, space, ...) or a declared enum")
    UNKNOWN_PROCEDURE = (
        "BR203", "unknown procedure",
        "a call must name a declared procedure or a built-in function")
    UNKNOWN_EVENT = (
        "BR204", "unknown event",
        "a handler or an emit must name an event the kernel or the rules declare")
    UNKNOWN_DECK = (
        "BR205", "unknown deck",
        "a draw or a loop over cards must name a declared deck")
    UNKNOWN_ENUM = (
        "BR206", "unknown enum",
        "a loop over an enum or a list indexed by one must name a declared enum")
    UNKNOWN_DECISION = (
        "BR207", "unknown decision",
        "ask must name a declared decision")
    UNKNOWN_ATTRIBUTE = (
        "BR208", "unknown attribute or field",
        "an attribute must be built in or a declared field or counter of that entity")
    UNKNOWN_MEMBER = (
        "BR209", "unknown enum member",
        "the member must be listed in its enum (the space kinds in enum kind)")
    UNKNOWN_RULE = (
        "BR210", "unknown rule",
        "use must name a rule that the edition or an imported library defines")
    UNKNOWN_PARAM = (
        "BR211", "unknown param",
        "set must name a param that the edition or an imported library declares")
    UNKNOWN_SPACE = (
        "BR212", "unknown space",
        "an offboard space is placed at a space of the board")
    UNKNOWN_LIBRARY = (
        "BR213", "unknown library",
        "an import must name a library module on the search path")
    IMPORT_CYCLE = (
        "BR214", "import cycle",
        "a library may not import, directly or not, what imports it")
    DEFINED_TWICE = (
        "BR215", "defined twice",
        "each name has one definition, so that every use means one thing")
    GIVEN_TWICE = (
        "BR216", "given twice",
        "the edition header, the board, a param's setting and a game property are given once")
    BUILTIN_REDEFINED = (
        "BR217", "built-in name redefined",
        "a built-in name or attribute means the same in every edition")
    LOCAL_RETYPED = (
        "BR218", "local declared again with another type",
        "a local keeps one type through its function")
    AMBIGUOUS_NAME = (
        "BR219", "ambiguous enum member",
        "a member of several enums must be written with its enum's name")
    WRONG_KIND_OF_NAME = (
        "BR220", "a name used as the wrong kind of thing",
        "a die is rolled, a decision is asked, legal and a decision's option are used only "
        "where they have a meaning")
    BREAK_OUTSIDE_LOOP = (
        "BR221", "break outside a loop",
        "break leaves the innermost for or while loop of its handler or procedure; a window's "
        "body is not a loop")
    LOCAL_REDECLARED = (
        "BR222", "local declared again in an inner block",
        "a function has one variable per name: a loop's member or a local declared inside a "
        "block would overwrite the enclosing block's, which is still in use after it")

    # ---- BR3xx: types and values ---------------------------------------------------------
    TYPE_MISMATCH = (
        "BR301", "type mismatch",
        "a value's type must be the one its place expects; an optional value must be tested "
        "first")
    NO_VALUE = (
        "BR302", "no value",
        "an expression used as a value must give one")
    RETURN_MISMATCH = (
        "BR303", "return does not match the procedure",
        "a procedure that returns a type returns it on every path; one that does not, returns "
        "nothing")
    UNKNOWN_LOCAL_TYPE = (
        "BR304", "the type of a local cannot be told",
        "a local initialised with none needs a declared type")
    WRONG_ARGUMENTS = (
        "BR305", "wrong arguments or parameters",
        "a call, a handler, a deck or score takes the parameters its declaration says")
    READ_ONLY = (
        "BR306", "cannot assign",
        "fields, options and what the kernel keeps do not change during a game")
    LIST_MISUSE = (
        "BR307", "a list where one value is expected, or the reverse",
        "a list field or counter is used one value at a time, and holds as many values as it "
        "declares")
    SOME_NONE = (
        "BR308", "some(none)",
        "some(x) asserts that x is not none; some(none) always fails")
    TYPE_NOT_ALLOWED = (
        "BR309", "type not allowed here",
        "decisions choose among entities or enum members; an option is an int, a bool or an "
        "enum; a die's faces have one type")
    AGGREGATE_VALUE = (
        "BR310", "aggregate value missing or extra",
        "sum, max_of and min_of need a value for each item; count, any and all take none")
    NOT_CONSTANT = (
        "BR311", "not a constant",
        "data, params and scenario answers must be known when compiling")
    CONSTANT_OUT_OF_RANGE = (
        "BR312", "constant out of range",
        "a folded constant must fit the language's 32-bit integers")
    ORDER_CHANGES_NOTHING = (
        "BR313", "an order that cannot change the result",
        "count, sum, any, all, max_of and min_of give the same value in any order; by orders a "
        "for loop, first_of and best's ties")

    # ---- BR4xx: declarations, data layout and limits -------------------------------------
    NO_EDITION = (
        "BR401", "edition header missing or misplaced",
        "an edition file starts with its edition header; a library has none")
    BAD_EDITION_PROPERTY = (
        "BR402", "bad edition property",
        "the edition header gives a rulebook, a currency and a player range, each in its form")
    NO_BOARD = (
        "BR403", "no board",
        "an edition needs a board to play on")
    NO_TURN = (
        "BR404", "no turn rule",
        "some rule must handle the turn event, or nobody can play")
    PARAM_WITHOUT_VALUE = (
        "BR405", "param without a value",
        "a param a library declares without a value must be set by the edition")
    CYCLIC_PARAM = (
        "BR406", "param defined in terms of itself",
        "a param's value must be computable when compiling")
    MISPLACED_FIELD = (
        "BR407", "field on the wrong entity",
        "fields are fixed data of spaces, groups and cards; what changes is a counter")
    ONE_GRID = (
        "BR408", "more than one grid",
        "the kernel supports one grid (building map)")
    CAPACITY = (
        "BR409", "kernel capacity exceeded",
        "the kernel has fixed capacities (players, spaces, cards, decks, dice, rules)")
    TOO_DEEP = (
        "BR410", "nested too deeply",
        "the compiler and the generated C code bound how deep expressions and blocks nest")
    BAD_EXCLUSION = (
        "BR411", "an option that excludes itself",
        "`excludes` names the other options that may not be chosen with this one")
    OPTION_RANGE = (
        "BR412", "an option's value outside its values",
        "an int option's default, and every value a scenario chooses for it, lie within its "
        "`from LOW to HIGH` (LOW at most HIGH)")
    HANDLER_ORDER = (
        "BR413", "handler order that cannot hold",
        "a handler's `before`/`after` names a rule with a handler of the same event, and the "
        "declared orders of one event's handlers have no cycle")
    HIDDEN_NOT_KEPT = (
        "BR414", "a hidden deck's card that is not kept",
        "a `hidden` deck's cards are held face down, seen only by their holder, so each of "
        "them is `keep`: a card resolved when drawn is seen by everybody")
    ORDERED_WALK_SIZE = (
        "BR415", "an ordered walk of unknown or too many members",
        "a for loop by a key sorts its members in a list of fixed size: a range needs "
        "constant bounds and at most 1024 values")

    # ---- BR5xx: scenarios ----------------------------------------------------------------
    SCENARIO_UNKNOWN = (
        "BR501", "scenario names something unknown",
        "a scenario tests a rule and scripts decks, cards, decisions and options that exist")
    SCENARIO_PLAYERS = (
        "BR502", "scenario player count outside the edition's range",
        "a scenario plays a game the edition allows")
    NOT_A_FACE = (
        "BR503", "not a face of a die",
        "scripted dice show faces that the edition's dice have")
    BAD_ANSWER = (
        "BR504", "bad scripted answer",
        "a scripted answer has the decision's type and is one of its possible answers")
    DICE_ORDER = (
        "BR505", "scripted dice do not match the rolls",
        "a scenario scripts every die the play rolls, in the order the rules roll them, so "
        "that it does not depend on the seed")
    OFF_GRID = (
        "BR506", "cell off the grid",
        "a scenario's cell_at names a cell of the grid")
    NOT_A_SCENARIO = (
        "BR507", "not a scenario in a scenario file",
        "a scenario file beside the edition (scenarios/, conformance/) holds only scenarios, "
        "fixtures and equivalent notes: the rules stay in the rules files")
    EXCLUDED_OPTIONS = (
        "BR508", "options that exclude each other",
        "a scenario plays one variant the edition allows: two options declared to exclude "
        "each other are not both chosen")
    BAD_FIXTURE = (
        "BR509", "bad scenario fixture",
        "a fixture is a setup expanded where a scenario uses it: it neither plays nor "
        "expects, and does not use itself")
    BAD_RANDOM = (
        "BR510", "bad scripted random value",
        "a `random` step scripts what random(n) gives: numbers from 0 (the draw that takes "
        "one checks that it is below n)")

    # ---- BR6xx: quotes and the rulebook --------------------------------------------------
    RULEBOOK_FILE = (
        "BR601", "rulebook file missing or unusable",
        "the edition names a UTF-8 rulebook copy in its own folder, which quotes are "
        "checked against")
    NOT_IN_RULEBOOK = (
        "BR602", "text not in the rulebook",
        "a quote or a waiver's text occurs verbatim (white space folded) in the rulebook copy")
    MISSING_REASON = (
        "BR603", "missing reason",
        "a waiver or an equivalent mutant says why, so that a reviewer can judge it")


# the hundreds of the codes: where a mistake is found
GROUPS = {
    "BR1": "reading and parsing a file",
    "BR2": "names and scope",
    "BR3": "types and values",
    "BR4": "declarations, data layout and the kernel's limits",
    "BR5": "scenarios",
    "BR6": "quotes and the rulebook",
}


def table() -> str:
    """The codes as docs/errors.md lists them: a Markdown table for each group."""
    out: list[str] = []
    for prefix, group in GROUPS.items():
        out += [f"### {prefix}xx: {group}", "",
                "| code | kind | why it is an error |", "| --- | --- | --- |"]
        out += [f"| {kind.code} | {kind.title} | {kind.why} |"
                for kind in ErrorCode if kind.code.startswith(prefix)]
        out.append("")
    return "\n".join(out)


def by_code(code: str) -> ErrorCode:
    """The kind of error with this code (`BR201`); KeyError if there is none."""
    try:
        return ErrorCode(code)
    except ValueError:
        raise KeyError(code) from None


if __name__ == "__main__":
    print(table(), end="")
