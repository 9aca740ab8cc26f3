"""`rulelens map --html FILE`: one self-contained page (inline CSS and script, no network).

The data is `map_data`'s JSON in a `<script type="application/json">`; the script draws a
folder's children only when it is opened, so a project of thousands of folders opens at once.
Written by hand rather than with a template engine: one page of fixed markup.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}
header{padding:16px 24px;border-bottom:1px solid #d0d7de;background:#f6f8fa}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:20px 0 6px}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:24px;padding:0 24px 24px}
.muted{color:#656d76}.legend span{display:inline-block;margin:2px 8px 2px 0}
.chip{display:inline-block;border-radius:10px;padding:0 7px;margin:0 3px 0 0;font-size:12px;color:#fff;
white-space:nowrap}
.tree{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:4px 8px;padding:1px 0;cursor:default}
section{min-width:0}
.row:hover{background:#f6f8fa}.tog{width:14px;display:inline-block;color:#656d76;cursor:pointer}
.name{flex:none;white-space:nowrap}.n{color:#656d76;font-size:12px}
.gap{color:#cf222e;font-size:12px;font-weight:600}.over{color:#9a6700;font-size:12px;font-weight:600}
.kids{margin-left:18px}ul{padding-left:18px;margin:4px 0}li{margin:2px 0}
a{color:#0969da;cursor:pointer;text-decoration:none}a:hover{text-decoration:underline}
.flash{animation:f 1.5s}@keyframes f{from{background:#fff8c5}to{background:transparent}}
"""

_JS = """
(() => {
'use strict';
const D = JSON.parse(document.getElementById('map-data').textContent);
const COLORS = ['#0969da','#8250df','#1a7f37','#bf3989','#9a6700','#cf222e','#0550ae','#6e7781','#953800'];
const color = {}; const name = {};
D.agents.forEach((a, i) => { color[a.id] = COLORS[i % COLORS.length]; name[a.id] = a.name; });
const kids = {}; const byPath = {};
for (const f of D.folders) {
  byPath[f.path] = f;
  if (f.path === '') continue;
  const i = f.path.lastIndexOf('/'); const parent = i < 0 ? '' : f.path.slice(0, i);
  (kids[parent] = kids[parent] || []).push(f.path);
}
const gaps = new Set(D.gaps);
// An agent over its cap for every file is marked once, on the root, not on every folder.
const overAll = new Set(D.overBudget.filter((o) => o.files === D.files).map((o) => o.agent));
function plural(n, word) { return n.toLocaleString() + ' ' + word + (n === 1 ? '' : 's'); }
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text; return e; }
function chip(agent, text) {
  const c = el('span', 'chip', text); c.style.background = color[agent] || '#6e7781'; return c;
}
function row(path) {
  const f = byPath[path]; const box = el('div'); box.dataset.path = path;
  const r = el('div', 'row'); const open = (kids[path] || []).length > 0;
  const tog = el('span', 'tog', open ? '\\u25b8' : ''); r.appendChild(tog);
  const label = path === '' ? '.' : path.slice(path.lastIndexOf('/') + 1) + '/';
  r.appendChild(el('span', 'name', label));
  r.appendChild(el('span', 'n', plural(f.files, 'file')));
  const reached = Object.entries(f.reached).sort((a, b) => b[1] - a[1]);
  for (const [agent, n] of reached) {
    const c = chip(agent, name[agent] + ' ' + n.toLocaleString());
    c.title = name[agent] + ': ' + plural(f.ruleFiles[agent] || 0, 'rule file') + ' reach ' + n + ' of '
      + plural(f.files, 'file');
    r.appendChild(c);
  }
  if (gaps.has(path)) r.appendChild(el('span', 'gap', 'no scoped rule reaches its code'));
  for (const [agent, n] of Object.entries(f.overBudget))
    if (path === '' || !overAll.has(agent))
      r.appendChild(el('span', 'over', name[agent] + ' over budget for ' + n.toLocaleString()));
  box.appendChild(r);
  if (open) {
    const k = el('div', 'kids'); k.hidden = true; box.appendChild(k);
    const flip = () => { if (!k.dataset.drawn) { for (const c of kids[path]) k.appendChild(row(c));
      k.dataset.drawn = '1'; } k.hidden = !k.hidden; tog.textContent = k.hidden ? '\\u25b8' : '\\u25be'; };
    tog.onclick = flip; r.ondblclick = flip; box.flip = flip;
  }
  return box;
}
function reveal(path) {
  const chain = []; let p = path;
  while (p) { chain.unshift(p); const i = p.lastIndexOf('/'); p = i < 0 ? '' : p.slice(0, i); }
  let box = document.querySelector('[data-path=""]');
  for (const step of chain) {
    const k = box.querySelector(':scope > .kids'); if (k && k.hidden) box.flip();
    box = [...k.children].find((c) => c.dataset.path === step); if (!box) return;
  }
  box.scrollIntoView({block: 'center'}); box.firstChild.classList.add('flash');
}
const tree = document.getElementById('tree'); const first = row(''); tree.appendChild(first);
if (first.flip) first.flip();
const legend = document.getElementById('legend');
for (const a of D.agents) { const s = el('span'); s.appendChild(chip(a.id, a.name));
  s.appendChild(document.createTextNode(plural(a.ruleFiles, 'rule file')
    + (a.scoped ? ', scoped ones reach ' + plural(a.reached, 'file') : '')
    + (a.confirmed ? '' : ' (documented behaviour not confirmed)') + (a.cap ? '; cap: ' + a.cap : '')));
  legend.appendChild(s); legend.appendChild(el('br')); }
function list(id, items, draw) { const ul = document.getElementById(id);
  if (!items.length) { ul.appendChild(el('li', 'muted', 'None.')); return; }
  for (const it of items) { const li = el('li'); draw(li, it); ul.appendChild(li); } }
list('everywhere', D.everywhere, (li, e) => { li.appendChild(chip(e.agent, name[e.agent]));
  li.appendChild(document.createTextNode(e.file + ' (' + e.bytes.toLocaleString() + ' B'
    + (e.imported_by ? ', imported by ' + e.imported_by : '') + ')')); });
list('gaps', D.gaps, (li, g) => { const a = el('a', '', (g || '.') + '/'); a.onclick = () => reveal(g);
  li.appendChild(a); li.appendChild(document.createTextNode(' ' + plural(byPath[g].code, 'code file'))); });
list('disagree', D.disagreements, (li, d) => {
  li.appendChild(el('b', '', d.file)); li.appendChild(document.createTextNode(': ' + d.message)); });
const overruns = D.overBudget.map((o) => ({...o, kind: 'path'}))
  .concat(D.filesOverCap.map((o) => ({...o, kind: 'file'})));
list('budget', overruns,
  (li, o) => { if (o.kind === 'path') { li.appendChild(chip(o.agent, name[o.agent]));
    const a = el('a', '', (o.folder || '.') + '/'); a.onclick = () => reveal(o.folder); li.appendChild(a);
    li.appendChild(document.createTextNode(': ' + plural(o.files, 'file') + ', e.g. ' + o.example + '. '
      + o.note)); }
  else { li.appendChild(el('b', '', o.file)); li.appendChild(document.createTextNode(': ' + o.message)); } });
document.body.dataset.ready = '1';
})();
"""


def _static(data: dict[str, Any]) -> str:
    """The page's answer without JavaScript: each folder, its files and the agents whose scoped
    rules reach them, as a plain list (the script's tree replaces nothing; it is shown instead)."""
    names = {a["id"]: a["name"] for a in data["agents"]}
    rows = []
    for f in data["folders"]:
        reached = f.get("reached") or {}
        who = ", ".join(f"{names.get(a, a)} {n}" for a, n in sorted(reached.items())) if isinstance(
            reached, dict) else ""
        rows.append(f"<li>{html.escape(f['path'] or '.')}/ · {f['files']:,} files"
                    f"{' · ' + html.escape(who) if who else ''}</li>")
    everywhere = "".join(f"<li>{html.escape(names.get(e['agent'], e['agent']))}: "
                         f"{html.escape(e['file'])}</li>" for e in data["everywhere"])
    return (f"<noscript><p>This page draws its tree with JavaScript; without it, here is each folder "
            f"and the agents whose scoped rules reach its files.</p><ul>{''.join(rows)}</ul>"
            f"<h2>Loaded for every file</h2><ul>{everywhere}</ul></noscript>")


def map_html(data: dict[str, Any]) -> str:
    # The page is made to be shared: it names the project by its folder's name, never by the
    # absolute path it has on this machine.
    data = {**data, "root": Path(str(data["root"])).name or str(data["root"])}
    # `</` is escaped so that no text in the data can close the script element.
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    root = html.escape(str(data["root"]))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>rulelens map: {root}</title><style>{_CSS}</style></head>
<body><header><h1>Project rules map</h1>
<div class="muted">{root} · {data["files"]:,} files · {len(data["folders"]):,} folders.
Each folder shows which agents' scoped rules reach its files, and how many. Click ▸ to open a folder.</div>
<div id="legend" class="legend"></div></header>
{_static(data)}
<main><section><h2>Folders</h2><div id="tree" class="tree"></div></section>
<section><h2>Loaded for every file</h2><ul id="everywhere"></ul>
<h2>Folders with code that no scoped rule reaches</h2><ul id="gaps"></ul>
<h2>Where agents disagree</h2><ul id="disagree"></ul>
<h2>Over budget</h2><ul id="budget"></ul></section></main>
<script type="application/json" id="map-data">{payload}</script>
<script>{_JS}</script></body></html>
"""
