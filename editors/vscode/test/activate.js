// The extension's activation outside VS Code: `vscode` is a stand-in that answers any
// question, so this proves only that extension.js loads with vscode-languageclient and
// starts a client on the configured command for boardrules documents. `npm test`.
const Module = require("module");
const anything = new Proxy(function () {}, {
  get: (target, key) => (key === "then" ? undefined : anything),
  apply: () => anything,
  construct: () => anything,
});
const settings = { get: (key, fallback) => fallback };
const workspace = new Proxy({ getConfiguration: () => settings },
  { get: (target, key) => (key in target ? target[key] : anything) });
const vscode = new Proxy({}, {
  get: (target, key) => (key === "workspace" ? workspace : key === "version" ? "1.90.0" : anything),
});
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === "vscode" ? vscode : load.call(this, request, ...rest);
};
const client = require("vscode-languageclient/node");
const made = [];
client.LanguageClient = function (id, name, server, options) {
  made.push({ id, server, options });
  return { start: () => Promise.resolve(), stop: () => Promise.resolve() };
};
const context = { subscriptions: [] };
Promise.resolve(require("../extension.js").activate(context)).then(() => {
  const [one] = made;
  const ok = made.length === 1 && one.server.command === "boardrules"
    && one.server.args.join(" ") === "lsp"
    && one.options.documentSelector[0].language === "boardrules"
    && context.subscriptions.length === 1;
  console.log(ok ? "activates: boardrules lsp" : `unexpected: ${JSON.stringify(made)}`);
  process.exit(ok ? 0 : 1);
});
