"""The language server's answers on every shipped edition, computed in process from the
document's (unsaved) text: diagnostics, hover, definition, completion and the outline."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from boardrules.compiler.common.error_codes import ErrorCode
from boardrules.editor import features
from boardrules.editor.analysis import WHILE_TYPING, analyse

from .shipped import EDITIONS, ROOT

LIB = ROOT / "rulesets" / "lib"


def _position(text: str, pattern: str, group: int = 1) -> lsp.Position:
    """The position of `group` of the first match of `pattern`."""
    match = re.search(pattern, text, re.M)
    assert match, pattern
    start = match.start(group)
    line = text.count("\n", 0, start)
    return lsp.Position(line, start - (text.rfind("\n", 0, start) + 1))


@pytest.fixture(scope="module", params=EDITIONS, ids=lambda p: p.stem)
def edition(request):
    path: Path = request.param
    return analyse(path, path.read_text(encoding="utf-8"), WHILE_TYPING)


def test_a_shipped_edition_has_no_error(edition):
    assert edition.symbols is not None
    assert [d for d in features.diagnostics(edition)
            if d.severity == lsp.DiagnosticSeverity.Error] == []


def test_hover_on_a_rule_shows_its_quotes(edition):
    position = _position(edition.text, r"^rule (\w+)")
    name = re.search(r"^rule (\w+)", edition.text, re.M).group(1)
    hover = features.hover(edition, position)
    text = hover.contents.value
    assert text.startswith(f"(rule) `rule {name}`")
    assert f"defined at {edition.path.name}:{position.line + 1}" in text
    rule = edition.symbols.rules[name]
    quotes = [p.text for p in rule.provenance if hasattr(p, "text")]
    assert quotes and all(f"> {q}" in text for q in quotes)


def test_hover_on_a_set_param_shows_its_type_and_library(edition):
    position = _position(edition.text, r"^set (\w+)")
    name = re.search(r"^set (\w+)", edition.text, re.M).group(1)
    hover = features.hover(edition, position).contents.value
    assert hover.startswith(f"(param) `param {name}: ")
    assert f"(set {name} = " in hover and f"at {edition.path.name}:{position.line + 1})" in hover
    declared = Path(edition.symbols.params[name].span.path).name
    assert re.search(rf"defined at {declared}:\d+", hover)
    setting = edition.symbols.sets[name]
    assert all(f"> {q.text}" in hover for q in setting.provenance if hasattr(q, "text"))


def test_definition_of_a_library_procedure_goes_to_the_library(edition):
    procs = {name for name, decl in edition.symbols.procs.items()
             if Path(decl.span.path).parent == LIB}
    calls = rf"^(?!\s*proc ).*?\b({'|'.join(sorted(procs))})\("
    position = _position(edition.text, calls)
    name = re.search(calls, edition.text, re.M).group(1)
    [location] = features.definition(edition, position)
    decl = edition.symbols.procs[name]
    assert location.uri == Path(decl.span.path).resolve().as_uri()
    assert location.uri.startswith(LIB.as_uri())
    assert location.range.start.line == decl.span.line - 1


def test_completion_offers_the_names_in_scope(edition):
    handler = r"^[ \t]+on \w+\((\w+):[^\n]*\{\n[ \t]*()\S"
    body = _position(edition.text, handler, 2)
    labels = {item.label for item in features.completion(edition, body).items}
    symbols = edition.symbols
    own = {n for n, d in symbols.params.items() if d.span.path == str(edition.path)}
    library = {n for n, d in symbols.procs.items() if Path(d.span.path).parent == LIB}
    assert library and library <= labels
    assert own <= labels
    assert {"pay", "move_to", "bank", "current", "let", "if"} <= labels
    parameter = re.search(handler, edition.text, re.M).group(1)
    assert parameter in labels  # the enclosing handler's parameter


def test_completion_after_a_dot_offers_fields_and_counters(edition):
    position = _position(edition.text, r"\b\w+\.()(cash|position)\b")
    labels = {item.label for item in features.completion(edition, position).items}
    declared = {name for (owner, name) in edition.symbols.counters if owner == "player"}
    assert {"cash", "position", "alive"} <= labels and declared <= labels
    assert "pay" not in labels


def test_the_outline_lists_rules_and_declarations(edition):
    outline = features.document_symbols(edition)
    assert outline[0].kind == lsp.SymbolKind.Namespace  # the edition header
    rules = [s for s in outline if s.detail == "rule"]
    own = [r for r, path in edition.symbols.rule_origin.items() if path == str(edition.path)]
    assert sorted(r.name for r in rules) == sorted(own)
    assert all(r.children for r in rules if edition.symbols.rules[r.name].handlers)


def test_a_conformance_file_is_checked_with_its_edition(edition):
    folder = edition.path.parent / "conformance"
    path = sorted(folder.glob("*.rules"))[0]
    text = path.read_text(encoding="utf-8")
    clean = analyse(path, text, WHILE_TYPING)
    assert clean.symbols is not None and features.diagnostics(clean) == []
    position = _position(text, r'^scenario "[^"]*" for (\w+)')
    rule = re.search(r'^scenario "[^"]*" for (\w+)', text, re.M).group(1)
    hover = features.hover(clean, position).contents.value
    assert re.match(rf"\((rule|card)\) `(rule|card) {rule}\b", hover)  # what it tests
    assert "defined at " in hover and "\n> " in hover  # with the sentences it quotes
    broken = analyse(path, text.replace(f" for {rule} ", f" for {rule}_x ", 1), WHILE_TYPING)
    [error] = features.diagnostics(broken)
    assert error.code == ErrorCode.SCENARIO_UNKNOWN.code
    assert error.range.start == lsp.Position(position.line, 0)  # the scenario's start
    assert f"unknown rule '{rule}_x'" in error.message


def test_an_unknown_name_is_a_located_diagnostic_with_its_code():
    path = EDITIONS[0]
    text = path.read_text(encoding="utf-8")
    match = re.search(r"^(\s+)(let \w+ = )", text, re.M)
    broken = text[:match.end()] + "no_such_thing + " + text[match.end():]
    analysis = analyse(path, broken, WHILE_TYPING)
    [error] = [d for d in features.diagnostics(analysis)
               if d.severity == lsp.DiagnosticSeverity.Error]
    assert error.code == ErrorCode.UNKNOWN_NAME.code == "BR201"
    line = broken.count("\n", 0, match.end())
    assert error.range.start == lsp.Position(line, len(match.group(1)) + len(match.group(2)))
    assert "unknown name 'no_such_thing'" in error.message


def test_a_syntax_error_is_located_and_the_saved_file_is_untouched():
    path = EDITIONS[0]
    saved = path.read_text(encoding="utf-8")
    analysis = analyse(path, saved.replace("\nrule ", "\nrule {", 1))  # the first rule
    [error] = features.diagnostics(analysis)
    assert error.code == ErrorCode.UNEXPECTED_TOKEN.code
    assert error.range.start == _position(saved, r"^rule (\w+)")
    assert path.read_text(encoding="utf-8") == saved


def test_a_library_module_is_checked_alone():
    path = LIB / "go.rules"
    text = path.read_text(encoding="utf-8")
    assert features.diagnostics(analyse(path, text)) == []
    broken = analyse(path, text + "\nproc oops() { pay(nobody, bank, 1) }\n")
    [error] = features.diagnostics(broken)
    assert error.code == ErrorCode.UNKNOWN_NAME.code
    assert error.range.start.line == text.count("\n") + 1


def test_a_rule_named_like_another_name_is_the_rule_where_a_rule_is_named(edition):
    """`rule villains_tax` beside the space kind `villains_tax`: a rule where one is named
    (`rule`, `use`, `scenario ... for`), the other name elsewhere."""
    symbols = edition.symbols
    twins = sorted(set(symbols.rules) & (symbols.global_names() | set(symbols.cards)))
    for name in twins:
        match = re.search(rf"^(rule|use) ({name})\b", edition.text, re.M)
        if match is None:
            continue
        hover = features.hover(edition, _position(edition.text, rf"^(?:rule|use) ({name})\b"))
        assert hover.contents.value.startswith(f"(rule) `rule {name}`"), name
        return
    assert edition.path.stem != "disney_theme_park", "villains_tax is both"


def test_an_error_in_an_imported_library_is_shown_on_its_import(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "shaky.rules").write_text("proc shaky( {\n}\n", encoding="utf-8")
    edition = tmp_path / "tiny" / "tiny.rules"
    edition.parent.mkdir()
    text = 'edition "Tiny" {\n  rulebook "rulebook.txt"\n  players 2 to 4\n}\n\nimport go, shaky\n'
    [error] = features.diagnostics(analyse(edition, text, WHILE_TYPING))
    assert error.message.startswith(f"in {tmp_path / 'lib' / 'shaky.rules'}:1:")
    assert error.code == ErrorCode.UNEXPECTED_TOKEN.code
    assert error.range == lsp.Range(start=lsp.Position(line=5, character=11),
                                    end=lsp.Position(line=5, character=16))


def test_definition_of_an_import_is_the_library_file(edition):
    match = re.search(r"^import (?:\w+, )*(\w+)$", edition.text, re.M)
    [location] = features.definition(edition, _position(edition.text, r"^import (?:\w+, )*(\w+)$"))
    assert location.uri == (LIB / f"{match.group(1)}.rules").as_uri()
    assert location.range.start == lsp.Position(line=0, character=0)


def test_in_a_library_module_definition_and_hover_reach_the_libraries_it_imports():
    path = LIB / "rent.rules"
    text = path.read_text(encoding="utf-8")
    analysis = analyse(path, text, WHILE_TYPING)
    position = _position(text, r"\b(owns_group)\(")
    [location] = features.definition(analysis, position)
    assert location.uri == (LIB / "property.rules").as_uri()
    hover = features.hover(analysis, position).contents.value
    assert hover.startswith("(procedure) `proc owns_group(") and "property.rules:" in hover
    outline = {s.name for s in features.document_symbols(analysis)}
    assert {"property", "owns_group"} & outline == {"property"}  # its import, not theirs


def test_a_position_past_the_end_is_answered(edition):
    past = lsp.Position(line=edition.text.count("\n") + 5, character=3)
    assert features.hover(edition, past) is None and features.definition(edition, past) == []
    assert "pay" in {item.label for item in features.completion(edition, past).items}
