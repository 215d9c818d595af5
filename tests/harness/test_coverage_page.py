"""The coverage page (`boardrules coverage --html`): its content, its HTML, and in a real browser
its summary table, filter buttons and links.

The page is that of tests/editions/coverage_demo, which has every status, a failing
scenario and a sentence with `&` and `<`; its scenarios run on the interpreted
backend only, so no C compiler runs. The browser tests drive the system's headless
Chromium with Selenium, one session for the module, and are skipped only where no
Chromium and chromedriver can be found (`.ci/run` installs them).
"""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from html.parser import HTMLParser
from pathlib import Path

import pytest
from headless import headless_page, needs_browser, scrolls_sideways

from boardrules import __version__
from boardrules.harness.coverage import MEANINGS, STATUSES, Report, coverage
from boardrules.harness.coverage_html import render_html
from boardrules.harness.scenarios import run_edition

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "tests" / "editions" / "coverage_demo" / "coverage_demo.rules"
# the demo rulebook's sections: (sentences, tested, untested, partial, waived, uncovered)
EXPECTED = {"Play": (3, 1, 1, 1, 0, 0), "Tax": (2, 0, 1, 0, 0, 1),
            "Components": (2, 0, 0, 0, 2, 0), "Variants": (1, 0, 0, 0, 0, 1)}
STATUS_OF_SENTENCE = ["tested", "untested", "partial", "untested", "uncovered", "waived",
                      "waived", "uncovered"]


@pytest.fixture(scope="module")
def report() -> Report:
    compilation, outcomes = run_edition(str(DEMO), ("interpreted",))
    report = coverage(compilation, outcomes)
    report.never_fired, report.games = ["tax"], 5  # as `--games 5` would set them
    return report


@pytest.fixture(scope="module")
def page(report) -> str:
    return render_html(report)


class _Table(HTMLParser):
    """The summary table: {row label: [cell texts]}."""

    def __init__(self):
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self._in_table = False
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", "summary") in attrs:
            self._in_table = True
        elif self._in_table and tag == "tr":
            self._row = []
        elif self._row is not None and tag in ("th", "td"):
            self._cell = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows[self._row[0]] = self._row[1:]
            self._row = None
        elif tag == "table":
            self._in_table = False


# ---- the page as written --------------------------------------------------------------------


def test_the_page_is_valid_html_and_self_contained(page, html_problems):
    assert html_problems(page) == []
    assert "<script src" not in page and "http://" not in page and "https://" not in page


def test_the_summary_table_has_a_row_per_section_with_its_counts(page):
    table = _Table()
    table.feed(page)
    header = table.rows["Section"]
    assert header == ["sentences", *STATUSES, "tested or waived"]
    for section, counts in EXPECTED.items():
        row = table.rows[section]
        assert [int(n) for n in row[:6]] == list(counts), section
        assert row[6] == f"{100 * (counts[1] + counts[4]) / counts[0]:.1f}%"
    assert table.rows["Total"][:6] == ["8", "1", "2", "1", "2", "2"]
    assert table.rows["Total"][6] == "37.5%"
    for section in EXPECTED:  # each row links to its section
        anchor = re.search(rf'<a href="#([^"]+)">{section}</a>', page).group(1)
        assert f'<section class="rb-section" id="{anchor}"' in page


def test_the_header_names_the_edition_hash_version_and_time(page, report):
    assert "<h1>Rulebook coverage: Coverage Demo</h1>" in page
    assert '<dd class="edition">coverage_demo</dd>' in page
    assert re.fullmatch(r"[0-9a-f]{16}", report.rules_hash)
    assert f'<code class="rules-hash">{report.rules_hash}</code>' in page
    assert f'<dd class="version">{__version__}</dd>' in page
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d">', page)


def test_the_legend_says_what_each_status_means(page):
    for status in STATUSES:
        assert (f'<dt><span class="badge {status}">{status}</span></dt>'
                f"<dd>{MEANINGS[status]}</dd>") in page


def test_sentences_link_to_their_rules_and_scenarios(page, report):
    statuses = re.findall(r'<li class="sentence (\w+)" id="s\d+" value="\d+" data-status="\1"',
                          page)
    assert statuses == STATUS_OF_SENTENCE
    # the untested sentence: its rule with the quote's file and line, its failing scenario
    assert ('<a class="rule-link" href="#rule-bonus">bonus</a> '
            '<code class="where">coverage_demo/coverage_demo.rules:31</code>') in page
    assert re.search(r'<li class="scenario fail" data-passed="false"><span class="result">FAILED'
                     r'</span> <q>the bonus pays 6 \(fails on purpose: the rule pays 5\)</q>'
                     r'.*coverage_demo\.rules:54</code>\): failed on interpreted</li>', page)
    assert "1 scenario: 1 passed" in page and "1 scenario: 0 passed, 1 failed" in page
    # the rule's block: where it is defined and its source, escaped
    block = page[page.index('<article class="unit" id="rule-tax"'):]
    block = block[:block.index("</article>")]
    assert 'defined at <code class="where">coverage_demo/coverage_demo.rules:37</code>' in block
    assert "quote &#34;The tax is paid in coins.&#34;" in block
    assert '<span class="flag never-fired">never fired</span>' in block
    # rulebook text is escaped, never markup
    assert "Keep the tokens dry &amp; &lt;clean&gt;." in page
    assert "<clean>" not in page


def test_runtime_sections_list_rules_never_fired_and_without_handlers(page, report):
    runtime = page[page.index('<section id="runtime"'):]
    assert "Rules that never fired in 5 simulated games" in runtime
    assert re.search(r'<ul class="never-fired">\s*'
                     r'<li><a class="rule-link" href="#rule-tax">tax</a>', runtime)
    assert '<p class="without-handlers none">none</p>' in runtime
    quiet = Report(report.edition, report.sentences, report.headings, units=report.units,
                   without_handlers=["tokens"])
    quiet_page = render_html(quiet)
    runtime = quiet_page[quiet_page.index('<section id="runtime"'):]
    assert "--games N</code> to list the rules that never fired" in runtime
    assert re.search(r'<ul class="without-handlers">\s*<li><code>tokens</code></li>', runtime)


def test_the_template_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["boardrules"]
    folder = ROOT / "boardrules" / "harness" / "templates"
    for name in ("coverage.html.j2", "coverage.css", "coverage.js"):
        path = f"harness/templates/{name}"
        assert (folder / name).is_file() and any(fnmatch(path, p) for p in patterns), path


# ---- in a real browser ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser(page, tmp_path_factory):
    """One headless Chromium session for the module, on the demo page (a file: URL)."""
    path = tmp_path_factory.mktemp("coverage_page") / "coverage.html"
    path.write_text(page)
    with headless_page(path) as driver:
        yield driver


def _open(driver, width: int = 1400) -> None:
    """The page as first shown: every sentence, scrolled to the top, at that width."""
    if driver.get_window_size()["width"] != width:
        driver.set_window_size(width, 900)
    driver.execute_script(  # cheaper than loading the page again
        "document.querySelector('.filters button[data-filter=all]').click();"
        "history.replaceState(null, '', location.pathname); window.scrollTo(0, 0)")


def _visible_sentences(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('li.sentence')]"
        ".filter(li => li.offsetParent !== null).map(li => li.dataset.status)")


def _by_css(driver, selector: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, selector)


def _click(driver, selector: str):
    """Click as a reader does: with the element in mid-screen, not under the sticky filters."""
    element = _by_css(driver, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    return element


# The checks below share one browser session: they run as one test, since pytest-xdist's
# groups (--dist loadgroup) do not hold with pytest 9, and a test per check could open
# a browser on each worker.


def _summary_table_has_the_counts(browser) -> None:
    _open(browser)
    assert _by_css(browser, "table.summary").is_displayed()
    rows = browser.execute_script(
        "return [...document.querySelectorAll('table.summary tbody tr')].map(tr => "
        "[tr.querySelector('th').innerText, ...[...tr.querySelectorAll('td[data-count]')]"
        ".map(td => Number(td.innerText))])")
    assert {row[0]: tuple(row[1:]) for row in rows} == EXPECTED


def _filters_show_only_the_chosen_status(browser) -> None:
    _open(browser)
    assert _visible_sentences(browser) == STATUS_OF_SENTENCE
    for status in ("uncovered", "untested", "partial", "waived", "tested"):
        _click(browser, f'.filters button[data-filter="{status}"]')
        pressed, shown = browser.execute_script(
            "return [document.querySelector('.filters [aria-pressed=true]').dataset.filter, "
            "[...document.querySelectorAll('.rb-section')].filter(s => s.offsetParent !== null)"
            ".map(s => s.querySelector('h3').firstChild.textContent.trim())]")
        assert pressed == status
        assert _visible_sentences(browser) == [s for s in STATUS_OF_SENTENCE if s == status]
        # a section with none of them is hidden as a whole
        assert shown == [name for name, counts in EXPECTED.items()
                         if counts[1 + STATUSES.index(status)]], status
    _click(browser, '.filters button[data-filter="all"]')
    assert _visible_sentences(browser) == STATUS_OF_SENTENCE


def _section_and_rule_links_navigate(browser) -> None:
    _open(browser)
    _click(browser, 'table.summary a[href="#section-components"]')
    assert browser.execute_script("return document.querySelector(':target').id") == \
        "section-components"
    top = browser.execute_script(
        "return document.getElementById('section-components').getBoundingClientRect().top")
    assert 0 <= top < 200  # scrolled to it
    _click(browser, '#s2 a.rule-link[href="#rule-bonus"]')
    assert browser.execute_script("return document.querySelector(':target').id") == "rule-bonus"
    _click(browser, "#rule-bonus details.source summary")
    assert "pay(bank, p, 5)" in _by_css(browser, "#rule-bonus details.source").text


def _a_link_to_a_hidden_section_shows_everything(browser) -> None:
    _open(browser)
    _click(browser, '.filters button[data-filter="waived"]')
    assert not _by_css(browser, "#section-play").is_displayed()
    _click(browser, 'table.summary a[href="#section-play"]')
    assert _by_css(browser, "#section-play").is_displayed()
    assert _visible_sentences(browser) == STATUS_OF_SENTENCE


def _fits(browser, width: int) -> None:
    _open(browser, width)
    assert not scrolls_sideways(browser, "table.summary"), f"at {width} px"


@needs_browser
def test_the_page_in_a_headless_browser(browser):
    """The summary table, the filters and the links work; the page fits 400 and 1400 px."""
    _summary_table_has_the_counts(browser)
    _filters_show_only_the_chosen_status(browser)
    _section_and_rule_links_navigate(browser)
    _a_link_to_a_hidden_section_shows_everything(browser)
    _fits(browser, 400)
    _fits(browser, 1400)
