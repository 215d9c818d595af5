"""Pass 2 (modules.py): an edition and, depth first, the libraries it imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.front.modules import library_dir, load_sources

HEAD = 'edition "T" { rulebook "rulebook.txt" }\n'


def test_libraries_come_first_in_dependency_order_each_once(editions):
    path = editions.write(
        HEAD + "import b\nimport a\n", prelude=False,
        libs={"a": "import c\nparam in_a: int = 1\n", "b": "import c\nimport a\n",
              "c": "param in_c: int = 1\n"},
    )
    sources = load_sources(path)
    names = [Path(m.path).stem for m in sources.libraries]
    assert names == ["c", "a", "b"]
    assert sources.modules[-1] is sources.edition
    assert set(map(lambda p: Path(p).name, sources.texts)) == {"ed.rules", "a.rules",
                                                               "b.rules", "c.rules"}


def test_one_import_line_loads_its_libraries_in_order(editions):
    path = editions.write(
        HEAD + "import b, a\n", prelude=False,
        libs={"a": "param in_a: int = 1\n", "b": "import c\n", "c": "param in_c: int = 1\n"},
    )
    names = [Path(m.path).stem for m in load_sources(path).libraries]
    assert names == ["c", "b", "a"]


def test_a_missing_library_in_an_import_list_is_reported_at_its_name(editions):
    path = editions.write(HEAD + "import a, clasic\n", prelude=False,
                          libs={"a": "param x: int = 1\n", "classic": "param y: int = 1\n"})
    with pytest.raises(CompileError) as info:
        load_sources(path)
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.span.line, diag.span.column) == (E.UNKNOWN_LIBRARY.code, 2, 11)


def test_library_dir_is_the_editions_sibling_lib(tmp_path):
    assert library_dir(tmp_path / "ed" / "ed.rules") == (tmp_path / "lib").resolve()


def test_missing_library_is_reported_at_the_import(editions):
    path = editions.write(HEAD + "\nimport clasic\n", prelude=False,
                          libs={"classic": "param x: int = 1\n"})
    with pytest.raises(CompileError) as info:
        load_sources(path)
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.span.line, diag.span.column) == (E.UNKNOWN_LIBRARY.code, 3, 1)
    assert diag.hint == ("did you mean 'classic'? Or add its folder with --lib DIR or "
                         "$BOARDRULES_PATH")


def test_import_cycle(editions):
    path = editions.write(HEAD + "import a\n", prelude=False,
                          libs={"a": "import b\n", "b": "import a\n"})
    with pytest.raises(CompileError) as info:
        load_sources(path)
    (diag,) = info.value.diagnostics
    assert diag.message == "import cycle: a -> b -> a"  # the cycle, as the message shows it
    assert (diag.code, diag.span.line, diag.span.column) == (E.IMPORT_CYCLE.code, 1, 1)
    assert diag.span.path.endswith("b.rules")


def test_unreadable_edition(tmp_path):
    with pytest.raises(CompileError) as info:
        load_sources(tmp_path / "nope.rules")
    assert info.value.diagnostics[0].code == E.UNREADABLE_FILE.code


def test_syntax_error_in_a_library_names_the_library(editions):
    path = editions.write(HEAD + "import a\n", prelude=False, libs={"a": "param x int\n"})
    with pytest.raises(CompileError) as info:
        load_sources(path)
    (diag,) = info.value.diagnostics
    assert diag.span.path.endswith("a.rules")
    assert (diag.span.line, diag.span.column) == (1, 9)
