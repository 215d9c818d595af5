// The grammar run by VS Code's own TextMate engine (vscode-textmate on vscode-oniguruma):
// no token of any shipped rules file is invalid, and two mistakes are. `npm test`.
const fs = require("fs"), path = require("path");
const vsctm = require("vscode-textmate"), oniguruma = require("vscode-oniguruma");
const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (p) => new oniguruma.OnigScanner(p),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
// usage: node test/tokenize.js [FILE.rules ...] (default: every .rules file under rulesets/)
const root = path.join(__dirname, "..", "..", "..");
const grammarPath = path.join(__dirname, "..", "syntaxes", "boardrules.tmLanguage.json");
const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith(".rules") ? [path.join(dir, e.name)] : []);
const given = process.argv.slice(2);
const files = given.length ? given : walk(path.join(root, "rulesets"));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath),
});
registry.loadGrammar("source.boardrules").then((grammar) => {
  let invalid = 0, tokens = 0;
  for (const file of files) {
    let stack = vsctm.INITIAL;
    fs.readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      const r = grammar.tokenizeLine(line, stack);
      for (const t of r.tokens) {
        tokens++;
        if (t.scopes.some((s) => s.startsWith("invalid"))) { invalid++; if (invalid < 5) console.log(file, i + 1, line.slice(t.startIndex, t.endIndex)); }
      }
      stack = r.ruleStack;
    });
  }
  const probe = grammar.tokenizeLine('let a = b @ "open', vsctm.INITIAL).tokens
    .filter((t) => t.scopes.at(-1).startsWith("invalid")).length;
  console.log(`${files.length} files, ${tokens} tokens, ${invalid} invalid`);
  if (files.length === 0 || invalid > 0 || probe !== 2) process.exit(1);
});
