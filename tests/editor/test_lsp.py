"""`boardrules lsp` as an editor runs it: a separate process spoken to over stdio by pygls'
client, with the protocol's messages (lsprotocol): open a document, change it unsaved,
get its diagnostics, hover, definition, completion and outline, shut down."""

from __future__ import annotations

import asyncio
import sys

import pytest
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from boardrules.cli import main
from boardrules.compiler.common.error_codes import ErrorCode

from .shipped import ROOT

EDITION = ROOT / "rulesets" / "super_mario_celebration" / "super_mario_celebration.rules"
TIMEOUT = 120  # seconds for one answer: a cold check of an edition on a busy machine


async def _session() -> dict:
    client = LanguageClient("boardrules-test", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    await client.start_io(sys.executable, "-c",
                          "import sys; from boardrules.cli import main; sys.exit(main(['lsp']))")
    result = await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=ROOT.as_uri()))
    client.initialized(lsp.InitializedParams())
    uri = EDITION.as_uri()
    text = EDITION.read_text(encoding="utf-8")
    document = lsp.TextDocumentIdentifier(uri=uri)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="boardrules", version=1,
                                           text=text)))
    clean = await asyncio.wait_for(published.get(), TIMEOUT)
    rule_line = next(i for i, line in enumerate(text.split("\n")) if line.startswith("rule "))
    at_rule = lsp.Position(line=rule_line, character=len("rule "))
    hover = await asyncio.wait_for(client.text_document_hover_async(
        lsp.HoverParams(text_document=document, position=at_rule)), TIMEOUT)
    outline = await asyncio.wait_for(client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(text_document=document)), TIMEOUT)
    # an unsaved change: a name that does not exist, typed at the start of the rule's line
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=rule_line, character=0),
                            end=lsp.Position(line=rule_line, character=0)),
            text="param broken: int = nowhere\n")]))
    broken = await asyncio.wait_for(published.get(), TIMEOUT)
    completion = await asyncio.wait_for(client.text_document_completion_async(
        lsp.CompletionParams(text_document=document, position=lsp.Position(
            line=rule_line, character=len("param broken: int = ")))),
        TIMEOUT)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"capabilities": result.capabilities, "clean": clean, "hover": hover,
            "outline": outline, "broken": broken, "rule_line": rule_line,
            "completion": completion, "saved": EDITION.read_text(encoding="utf-8") == text}


def _errors(published) -> list:
    return [d for d in published.diagnostics if d.severity == lsp.DiagnosticSeverity.Error]


@pytest.mark.long  # a process that checks an edition: run first (tests/conftest.py)
def test_a_session_over_stdio():
    session = asyncio.run(_session())
    capabilities = session["capabilities"]
    assert capabilities.hover_provider and capabilities.definition_provider
    assert list(capabilities.completion_provider.trigger_characters) == ["."]
    # the edition checks without errors (its warnings, such as a quote found twice in the
    # rulebook, are published too)
    assert _errors(session["clean"]) == []
    assert session["hover"].contents.value.startswith("(rule) `rule ")
    assert "\n> " in session["hover"].contents.value  # its quoted sentences
    assert any(s.detail == "rule" for s in session["outline"])
    [error] = _errors(session["broken"])
    assert session["broken"].version == 2
    assert error.code == ErrorCode.UNKNOWN_NAME.code
    assert error.range.start == lsp.Position(session["rule_line"], len("param broken: int = "))
    assert "nowhere" in error.message
    labels = {item.label for item in session["completion"].items}
    assert {"pay", "current"} <= labels
    assert session["saved"]  # the file on disk was never written


def test_without_the_editor_extra_lsp_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pygls", None)  # as if pygls were not installed
    monkeypatch.delitem(sys.modules, "boardrules.editor.lsp", raising=False)
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert err == ("boardrules: error: the language server needs pygls: "
                   "pip install 'boardrules[editor]'\n")
