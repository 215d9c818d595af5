"""The TextMate grammar of editors/vscode, run by a real TextMate engine: babi's tokenizer
(the Oniguruma regex library, as VS Code uses). It proves that every regex compiles in
Oniguruma, that every line of every shipped rules file and docs block is tokenized with
no `invalid` scope (the grammar's last pattern marks any other character invalid), and
that each of the grammar's words gets its colour. It does not prove how VS Code's own
engine (vscode-textmate) or a theme shows it, nor that the extension activates."""

from __future__ import annotations

import json
import shutil

import pytest
from babi.highlight import Grammars, highlight_line

from boardrules.compiler.front.primitives import DECK_FUNCTIONS, KERNEL_FUNCTIONS
from boardrules.editor.vocabulary import grammar_words

from .shipped import ROOT, RULES_FILES, doc_blocks

EXTENSION = ROOT / "editors" / "vscode"
MANIFEST = json.loads((EXTENSION / "package.json").read_text())
[GRAMMAR_ENTRY] = MANIFEST["contributes"]["grammars"]
GRAMMAR = EXTENSION / GRAMMAR_ENTRY["path"]


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    folder = tmp_path_factory.mktemp("grammars")  # babi finds a grammar by its scope's name
    shutil.copy(GRAMMAR, folder / f"{GRAMMAR_ENTRY['scopeName']}.json")
    return Grammars(str(folder)).compiler_for_scope(GRAMMAR_ENTRY["scopeName"])


def _tokens(compiler, text: str) -> list[tuple[int, str, str]]:
    """(line, text, innermost scope) of every token of `text`."""
    state = compiler.root_state
    tokens = []
    for number, line in enumerate(text.split("\n"), 1):
        state, regions = highlight_line(compiler, state, line + "\n", number == 1)
        tokens += [(number, line[r.start:r.end], r.scope[-1]) for r in regions]
    return tokens


def _invalid(compiler, text: str) -> list[tuple[int, str]]:
    return [(n, t) for n, t, scope in _tokens(compiler, text) if scope.startswith("invalid")]


def test_the_manifest_names_the_language_and_its_grammar():
    [language] = MANIFEST["contributes"]["languages"]
    assert language["extensions"] == [".rules"]
    assert GRAMMAR_ENTRY["language"] == language["id"] == "boardrules"
    assert (EXTENSION / language["configuration"]).is_file()
    assert json.loads(GRAMMAR.read_text())["scopeName"] == GRAMMAR_ENTRY["scopeName"]
    assert (EXTENSION / MANIFEST["main"]).is_file()


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_file_is_tokenized_without_invalid(compiler, path):
    assert _invalid(compiler, path.read_text(encoding="utf-8")) == []


def test_every_docs_block_is_tokenized_without_invalid(compiler):
    assert [(where, _invalid(compiler, text)) for where, text in doc_blocks()
            if _invalid(compiler, text)] == []


def test_mistakes_are_invalid(compiler):
    assert _invalid(compiler, 'let a = b @ c\nlet s = "open') == [(1, "@"), (2, '"open')]


def test_words_get_their_scopes(compiler):
    scopes = {text: scope for _, text, scope in _tokens(
        compiler, 'rule go_salary {\n  quote "GO"  # paid\n  on pass(p: player) '
        '{ pay(bank, p, salary + 2) }\n}')}
    assert scopes["rule"].startswith("storage.type.declaration")
    assert scopes["go_salary"].startswith("entity.name.function")
    assert scopes['"GO"'].startswith("string.quoted.double")
    assert scopes["# paid"].startswith("comment.line")
    assert scopes["quote"].startswith("keyword.other.provenance")
    assert scopes["on"].startswith("keyword.control")
    assert scopes["player"].startswith("storage.type")
    assert scopes["pay"].startswith("support.function")
    assert scopes["bank"].startswith("variable.language")
    assert scopes["salary"].startswith("variable.other")
    assert scopes["2"].startswith("constant.numeric")


def test_every_grammar_word_has_a_colour(compiler):
    plain = {word for word in grammar_words()
             if _tokens(compiler, word)[0][2].startswith("variable.other")}
    # `grid map 8 x 8` and the scenario step `random [..]`, but names anywhere else
    assert plain == {"x", "random"}
    assert _tokens(compiler, "random [2]")[0][2].startswith("keyword.control")


def test_every_kernel_function_has_its_colour(compiler):
    """A kernel function added to the language is coloured as one in editors too."""
    plain = [name for name in (*KERNEL_FUNCTIONS, *DECK_FUNCTIONS)
             if not _tokens(compiler, f"{name}(p)")[0][2].startswith("support.function")]
    assert plain == []
