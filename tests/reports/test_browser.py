"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``; a test tool only,
never a package dependency) opens the page with a probe script injected, the probe clicks every
table header, looks at every chapter heading and records script errors and any request the page
makes, and writes what it saw into the DOM, which ``--dump-dom`` hands back.

Where Chromium is missing the tests are skipped, except under CI (``CI`` set), where a missing
browser is a failure: ``.ci/run`` installs it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardsim.reports.content import Paragraph, Report, Section, Table
from cardsim.reports.html import render_html
from cardsim.reports.sections import game_title, section_games

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# Installed before the page's own script runs: every error, rejected promise, console.error and
# blocked request lands in window.probe.
WATCH = """<script>
window.probe = {errors: [], blocked: []};
window.addEventListener('error', function (e) {
  var where = e.target && e.target !== window ? ' (' + e.target.tagName + ' ' + (e.target.src || (e.target.href && (e.target.href.baseVal || e.target.href)) || '') + ')' : '';
  window.probe.errors.push(String(e.message || e.type) + where);
}, true);
window.addEventListener('unhandledrejection', function (e) { window.probe.errors.push('unhandled rejection: ' + e.reason); });
document.addEventListener('securitypolicyviolation', function (e) {
  window.probe.blocked.push(e.blockedURI + ' (' + e.violatedDirective + ')');
});
var consoleError = console.error;
console.error = function () { window.probe.errors.push(Array.prototype.join.call(arguments, ' ')); consoleError.apply(console, arguments); };
</script></head>"""

# After the page has loaded: look at the headings, click the headers, list the requests made.
PROBE = """<script>
function probeRun() {
  var out = {headings: [], tables: [], resources: []};
  document.querySelectorAll('section.chapter > h2').forEach(function (h) {
    h.scrollIntoView();
    var r = h.getBoundingClientRect(), s = getComputedStyle(h);
    var hit = document.elementFromPoint(r.left + Math.min(4, r.width / 2), r.top + r.height / 2);
    out.headings.push({text: h.textContent, width: r.width, height: r.height, display: s.display,
                       visibility: s.visibility, opacity: s.opacity, onTop: !!hit && h.contains(hit)});
  });
  document.querySelectorAll('table.sortable').forEach(function (t) {
    var body = t.tBodies[0];
    function keys(col) { return Array.prototype.map.call(body.rows, function (r) { return r.cells[col].getAttribute('data-key'); }); }
    var columns = [];
    t.querySelectorAll('thead th').forEach(function (th, col) {
      var before = keys(col);
      th.click(); var up = keys(col), upSort = th.getAttribute('aria-sort');
      th.click(); var down = keys(col), downSort = th.getAttribute('aria-sort');
      columns.push({numeric: body.rows.length > 0 && body.rows[0].cells[col].classList.contains('num'),
                    before: before, up: up, down: down, upSort: upSort, downSort: downSort});
    });
    out.tables.push({caption: t.caption ? t.caption.textContent : '', columns: columns});
  });
  // data: URIs (the plots' embedded bitmaps) never leave the page; anything else would
  out.resources = performance.getEntriesByType('resource').map(function (e) { return e.name; })
    .filter(function (name) { return name.indexOf('data:') !== 0; });
  out.keyResults = [];  // the first page's key results, as a reader sees them
  document.querySelectorAll('#front h3').forEach(function (h) {
    var list = h.textContent.indexOf('Key results') === 0 ? h.parentElement.querySelector('ul') : null;
    if (!list) return;
    list.querySelectorAll('li').forEach(function (li) {
      var r = li.getBoundingClientRect();
      out.keyResults.push({text: li.innerText, width: r.width, height: r.height});
    });
  });
  out.overflow = [];  // tables wider than their box: a column hidden behind a sideways scroll
  document.querySelectorAll('.table-wrap').forEach(function (w) {
    if (w.scrollWidth > w.clientWidth + 1) {
      var c = w.querySelector('caption');
      out.overflow.push({caption: c ? c.textContent : '', scroll: w.scrollWidth, width: w.clientWidth});
    }
  });
  out.errors = window.probe.errors;
  out.blocked = window.probe.blocked;
  var pre = document.createElement('pre');
  pre.id = 'probe-result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}
window.addEventListener('load', function () { setTimeout(probeRun, 0); });
</script></body>"""


@pytest.fixture(scope="module")
def chromium() -> str:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs headless Chromium for the browser tests (.ci/run installs Debian's chromium)")
        pytest.skip("headless Chromium not installed (apt-get install chromium)")
    return CHROMIUM


def probe_page(chromium: str, page: str, workdir: Path) -> dict:
    """Open ``page`` (an HTML string) headless with the probe injected; what the probe saw."""
    assert page.count("</head>") == 1 and page.count("</body>") == 1
    path = workdir / "page.html"
    path.write_text(page.replace("</head>", WATCH).replace("</body>", PROBE), encoding="utf-8")
    result = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
            f"--user-data-dir={workdir / 'profile'}",
            "--dump-dom",
            path.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    found = re.search(r'<pre id="probe-result">(.*?)</pre>', result.stdout, re.S)
    assert found is not None, f"probe did not report (exit {result.returncode}): {result.stderr[-800:]}"
    return json.loads(html.unescape(found.group(1)))


def assert_sorted(column: dict) -> None:
    """Clicking a header sorts its column: ascending, then descending on the second click
    (numbers as numbers; text only checked for the same cells and the direction shown)."""
    assert (column["upSort"], column["downSort"]) == ("ascending", "descending")
    assert sorted(column["up"]) == sorted(column["before"]) == sorted(column["down"])
    if column["numeric"]:
        up = [float(k) for k in column["up"]]
        down = [float(k) for k in column["down"]]
        assert up == sorted(up) and down == sorted(down, reverse=True)


def test_clicking_headers_sorts_numbers_as_numbers(chromium, tmp_path):
    table = Table(
        "t", ("name", "n"), (("b", "1,000"), ("a", "20"), ("c", "300")), (("b", 1000.0), ("a", 20.0), ("c", 300.0))
    )
    seen = probe_page(chromium, render_html(Report("T", "S", (), (Section("s", "S", (table,)),))), tmp_path)
    name, n = seen["tables"][0]["columns"]
    # by n ascending (20, 300, 1,000 - not text order), then descending; by name
    assert n["up"] == ["20.0", "300.0", "1000.0"] and n["down"] == ["1000.0", "300.0", "20.0"]
    assert name["up"] == ["a", "b", "c"] and name["down"] == ["c", "b", "a"]
    assert seen["errors"] == [] and seen["resources"] == [] and seen["blocked"] == []


def test_probe_catches_a_table_wider_than_the_page(chromium, tmp_path):
    """The overflow check can fail: a table of long numbers (which never wrap) scrolls sideways."""
    wide = "9" * 400
    table = Table("wide", ("a", "b"), ((wide, wide),), ((1.0, 2.0),))
    seen = probe_page(chromium, render_html(Report("T", "S", (), (Section("s", "S", (table,)),))), tmp_path)
    assert seen["overflow"], seen


def test_probe_catches_errors_and_requests(chromium, tmp_path):
    """The probe can fail: a script error and an outside image are both reported."""
    page = render_html(Report("T", "S", (), (Section("s", "S", (Paragraph("x"),)),)))
    leaky = page.replace(
        "</main>", '<img src="https://example.invalid/pixel.png" alt=""><script>undefinedFunction();</script></main>'
    )
    seen = probe_page(chromium, leaky, tmp_path)
    assert any("undefinedFunction" in e for e in seen["errors"]), seen
    assert any("example.invalid" in b for b in seen["blocked"] + seen["resources"]), seen


def test_report_in_a_browser(chromium, tiny_report, tmp_path):
    """The four games' report: every chapter heading shows, every table sorts by clicking,
    no script error, and no request leaves the page."""
    page = tiny_report.written.html.read_text(encoding="utf-8")
    seen = probe_page(chromium, page, tmp_path)
    assert [h["text"] for h in seen["headings"]] == [game_title(g) for g in tiny_report.written.games]
    assert len(seen["headings"]) == len(section_games())
    for heading in seen["headings"]:
        assert heading["width"] > 0 and heading["height"] > 0, heading
        assert heading["display"] != "none" and heading["visibility"] == "visible" and heading["opacity"] == "1"
        assert heading["onTop"], f"chapter heading {heading['text']!r} is covered"
    assert len(seen["tables"]) >= 4 * len(section_games())
    reordered = 0
    for table in seen["tables"]:
        for column in table["columns"]:
            assert_sorted(column)
            reordered += column["up"] != column["before"]
    assert reordered > 0  # some click really moved rows
    assert seen["overflow"] == [], "a table scrolls sideways, hiding its last columns"
    assert seen["errors"] == []
    assert seen["resources"] == [] and seen["blocked"] == []


# What each cooperative game's key result must name: who it holds for (the player count and the
# models or strategies of the "pick your group" table) and what to play.
ADVICE = {
    "The Gang": ("For a group of 4 that plays like ", ("'history' model", "'percentile'")),
    "The Game": ("For a team of 3 that plays like ", ("'signals' strategy", "'planner'", "'search'")),
}


def test_key_results_read_as_advice_with_scope(chromium, tiny_report, tmp_path):
    """On the first page, The Gang's and The Game's key results are one or two sentences a group
    can act on: what to play, for whom (player count and model), the win rate with its 95%
    interval and n; no command, seed or bound (those are in the chapter)."""
    seen = probe_page(chromium, tiny_report.written.html.read_text(encoding="utf-8"), tmp_path)
    shown = {item["text"].split(":", 1)[0]: item for item in seen["keyResults"]}
    for title, (who, models) in ADVICE.items():
        item = shown[title]
        assert item["width"] > 0 and item["height"] > 0, item
        text = item["text"].split(":", 1)[1].strip()
        assert text.startswith(who), text
        assert re.search(r"closest to |every (mode|set-up|variant) stays below|, even ", text), text
        assert all(model in text for model in models), text
        assert re.search(r"\d+% \(95% interval [\d.]+\u2013[\d.]+%, n=[\d,]+ games\)", text), text
        assert not re.search(r"cardsim |--|seed|\[|<=", text), text
        assert len(re.findall(r"\.(?:\s|$)", text)) <= 2, text


# The competitive games' key results: what to do, for which player counts and readings or bots.
COMPETITIVE_ADVICE = {
    "Cash'n Guns": (r"^Against the shipped mixes only \(win probability", r"at \d players"),
    "Bang!": (
        r"^For even games, handicap the favoured side",
        r"bots in every seat it is, by player count, 4 players: ",
    ),
}


def test_competitive_key_results_read_as_advice_with_scope(chromium, tiny_report, tmp_path):
    """On the first page, Cash'n Guns' and Bang!'s key results say what to do and for whom (the
    player counts, and the reading or the bots they hold for), in at most two sentences, with no
    command, seed or bound."""
    seen = probe_page(chromium, tiny_report.written.html.read_text(encoding="utf-8"), tmp_path)
    shown = {item["text"].split(":", 1)[0]: item for item in seen["keyResults"]}
    for title, (opening, scope) in COMPETITIVE_ADVICE.items():
        item = shown[title]
        assert item["width"] > 0 and item["height"] > 0, item
        text = item["text"].split(":", 1)[1].strip()
        assert re.search(opening, text) and re.search(scope, text), text
        assert not re.search(r"cardsim |--|seed|\[|<=", text), text
        assert len(re.findall(r"\.(?:\s|$)", text)) <= 2, text


def test_key_result_check_can_fail():
    """The advice check rejects a key result that is a command line and a list of bounds."""
    text = "With 5 players cardsim cashnguns check --seed 1 gains +1.04 (95% <= 1.88)."
    assert re.search(r"cardsim |--|seed|\[|<=", text)
    assert not text.startswith(ADVICE["The Gang"][0])
