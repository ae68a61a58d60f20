"""The HTML's sorting script in a real browser (skipped where no headless Chromium is installed;
the browser is a test tool only, never a package dependency)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from cardsim.reports.content import Report, Section, Table
from cardsim.reports.html import render_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

PROBE = """<script>
function firstColumn() {
  return Array.from(document.querySelectorAll('tbody tr td:first-child')).map(td => td.textContent).join('');
}
var heads = document.querySelectorAll('table.sortable thead th');
heads[1].click(); var up = firstColumn();
heads[1].click(); var down = firstColumn();
heads[0].click(); var names = firstColumn();
document.title = 'RESULT ' + up + ' ' + down + ' ' + names;
</script></body>"""


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium not installed")
def test_clicking_headers_sorts_numbers_as_numbers(tmp_path):
    table = Table("t", ("name", "n"), (("b", "1,000"), ("a", "20"), ("c", "300")),
                  (("b", 1000.0), ("a", 20.0), ("c", 300.0)))
    page = render_html(Report("T", "S", (), (Section("s", "S", (table,)),))).replace("</body>", PROBE)
    path = tmp_path / "sort.html"
    path.write_text(page)
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", path.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    title = re.search(r"<title>([^<]*)</title>", result.stdout)
    assert title is not None, result.stderr[-500:]
    # by n ascending (20, 300, 1,000 - not text order), then descending, then by name
    assert title.group(1) == "RESULT acb bca abc"
