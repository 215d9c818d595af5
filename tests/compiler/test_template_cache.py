"""The templates' compiled code kept on disk: reused, and any broken entry only a miss."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from boardrules.compiler.back import codegen, template_cache

TEMPLATES = {"page.j2": "{% for x in xs %}{{ x }};{% endfor %}"}


def environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.DictLoader(TEMPLATES),
                              bytecode_cache=template_cache.TemplateCache())


def compiles(monkeypatch) -> list[str]:
    """The templates Jinja compiles from source from now on."""
    names: list[str] = []
    real = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return real(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


def entries(cache: Path) -> list[Path]:
    return sorted((cache / template_cache.FOLDER).glob("*.jinja"))


def test_a_second_process_reads_the_compiled_template_back(cache, monkeypatch):
    compiled = compiles(monkeypatch)
    assert environment().get_template("page.j2").render(xs=[1, 2]) == "1;2;"
    assert compiled == ["page.j2"] and len(entries(cache)) == 1
    assert environment().get_template("page.j2").render(xs=[3]) == "3;"
    assert compiled == ["page.j2"]  # not compiled again


@pytest.mark.parametrize("damage", ["emptied", "truncated", "overwritten"])
def test_a_damaged_entry_is_compiled_again(cache, monkeypatch, damage):
    environment().get_template("page.j2")
    (entry,) = entries(cache)
    whole = entry.read_bytes()
    entry.write_bytes({"emptied": b"", "truncated": whole[:40],
                       "overwritten": whole[:20] + b"garbage" * 50}[damage])
    compiled = compiles(monkeypatch)
    assert environment().get_template("page.j2").render(xs=[5]) == "5;"
    assert compiled == ["page.j2"]


def test_an_unwritable_cache_only_costs_the_compile(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("BOARDRULES_CACHE", str(blocked))
    assert environment().get_template("page.j2").render(xs=[7]) == "7;"


def test_the_generator_uses_it():
    assert isinstance(codegen.environment().bytecode_cache, template_cache.TemplateCache)
