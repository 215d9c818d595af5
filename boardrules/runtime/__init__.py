"""The runtime: the edition-agnostic kernel, module loader and cache, and the game-state API."""
