"""The results site's stylesheet, script and cube net: written once per site, no CDN.

The script sorts tables and replays answers on the net. It carries the harness's own move
tables (each of the 18 face turns as a permutation of the 54 stickers, read off the engine
when the site is written), so a replay on the page is the harness's cube, not a second
implementation of it.
"""

from __future__ import annotations

import html
import json

import numpy as np

from ..cube import MOVE_NAMES, apply_move
from ..cube.geometry import FACES

# the harness's colours for the faces U R F D L B (white up, green front)
FACE_COLOURS = {
    "U": "#ffffff",
    "R": "#b71234",
    "F": "#009b48",
    "D": "#ffd500",
    "L": "#ff5800",
    "B": "#0046ad",
}

# where each face sits on the unfolded net, in stickers: U above F; L F R B in a row; D below
_NET_ORIGIN = {"U": (3, 0), "L": (0, 3), "F": (3, 3), "R": (6, 3), "B": (9, 3), "D": (3, 6)}
_CELL = 22  # px per sticker

CSS = """:root{--fg:#1b1b1b;--muted:#555;--line:#c9c9c9;--head:#f1f3f5;--accent:#0b5cad}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);margin:0;
line-height:1.45}
header{background:#0d2a4a;padding:.5em 1em}
header a{color:#fff;margin-right:1.2em;text-decoration:none;font-weight:600}
header a:focus,header a:hover{text-decoration:underline}
main{max-width:1200px;margin:0 auto;padding:1em}
h1{font-size:1.6em;margin:.4em 0}h2{font-size:1.25em;margin-top:1.6em}
p.note{color:var(--muted);max-width:70em}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:13px;margin:.4em 0}
td,th{border:1px solid var(--line);padding:3px 7px;text-align:left;vertical-align:top}
th{background:var(--head)}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;
color:inherit;text-align:left}
th button::after{content:" \\2195";color:#999}
th[aria-sort=ascending] button::after{content:" \\25B2";color:var(--fg)}
th[aria-sort=descending] button::after{content:" \\25BC";color:var(--fg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible{outline:3px solid #f5a623}
tr.peer td{background:#fbf7ea}.badge{font-size:11px;background:#e2d7b0;border-radius:3px;
padding:0 4px;margin-left:4px}
tr.disagree td:first-child{border-left:4px solid #d9822b}
.status-solved{color:#1d6b2f}.status-wrong,.status-error,.status-illegal{color:#a3121e}
figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid var(--line)}
figcaption{color:var(--muted);font-size:14px}
code,.moves{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px;
overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 1em}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
.replay{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
.replay svg{max-width:100%;height:auto}
.stepper button{font-size:16px;min-width:2.6em;min-height:2.4em;margin:2px}
#position{font-weight:600;min-height:1.5em}
fieldset{border:1px solid var(--line);max-width:40em}
@media (max-width:600px){main{padding:.5em}table{font-size:12px}}
"""

_SCRIPT = """(function () {
  "use strict";
  var PERMS = %PERMS%;
  function value(cell) {
    var text = cell.textContent.trim();
    var number = parseFloat(text.replace(/[%,]/g, ""));
    return text === "" ? null : (isNaN(number) ? text.toLowerCase() : number);
  }
  function sortBy(table, heads, th, col) {
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a.cells[col]), y = value(b.cells[col]);
      if (x === null || y === null) { return (x === null) - (y === null); }
      if (typeof x !== typeof y) { return typeof x === "number" ? -1 : 1; }
      return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    heads.forEach(function (th, col) {
      var button = th.querySelector("button");
      if (!button) { return; }
      button.addEventListener("click", function () { sortBy(table, heads, th, col); });
    });
  });

  document.documentElement.setAttribute("data-site", "ready");

  var source = document.getElementById("cube-data");
  if (!source) { return; }
  var cube = JSON.parse(source.textContent);
  var net = document.getElementById("net");
  var stickers = Array.prototype.slice.call(net.querySelectorAll("rect[data-i]"));
  var position = document.getElementById("position");
  var picked = document.querySelector("input[name=answer]:checked");
  var answer = picked ? parseInt(picked.value, 10) : 0, step = 0;
  function stateAt(a, k) {
    var s = cube.facelets.split("");
    for (var j = 0; j < k; j++) {
      var p = PERMS[cube.answers[a].ids[j]], t = s;
      s = p.map(function (i) { return t[i]; });
    }
    return s;
  }
  function isSolved(s) {
    for (var f = 0; f < 6; f++) {
      for (var i = 0; i < 9; i++) { if (s[9 * f + i] !== s[9 * f + 4]) { return false; } }
    }
    return true;
  }
  function show() {
    var s = stateAt(answer, step), a = cube.answers[answer], solved = isSolved(s);
    stickers.forEach(function (r, i) {
      r.setAttribute("fill", cube.colours[s[i]]);
      r.setAttribute("data-f", s[i]);
    });
    net.setAttribute("data-solved", solved ? "true" : "false");
    net.setAttribute("data-step", String(step));
    position.textContent = a.entry + ": move " + step + " of " + a.ids.length +
      (step > 0 ? " (" + a.tokens[step - 1] + ")" : "") + (solved ? ", solved" : ", not solved");
  }
  function go(k) {
    var n = cube.answers.length ? cube.answers[answer].ids.length : 0;
    step = Math.max(0, Math.min(n, k));
    show();
  }
  if (!cube.answers.length) { return; }
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("back").addEventListener("click", function () { go(step - 1); });
  document.getElementById("next").addEventListener("click", function () { go(step + 1); });
  document.getElementById("last").addEventListener("click", function () { go(1e9); });
  Array.prototype.forEach.call(document.querySelectorAll("input[name=answer]"), function (radio) {
    radio.addEventListener("change", function () { answer = parseInt(radio.value, 10); go(0); });
  });
  document.getElementById("stepper").addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { go(step + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { go(step - 1); event.preventDefault(); }
  });
  show();
})();
"""


def move_permutations() -> list[list[int]]:
    """Each of the 18 moves as a sticker permutation ``p``: after the move, sticker ``i``
    shows what sticker ``p[i]`` showed (read off the engine on numbered stickers)."""
    numbered = np.arange(54, dtype=np.uint8)[:, None]  # (54, 1)
    return [apply_move(numbered, move)[:, 0].astype(int).tolist() for move in range(18)]


def script() -> str:
    """The site's script, with the engine's move tables filled in."""
    assert len(MOVE_NAMES) == 18
    return _SCRIPT.replace("%PERMS%", json.dumps(move_permutations(), separators=(",", ":")))


def net_svg(facelets: str, label: str) -> str:
    """The unfolded cube (U above F; L F R B; D below), one rect per sticker in facelet
    order, coloured by the harness's face colours."""
    rects = []
    for index, letter in enumerate(facelets):
        face, cell = FACES[index // 9], index % 9
        x0, y0 = _NET_ORIGIN[face]
        x, y = (x0 + cell % 3) * _CELL + 2, (y0 + cell // 3) * _CELL + 2
        rects.append(
            f"<rect data-i='{index}' data-f='{letter}' x='{x}' y='{y}' width='{_CELL - 2}' "
            f"height='{_CELL - 2}' rx='2' fill='{FACE_COLOURS[letter]}' stroke='#222'/>"
        )
    width, height = 12 * _CELL + 4, 9 * _CELL + 4
    return (
        f"<svg id='net' role='img' aria-label='{html.escape(label, quote=True)}' "
        f"viewBox='0 0 {width} {height}' width='{width * 1.5:.0f}' height='{height * 1.5:.0f}' "
        f"xmlns='http://www.w3.org/2000/svg'>{''.join(rects)}</svg>"
    )
