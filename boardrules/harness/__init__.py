"""The harness: simulation runner (and, later, scenario tests and rulebook coverage)."""
