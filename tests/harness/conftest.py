"""Helpers for the harness tests: checks that a written HTML page is valid and self-contained."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import html5lib
import pytest

# elements that cannot sit inside a <p> (the parser would close the paragraph before them)
_NOT_IN_P = {"address", "article", "aside", "details", "div", "dl", "fieldset", "figure",
             "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main",
             "nav", "ol", "p", "pre", "section", "table", "ul"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}


class _Structure(HTMLParser):
    """Nesting, ids, in-page links and anything fetched from elsewhere."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.style: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in _NOT_IN_P and "p" in self.stack:
            self.problems.append(f"<{tag}> inside <p> (line {self.getpos()[0]})")
        if "id" in attrs:
            self.ids.append(attrs["id"])
        for name in ("src", "srcset", "data", "poster", "action"):
            if name in attrs:
                self.problems.append(f"<{tag} {name}=...> loads a resource")
        if tag == "link":
            self.problems.append("<link> loads a resource")
        href = attrs.get("href") or ""
        if href.startswith("#"):
            self.links.append(href[1:])
        elif href:
            self.problems.append(f"a link leaves the page: {href}")
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else ''}> "
                                 f"(line {self.getpos()[0]})")
            if tag in self.stack:
                del self.stack[len(self.stack) - 1 - self.stack[::-1].index(tag):]
            return
        self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "style":
            self.style.append(data)


def page_problems(page: str) -> list[str]:
    """What is wrong with a page meant to be valid HTML that works offline; [] when nothing."""
    problems = []
    try:
        html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)
    except html5lib.html5parser.ParseError as exc:
        problems.append(f"html5lib: {exc}")
    structure = _Structure()
    structure.feed(page)
    structure.close()
    problems += structure.problems
    if structure.stack:
        problems.append(f"unclosed elements: {structure.stack}")
    duplicates = sorted({i for i in structure.ids if structure.ids.count(i) > 1})
    if duplicates:
        problems.append(f"duplicate ids: {duplicates}")
    missing = sorted(set(structure.links) - set(structure.ids))
    if missing:
        problems.append(f"links to missing ids: {missing}")
    if re.search(r"url\(|@import", "".join(structure.style)):
        problems.append("the style sheet loads a resource")
    return problems


@pytest.fixture
def html_problems() -> Callable[[str], list[str]]:
    return page_problems
