"""The Pygments lexer: found by name, alias and file name as Sphinx and MkDocs find it, and
no `Error` token on any shipped rules file or docs block, while real mistakes are one."""

from __future__ import annotations

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, String

from boardrules.editor.lexer import BoardrulesLexer
from boardrules.editor.vocabulary import grammar_words

from .shipped import ROOT, RULES_FILES, doc_blocks


def _errors(text: str) -> list[tuple[int, str]]:
    return [(pos, value) for pos, token, value in BoardrulesLexer().get_tokens_unprocessed(text)
            if token in Error]


def test_registered_as_an_entry_point():
    assert isinstance(get_lexer_by_name("rules"), BoardrulesLexer)
    assert isinstance(get_lexer_by_name("boardrules"), BoardrulesLexer)
    assert isinstance(get_lexer_for_filename("builder.rules"), BoardrulesLexer)


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_file_lexes_without_error(path):
    assert RULES_FILES and _errors(path.read_text(encoding="utf-8")) == []


def test_every_docs_block_lexes_without_error():
    blocks = doc_blocks()
    assert len(blocks) > 10
    assert [(where, _errors(text)) for where, text in blocks if _errors(text)] == []


def test_mistakes_are_error_tokens():
    assert _errors('let s = "unterminated\nlet t = 1') == [(21, "\n")]
    assert _errors("let a = b @ c") == [(10, "@")]


def test_words_are_coloured_by_kind():
    tokens = [(t, v) for t, v in BoardrulesLexer().get_tokens(
        'rule go_salary {\n  quote "GO"\n  on pass(p: player) { pay(bank, p, salary) }\n}\n')
        if v.strip()]
    assert tokens[:3] == [(Keyword.Declaration, "rule"), (Name.Function, "go_salary"),
                          (tokens[2][0], "{")]
    assert (Keyword.Pseudo, "quote") in tokens and (String.Double, "GO") in tokens
    assert (Keyword, "on") in tokens and (Keyword.Type, "player") in tokens
    assert (Name.Builtin, "pay") in tokens and (Name.Builtin.Pseudo, "bank") in tokens
    assert (Name, "salary") in tokens


def test_every_grammar_word_is_known_to_the_lexer():
    lexer = BoardrulesLexer()
    plain = {word for word in grammar_words()
             if [t for t, _ in lexer.get_tokens(word)][0] is Name}
    assert plain == {"x"}  # `grid map 8 x 8`, but a name anywhere else
