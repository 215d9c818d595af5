"""The language server (`boardrules lsp`, on stdio): diagnostics with their codes as the
author types, hover, go to definition, completion and the outline of `.rules` files.

A document is checked on open and on save with every checking pass `boardrules check`
runs, and while it changes (after a pause in typing) up to the lint, in one worker thread
so that the server keeps answering; a check whose text has changed since is dropped.
Hover, definition and completion use the newest check that got a symbol table, so they
keep working while the text does not parse.
"""

from __future__ import annotations

import asyncio
import dataclasses
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..compiler.pipeline import LAST_CHECKING_PASS
from . import features
from .analysis import WHILE_TYPING, Analysis, analyse

TYPING_PAUSE = 0.4  # seconds without a change before the text is checked


class RulesServer(LanguageServer):
    """A pygls server that keeps each open document's newest check."""

    def __init__(self) -> None:
        super().__init__("boardrules", __version__)
        self.checked: dict[str, Analysis] = {}  # uri -> the newest check with symbols
        self._pending: dict[str, asyncio.Task] = {}
        self._worker = ThreadPoolExecutor(max_workers=1)  # the compiler, one check at a time

    def _text(self, uri: str) -> str:
        return self.workspace.get_text_document(uri).source

    async def check(self, uri: str, until: str, pause: float = 0.0) -> Analysis | None:
        """Check the document's current text and publish its diagnostics."""
        if pause:
            await asyncio.sleep(pause)
        text = self._text(uri)
        path = Path(to_fs_path(uri) or uri)
        loop = asyncio.get_running_loop()
        try:
            analysis = await loop.run_in_executor(self._worker, analyse, path, text, until)
        except Exception as exc:  # a bug of the compiler's: said, and the server goes on
            self.window_log_message(lsp.LogMessageParams(
                lsp.MessageType.Error, f"boardrules: checking {path} failed: {exc!r}"))
            return None
        if self._text(uri) != text:
            return None  # typed over: a newer check is on its way
        if analysis.symbols is not None or uri not in self.checked:
            self.checked[uri] = analysis
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, diagnostics=features.diagnostics(analysis),
            version=self.workspace.get_text_document(uri).version))
        return analysis

    def schedule(self, uri: str, until: str, pause: float = 0.0) -> None:
        """Check the document soon, in place of a check of it still waiting."""
        pending = self._pending.pop(uri, None)
        if pending is not None and not pending.done():
            pending.cancel()
        self._pending[uri] = asyncio.get_running_loop().create_task(
            self.check(uri, until, pause))

    async def analysis(self, uri: str) -> Analysis:
        """The newest check of the document, over its current text (checked now if it
        never was)."""
        analysis = self.checked.get(uri)
        if analysis is None:
            analysis = await self.check(uri, LAST_CHECKING_PASS)
            analysis = analysis or self.checked[uri]
        text = self._text(uri)
        return analysis if analysis.text == text else dataclasses.replace(analysis, text=text)


server = RulesServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, LAST_CHECKING_PASS)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, WHILE_TYPING, TYPING_PAUSE)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
    """The saved file, then every other open one: they may import it or be its scenarios."""
    saved = params.text_document.uri
    ls.schedule(saved, LAST_CHECKING_PASS)
    for uri in list(ls.workspace.text_documents):
        if uri != saved:
            ls.schedule(uri, LAST_CHECKING_PASS, TYPING_PAUSE)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
async def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.checked.pop(uri, None)
    pending = ls._pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
async def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    return features.hover(await ls.analysis(params.text_document.uri), params.position)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: RulesServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    return features.definition(await ls.analysis(params.text_document.uri), params.position)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
async def completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    return features.completion(await ls.analysis(params.text_document.uri), params.position)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(ls: RulesServer,
                          params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    return features.document_symbols(await ls.analysis(params.text_document.uri))


def serve() -> None:
    """Answer one client on stdin and stdout until it exits."""
    server.start_io()
