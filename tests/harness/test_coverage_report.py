"""The coverage report: statuses, the command's JSON, the HTML page, --fail-under.

The page itself, in a browser too, is tested in test_coverage_page.py."""

from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from boardrules.harness.sentences import rulebook_sentences

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ("Rules for a Short Game (60 to 90 minutes)", "Another Good Short Game")


class _Sentences(HTMLParser):
    """Collects (status, text) of every sentence of the page's rulebook."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self._status: str | None = None
        self._text: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "li" and "sentence" in classes:
            self._status = attrs["data-status"]
        elif tag == "span" and "text" in classes and self._status is not None:
            self._text = []

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "span" and self._text is not None:
            self.found.append((self._status, "".join(self._text)))
            self._status, self._text = None, None


def run_coverage(tmp_path: Path, *extra: str, edition: str = "disney_theme_park",
                 ) -> tuple[subprocess.CompletedProcess, dict, str]:
    out_json, out_html = tmp_path / "c.json", tmp_path / "c.html"
    result = subprocess.run(
        [sys.executable, "-m", "boardrules.cli", "coverage", edition,
         "--json", str(out_json), "--html", str(out_html), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    data = json.loads(out_json.read_text()) if out_json.exists() else {}
    page = out_html.read_text() if out_html.exists() else ""
    return result, data, page


def test_disney_coverage_json_and_html(tmp_path, html_problems):
    result, data, page = run_coverage(tmp_path)
    assert result.returncode == 0, result.stderr
    totals = data["totals"]
    for key in ("sentences", "tested", "untested", "partial", "waived", "uncovered"):
        assert key in totals
    assert totals["sentences"] == sum(totals[k] for k in
                                      ("tested", "untested", "partial", "waived", "uncovered"))
    for entry in data["sentences"]:
        assert set(entry) >= {"section", "text", "status", "rules", "reason"}
        if entry["status"] == "waived":
            assert entry["reason"]
    # the page shows every sentence of the rulebook, with the same status as the JSON
    parser = _Sentences()
    parser.feed(page)
    text = (ROOT / "rulesets" / "disney_theme_park" / "rulebook.txt").read_text()
    _, sentences = rulebook_sentences(text)
    assert [t for _, t in parser.found] == [s.text for s in sentences]
    assert [s for s, _ in parser.found] == [e["status"] for e in data["sentences"]]
    assert html_problems(page) == []
    assert data["rules_hash"] and f'<code class="rules-hash">{data["rules_hash"]}</code>' in page


def test_disney_is_covered_variants_included(tmp_path):
    result, data, _ = run_coverage(tmp_path, "--fail-under", "100")
    assert result.returncode == 0, result.stderr
    assert data["percent_tested_or_waived"] == 100
    assert data["totals"]["waived"] <= data["totals"]["sentences"] // 10
    variants = [e for e in data["sentences"] if e["section"] in VARIANTS]
    assert len(variants) == 17 and all(e["status"] == "tested" for e in variants)


def test_fail_under_exits_non_zero(tmp_path):
    demo = str(ROOT / "tests" / "editions" / "coverage_demo")
    result, data, _ = run_coverage(tmp_path, "--fail-under", "100", edition=demo)
    assert data["percent_tested_or_waived"] < 100
    assert result.returncode == 1
    assert "under 100" in result.stderr


def test_runtime_rule_coverage_lists_rules_never_fired(tmp_path):
    result, data, page = run_coverage(tmp_path, "--games", "20", "--players", "4")
    assert result.returncode == 0, result.stderr
    assert data["runtime"]["games"] == 20
    assert isinstance(data["runtime"]["rules_never_fired"], list)
    assert "never fired in 20 simulated games" in result.stdout
    assert "Rules that never fired in 20 simulated games" in page


def test_library_paths_show_relative_to_their_library_folder(tmp_path):
    """An edition whose library lies elsewhere (--lib, or the bundled library for an
    edition outside the checkout): its modules show as FOLDER/NAME.rules on the page and in
    the JSON, never as this machine's absolute path."""
    import shutil

    edition, libs = tmp_path / "work" / "editions" / "tiny", tmp_path / "libs"
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", edition)
    shutil.copytree(ROOT / "tests" / "fixtures" / "lib", libs)
    with (edition / "tiny.rules").open("a") as rules:  # a quote on a rule of the library
        rules.write('\nuse walk {\n  quote "Whoever lands on D may pay a toll of 1 bean."\n}\n')
    result, data, page = run_coverage(tmp_path, "--lib", str(libs), edition=str(edition))
    assert result.returncode == 0, result.stderr
    assert str(libs) not in json.dumps(data) and str(libs) not in page
    assert "libs/tinylib.rules:" in page  # where the library defines the rule quoted
