"""Editor support for the rules language: a language server (lsp.py), a Pygments lexer
(lexer.py) and the vocabulary both share with the TextMate grammar (editors/vscode/)."""
