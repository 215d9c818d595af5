"""The kernel's C methods are called directly: each is `final` (no lookup in Cython's
table of methods, and C may inline it) unless the edition's Game overrides it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import boardrules.compiler.back
from boardrules.compiler.common.kernel_facts import kernel_source

TEMPLATES = Path(boardrules.compiler.back.__file__).parent / "templates"
TEMPLATE = TEMPLATES / "module.py.j2"


def c_methods(source: str) -> dict[str, list[str]]:
    """Each `@cython.cfunc` method of the source's classes that are not final themselves
    (the ones Game derives from), with its decorators."""
    methods: dict[str, list[str]] = {}
    decorators: list[str] = []
    final_class = False
    for line in source.splitlines():
        text = line.strip()
        if text.startswith("@cython."):
            decorators.append(text)
        elif text.startswith("class "):
            final_class, decorators = "@cython.final" in decorators, []
        elif text.startswith("def ") and line.startswith("    "):
            if "@cython.cfunc" in decorators and not final_class:
                methods[re.match(r"def (\w+)", text).group(1)] = decorators
            decorators = []
        elif text and not text.startswith("#"):
            decorators = []
    return methods


def test_every_kernel_method_but_the_games_hooks_is_final():
    kernel = c_methods(kernel_source())
    template = TEMPLATE.read_text()
    game = template[template.index("\nclass Game("):]
    for included in re.findall(r'{% include "([\w.]+)" %}', game):  # (the game loop's)
        game += (TEMPLATES / included).read_text()
    overridden = {name for name in kernel if re.search(rf"\n    def {name}\(", game)}
    if "def {{ name|ident('event_') }}(" in game:  # a handler of each of the rules' events
        overridden |= {name for name in kernel if name.startswith("event_")}
    assert overridden >= {"event_turn", "event_pass"}  # the hooks are found
    not_final = {name for name, decorators in kernel.items()
                 if "@cython.final" not in decorators}
    assert not_final == overridden


def test_an_inline_kernel_method_raises_through_a_call_of_its_own():
    """gcc inlines a small function only: a guard tested at every loop round or table read
    (tick, k_span, chk, k_some, k_enter) keeps its error, which builds a message, in a
    method of its own, so that what C inlines is the test."""
    tree = ast.parse(kernel_source())
    inline = {f.name: f for c in tree.body if isinstance(c, ast.ClassDef) for f in c.body
              if isinstance(f, ast.FunctionDef)
              and any(ast.unparse(d) == "cython.inline" for d in f.decorator_list)}
    assert {"tick", "k_span", "chk", "k_some", "k_enter"} <= inline.keys()
    raising = {name for name, f in inline.items()
               if any(isinstance(n, ast.Raise) for n in ast.walk(f))}
    assert raising == set()
