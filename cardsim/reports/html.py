"""The report as one self-contained HTML file.

Plots are inline SVG (from :func:`cardsim.reports.style.svg_text`), styles and the small
table-sorting script are inline, and the file references no URL at all (its Content-Security-Policy
forbids every request but inline data): it opens offline, on a phone (responsive CSS), and the same
report always gives the same bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from cardsim.reports.content import Block, Bullets, Paragraph, Plot, Report, Table
from cardsim.reports.style import svg_text

CSS = """
:root { --ink: #1a1a1a; --muted: #555; --rule: #d0d0d0; --accent: #0072B2; --band: #f4f6f8; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 16px/1.5 -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; }
header, main, footer { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1.5rem; border-bottom: 3px solid var(--accent); }
h1 { font-size: 1.8rem; margin: 0 0 .2rem; }
h2 { font-size: 1.4rem; margin: 2.2rem 0 .6rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
.subtitle { color: var(--muted); margin: 0 0 1rem; }
.chapter { scroll-margin-top: 1rem; }
nav ol { padding-left: 1.4rem; }
nav a { color: var(--accent); }
.table-wrap { overflow-x: auto; margin: .4rem 0 1rem; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; font-size: .9rem; min-width: 50%; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; caption-side: top; }
th, td { padding: .3rem .45rem; border-bottom: 1px solid var(--rule); text-align: left;
  vertical-align: top; overflow-wrap: anywhere; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th { background: var(--band); cursor: pointer; user-select: none; position: relative; }
th[aria-sort="ascending"]::after { content: " \\25B2"; font-size: .7em; }
th[aria-sort="descending"]::after { content: " \\25BC"; font-size: .7em; }
tbody tr:nth-child(even) { background: #fafafa; }
.note { color: var(--muted); font-size: .85rem; margin: -.6rem 0 1rem; }
figure { margin: 1rem 0 1.4rem; }
figure .svg-wrap { width: 100%; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: .9rem; margin-top: .3rem; }
.box { background: var(--band); border-left: 4px solid var(--accent); padding: .6rem 1rem;
  margin: 1rem 0; }
.box ul { margin: .2rem 0; padding-left: 1.2rem; }
details summary { cursor: pointer; }
details summary h3 { display: inline; }
footer { color: var(--muted); font-size: .85rem; border-top: 1px solid var(--rule);
  margin-top: 2rem; padding-bottom: 2rem; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  h1 { font-size: 1.4rem; }
  th, td { padding: .25rem .4rem; }
}
@media print { th { cursor: auto; } nav { break-after: page; } .chapter { break-before: page; } }
"""

JS = """
(function () {
  function key(cell) {
    var raw = cell.getAttribute('data-key');
    return cell.classList.contains('num') ? parseFloat(raw) : raw;
  }
  function compare(a, b) {
    if (typeof a === 'number' && typeof b === 'number') { return a - b; }
    return String(a).localeCompare(String(b));
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var heads = table.querySelectorAll('thead th');
    heads.forEach(function (th, col) {
      th.setAttribute('tabindex', '0');
      function sort() {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          return dir * compare(key(r1.cells[col]), key(r2.cells[col]));
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') { sort(); } });
    });
  });
})();
"""

FOLD_AFTER = 8  # a headed list longer than this is folded (click to open)

_SVG_DROP = (
    re.compile(r"<metadata>.*?</metadata>\s*", re.S),
    re.compile(r'\s+xmlns(:\w+)?="[^"]*"'),
)


def inline_svg(svg: str, prefix: str) -> str:
    """An SVG made safe to inline many times in one page.

    Drops the XML namespace declarations and the RDF metadata (they name external URLs, and
    HTML does not need them), drops the fixed width/height so CSS can scale the drawing, and
    prefixes every element id with ``prefix`` so two figures never share an id.
    """
    for pattern in _SVG_DROP:
        svg = pattern.sub("", svg)
    svg = re.sub(r'(<svg[^>]*?)\s+width="[^"]*"\s+height="[^"]*"', r"\1", svg, count=1)
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    if ids:
        pattern = re.compile(r'(id="|href="#|url\(#)(' + "|".join(map(re.escape, sorted(ids))) + r')(["\)])')
        svg = pattern.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}{m.group(3)}", svg)
    return svg.strip()


def _table_html(table: Table) -> Markup:
    numeric = [
        all(isinstance(row[i], float) for row in table.sort_keys) and bool(table.sort_keys)
        for i in range(len(table.columns))
    ]
    parts = ['<div class="table-wrap"><table class="sortable">']
    parts.append(f"<caption>{escape(table.title)}</caption><thead><tr>")
    parts.extend(f'<th scope="col">{escape(c)}</th>' for c in table.columns)
    parts.append("</tr></thead><tbody>")
    for row, keys in zip(table.rows, table.sort_keys):
        parts.append("<tr>")
        for i, (text, key) in enumerate(zip(row, keys)):
            cls = ' class="num"' if numeric[i] else ""
            key_text = repr(float(key)) if isinstance(key, float) else str(key)
            parts.append(f'<td{cls} data-key="{escape(key_text)}">{escape(text)}</td>')
        parts.append("</tr>")
    parts.append("</tbody></table></div>")
    if table.note:
        parts.append(f'<p class="note">{escape(table.note)}</p>')
    return Markup("".join(parts))


def render_block(block: Block, scope: str, index: int) -> Markup:
    """One content block as HTML (``scope`` and ``index`` make figure ids unique)."""
    if isinstance(block, Paragraph):
        return Markup(f"<p>{escape(block.text)}</p>\n")
    if isinstance(block, Bullets):
        items = "".join(f"<li>{escape(item)}</li>" for item in block.items)
        if block.heading and len(block.items) > FOLD_AFTER:  # long lists fold away on a phone
            return Markup(
                f"<details><summary><h3>{escape(block.heading)} ({len(block.items)})</h3>"
                f"</summary><ul>{items}</ul></details>\n"
            )
        head = f"<h3>{escape(block.heading)}</h3>" if block.heading else ""
        css = ' class="box"' if block.heading.lower().startswith("reproduc") else ""
        return Markup(f"<div{css}>{head}<ul>{items}</ul></div>\n")
    if isinstance(block, Table):
        return _table_html(block) + Markup("\n")
    if isinstance(block, Plot):
        drawn = block.svg if block.svg is not None else svg_text(block.make())
        svg = inline_svg(drawn, f"{scope}-{index}")
        return Markup(
            f'<figure id="fig-{escape(block.key)}"><div class="svg-wrap" role="img" '
            f'aria-label="{escape(block.caption)}">{svg}</div>'
            f"<figcaption>{escape(block.caption)}</figcaption></figure>\n"
        )
    raise TypeError(f"unknown block type {type(block).__name__}")


def render_html(report: Report) -> str:
    """The whole report as one HTML document string."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("cardsim.reports", "templates"),
        autoescape=True,
        keep_trailing_newline=True,
        trim_blocks=False,
    )
    template = env.get_template("report.html.j2")
    return template.render(report=report, css=Markup(CSS), js=Markup(JS), render_block=render_block)


def write_html(report: Report, path: Path) -> Path:
    """Write the report's HTML to ``path`` (parents created); returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(report), encoding="utf-8")
    return path
