"""A plain install carries what a checkout has: every package, and rulesets/ as the
package data boardrules/rulesets (scripts/check_plain_install.sh installs it for real)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

from boardrules.compiler.front import libpath

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_is_listed():
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "boardrules").rglob("__init__.py")}
    assert set(SETUPTOOLS["packages"]) == found | {"boardrules.rulesets"}


def test_the_rulesets_are_package_data():
    assert SETUPTOOLS["package-dir"] == {"boardrules.rulesets": "rulesets"}
    patterns = SETUPTOOLS["package-data"]["boardrules.rulesets"]
    files = [p.relative_to(ROOT / "rulesets").as_posix()
             for p in (ROOT / "rulesets").rglob("*") if p.is_file()]
    assert files
    for name in files:  # `**/` also matches no folder at all, as setuptools globs it
        assert any(fnmatch(name, pattern) or fnmatch(name, pattern.removeprefix("**/"))
                   for pattern in patterns), f"rulesets/{name} would be left out of a wheel"


def test_installed_rulesets_come_first(tmp_path, monkeypatch):
    assert libpath.bundled_rulesets() == ROOT / "rulesets"  # this checkout
    (tmp_path / "boardrules" / "rulesets" / "lib").mkdir(parents=True)
    monkeypatch.setattr(libpath, "PACKAGE", tmp_path / "boardrules")
    assert libpath.bundled_library() == tmp_path / "boardrules" / "rulesets" / "lib"
