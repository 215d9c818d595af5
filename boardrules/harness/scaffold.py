"""`boardrules new`: a new edition's folder, ready to be written from its rulebook.

`new_edition` creates `DIR/NAME/` holding a byte-for-byte copy of the rulebook
(`rulebook.txt`), the folders for scenario files, `conformance/` empty and
`scenarios/` with a first file named after the rulebook's first section (a
commented example: scenarios live beside the rules, one file per section, so
that the rules file reads like its rulebook), and `NAME.rules`: the edition
header, the chosen library imports, placeholders that let the skeleton compile
(a value for each param the libraries leave to the edition, a one-space board, a
turn when no library plays one), and every sentence of the rulebook, section by
section, as a comment ready to become a `quote` or a `waive`. The sentences are
split exactly as `boardrules coverage` splits them (harness/sentences.py), so
every comment is one line of the report.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..compiler.common.diagnostics import Span, did_you_mean
from ..compiler.common.files import read_bytes
from ..compiler.front import ast
from ..compiler.front.libpath import (
    SCENARIO_FOLDERS,
    available_libraries,
    find_library,
    search_path,
)
from ..compiler.front.modules import _load_imports
from .sentences import rulebook_sentences

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
PLACEHOLDERS = "# ==== placeholders: replace them with the edition's own ===="
SENTENCES = "# ==== the rulebook, sentence by sentence: quote or waive each ===="
RULEBOOK = "rulebook.txt"
SCENARIOS = "scenarios"  # the folder of scenario files written with the rules
PLACEHOLDER = "placeholder"  # the placeholder board's one space, kind and group


class ScaffoldError(Exception):
    """A bad name, rulebook or import, or a folder that exists: one line, exit status 2."""


@dataclass(frozen=True)
class Library:
    """What the skeleton needs to know of the imported libraries."""

    params: tuple[ast.ParamDecl, ...]  # declared without a value: the edition sets them
    enums: dict[str, tuple[str, ...]]
    has_board: bool
    plays_turn: bool  # some rule handles the `turn` event


def new_edition(name: str, rulebook: Path, imports: list[str] | None = None,
                folder: Path | None = None) -> Path:
    """Create FOLDER/NAME/ with the rulebook copy and the NAME.rules skeleton; return the
    rules file. Raises ScaffoldError for bad input, before writing anything."""
    if not NAME.match(name):
        raise ScaffoldError(f"an edition name is letters, digits and _ (not starting with a "
                            f"digit), not {name!r}")
    target = (folder or Path.cwd()) / name
    if target.exists():
        raise ScaffoldError(f"{target} already exists: choose another name or --dir")
    if not target.parent.is_dir():
        raise ScaffoldError(f"no such folder: {target.parent}")
    try:
        data = read_bytes(rulebook)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise ScaffoldError(f"cannot read the rulebook {rulebook}: {reason}") from None
    edition = target / f"{name}.rules"
    library = load_library(imports or [], search_path(edition))
    skeleton = render(name, text, imports or [], library)
    target.mkdir()
    (target / RULEBOOK).write_bytes(data)  # what was read: byte for byte
    edition.write_text(skeleton, encoding="utf-8")
    for scenario_folder, _ in SCENARIO_FOLDERS:
        (target / scenario_folder).mkdir()
    file_name, example = starter_scenarios(text)
    (target / SCENARIOS / file_name).write_text(example, encoding="utf-8")
    return edition


def section_file(section: str) -> str:
    """A scenario file's name for a rulebook section: `Deals & Trades` -> deals_and_trades.rules
    (apostrophes and dots left out, and what is in brackets unless it is all there is)."""
    def words(text: str) -> str:
        text = re.sub(r"[’'\".`]", "", text.replace("&", " and ").lower())
        return re.sub(r"[^a-z0-9]+", "_", text).strip("_")
    name = words(re.sub(r"\([^)]*\)", " ", section)) or words(section) or "scenarios"
    return f"{name}.rules"


def starter_scenarios(rulebook: str) -> tuple[str, str]:
    """The first scenario file: its name (the rulebook's first section) and a commented
    example, which checks as it is (a scenario file holds only scenarios and notes)."""
    sections = [s.section for s in rulebook_sentences(rulebook)[1] if s.section]
    section = sections[0] if sections else "Scenarios"
    lines = [
        f"# Scenarios of the rulebook's section {_string(section)}, written with the rules:",
        "# one file per section, each scenario naming the rule it tests. An example to",
        "# adapt once a rule implements the section (docs/language.md, \"Scenarios\"):",
        "#",
        "# scenario \"what the rule does, in a few words\" for RULE {",
        "#   players 2",
        "#   given { p1.position = SPACE }",
        "#   dice [3, 4]",
        "#   play p1",
        "#   expect p1.cash == 1500",
        "# }",
    ]
    return section_file(section), "\n".join(lines) + "\n"


def load_library(imports: list[str], search: list[Path]) -> Library:
    """The imported libraries (and theirs), parsed; ScaffoldError for an unknown name."""
    for module in imports:
        if not NAME.match(module):
            raise ScaffoldError(f"not a library name: {module!r}")
        if find_library(module, search) is None:
            known = available_libraries(search)
            hint = did_you_mean(module, known) or f"libraries: {', '.join(known) or 'none'}"
            raise ScaffoldError(f"no library named '{module}' ({hint})")
    span = Span("<new edition>", 1, 1, 1, 1)
    edition = ast.Module(span, span.path, tuple(ast.Import(span, m) for m in imports))
    loaded: list[ast.Module] = []
    _load_imports(edition, search, {}, loaded, (span.path,))
    decls = [d for module in loaded for d in module.decls]
    has_value = {d.name for d in decls if isinstance(d, ast.SetParam)}
    turn = any(h.event == "turn" for d in decls if isinstance(d, ast.RuleDecl)
               for h in d.handlers)
    return Library(
        params=tuple(d for d in decls if isinstance(d, ast.ParamDecl)
                     and d.value is None and d.name not in has_value),
        enums={d.name: d.members for d in decls if isinstance(d, ast.EnumDecl)},
        has_board=any(isinstance(d, ast.Board) for d in decls),
        plays_turn=turn,
    )


def render(name: str, rulebook: str, imports: list[str], library: Library) -> str:
    """The skeleton's text."""
    title = " ".join(word.capitalize() for word in name.split("_") if word) or name
    lines = [
        f"# {name}: written from {RULEBOOK} (boardrules new).",
        "#",
        "# Below the header and the imports: placeholders that let this file compile,",
        "# then every sentence of the rulebook as a comment, section by section. Make each",
        "# sentence a `quote` of what implements it, or `waive \"...\" because \"...\"`;",
        f"# `boardrules coverage {name}` shows what is left. docs/tutorial.md walks through it.",
        "",
        f"edition {_string(title)} {{",
        f"  rulebook {_string(RULEBOOK)}",
        "  players 2 to 4",
        "}",
        "",
        *(f"import {module}" for module in imports),
        *([""] if imports else []),
        PLACEHOLDERS,
        *_placeholders(library),
        "",
        SENTENCES,
        *_sentences(rulebook),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"


def _placeholders(library: Library) -> list[str]:
    lines: list[str] = []
    kind = library.enums.get("kind", (PLACEHOLDER,))[0]
    need_group = False
    for param in library.params:
        value = _placeholder_value(param.type, library.enums)
        if value is None:
            lines.append(f"# set {param.name} = ...   (a {param.type.name}: give it a value)")
            continue
        need_group |= value == f"{PLACEHOLDER}_group"
        lines.append(f"set {param.name} = {value} assume \"placeholder\"")
    if need_group:
        lines.append(f"group {PLACEHOLDER}_group \"Placeholder\" assume \"placeholder\"")
    if not library.has_board:
        if "kind" not in library.enums:
            lines.append(f"enum kind {{ {PLACEHOLDER} }}")
        lines += ["board {", f"  space {PLACEHOLDER} \"Placeholder\" {kind} "
                  "assume \"placeholder\"", "}"]
    if not library.plays_turn:
        lines += ["rule turn {", "  assume \"placeholder: a turn that does nothing\"",
                  "  on turn(p: player) {", "  }", "}"]
    return lines


def _placeholder_value(ref: ast.TypeRef, enums: dict[str, tuple[str, ...]]) -> str | None:
    """A constant of the param's type: 0, false, none, the placeholder space or group, or
    an enum's first member; None when there is no such constant to give."""
    if ref.length or ref.index_enum:
        return None
    if ref.optional:
        return "none"
    if ref.name in ("int", "money"):
        return "0"
    if ref.name == "bool":
        return "false"
    if ref.name == "space":
        return PLACEHOLDER
    if ref.name == "group":
        return f"{PLACEHOLDER}_group"
    if ref.name in enums and enums[ref.name]:
        return f"{ref.name}.{enums[ref.name][0]}"
    return None


def _sentences(rulebook: str) -> list[str]:
    """Every sentence as a comment `#   "..."` (a string as a rules file writes it), under
    a comment naming its section."""
    lines: list[str] = []
    section = None
    for sentence in rulebook_sentences(rulebook)[1]:
        if sentence.section != section:
            section = sentence.section
            lines += ["", f"# -- {section or '(before the first heading)'}"]
        lines.append(f"#   {_string(sentence.text)}")
    if section is None:
        lines.append("# (the rulebook has no sentences)")
    return lines


def _string(text: str) -> str:
    """A rules-language string literal: JSON escapes, non-ASCII text as is."""
    return json.dumps(text, ensure_ascii=False)
