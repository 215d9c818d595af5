"""No module of the package much over 600 lines: a longer one holds more than one idea,
and is split where they part (the compiler's stages and their modules are laid out so)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "boardrules"
LIMIT = 650  # "about 600": room for a docstring or two, not for a second module


def long_modules(root: Path, limit: int = LIMIT) -> list[str]:
    """The modules under root longer than the limit, with their lengths."""
    found = []
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(root.parent)}: {lines} lines")
    return found


def test_no_module_is_much_over_600_lines():
    assert long_modules(PACKAGE) == []


def test_a_long_module_is_seen(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "short.py").write_text("x = 1\n" * 10)
    (package / "long.py").write_text("x = 1\n" * 700)
    assert long_modules(package) == ["pkg/long.py: 700 lines"]
