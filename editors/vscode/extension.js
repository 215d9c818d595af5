// Starts `boardrules lsp` (the language server of the boardrules package) for .rules files.
// Highlighting needs none of this: the grammar in syntaxes/ works on its own.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("boardrules")
    .get("command", ["boardrules", "lsp"]);
  client = new LanguageClient(
    "boardrules",
    "boardrules",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "boardrules" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
