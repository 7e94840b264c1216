"""The front page's interaction, written into the site's stylesheet and script: a tooltip
for anything with ``data-tip``, legend buttons that hide and show an entry's series, the
forest plot's suite picker and readout, and the filters (metric, suite family, entries)
acting on every element that carries ``data-metric``, ``data-family`` or ``data-entry``."""

from __future__ import annotations

CSS = """main{max-width:1320px}
.lede{margin:.2em 0 .6em}
.filters{display:flex;flex-wrap:wrap;gap:.4em 1.4em;align-items:center;background:#f6f8fa;
border:1px solid var(--line);padding:.4em .8em;font-size:14px;position:sticky;top:0;z-index:3}
.filters details{position:relative}
.filters details[open] .entry-list{position:absolute;background:#fff;border:1px solid var(--line);
padding:.5em;max-height:60vh;overflow:auto;z-index:4;min-width:18em}
.entry-list label{display:block;white-space:nowrap}
.glance h2{margin-top:.6em}
table.board td.best{background:#e3f2e1;font-weight:600}
table.board tfoot th,table.board tfoot td{background:#f1f3f5;font-style:italic}
table.heatmap{table-layout:fixed;width:100%;font-size:12px}
table.heatmap th,table.heatmap td{padding:2px 3px;text-align:center;overflow:hidden}
table.heatmap th.entry{width:13em;text-align:left;overflow-wrap:anywhere}
table.heatmap .metric{width:4.6em}
table.heatmap thead th{position:sticky;top:2.6em;z-index:2}
table.heatmap thead tr+tr th{top:4.4em}
table.heatmap td a{color:#111;text-decoration:none;display:block}
table.heatmap td.few{outline:1px dashed #777;outline-offset:-3px}
table.heatmap small{color:#444}table.heatmap th small{display:block;font-weight:400}
table.heatmap.dense td{font-size:10.5px;padding:2px 1px}
table.heatmap th.alone{width:5.2em;font-size:11px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:1em}
figure.interactive{margin:0;border:1px solid var(--line);padding:.4em}
svg.chart,.forest svg{width:100%;height:auto;display:block}
svg .grid{stroke:#e3e3e3}svg .frame{fill:none;stroke:#999}
svg .tick{font-size:11px;fill:#555}svg .axis{font-size:12px;fill:#222}
svg .bar{stroke-width:1.2;opacity:.6}svg .point{cursor:pointer}
svg .zero{stroke:#333;stroke-dasharray:3 3}svg .ci{stroke:#0b5cad;stroke-width:2}
svg .row-label{font-size:12px;fill:#222}
.forest circle.point{fill:#0b5cad}.forest circle.significant{fill:#b5121b}
.forest circle.open{fill:#fff;stroke:#b5121b;stroke-width:1.6}
.forest output{display:block;min-height:2.6em;background:#f6f8fa;padding:.4em;font-size:14px}
.legend{display:flex;flex-wrap:wrap;gap:.2em .4em;margin:.3em 0}
.legend .key{font:inherit;font-size:12px;border:1px solid var(--line);background:#fff;
border-radius:3px;padding:1px 6px;cursor:pointer}
.legend .key[aria-pressed=false]{opacity:.45;text-decoration:line-through}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;border-radius:2px}
#tip{position:fixed;pointer-events:none;background:#1b1b1b;color:#fff;font-size:12px;
padding:4px 7px;border-radius:3px;max-width:28em;z-index:10;display:none}
[hidden],.filtered{display:none !important}
"""

SCRIPT = """(function () {
  "use strict";
  var all = function (sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  };
  var tip = document.createElement("div");
  tip.id = "tip";
  tip.setAttribute("role", "tooltip");
  document.body.appendChild(tip);
  function showTip(target, x, y) {
    tip.textContent = target.getAttribute("data-tip");
    tip.style.display = "block";
    tip.style.left = Math.min(x + 12, window.innerWidth - tip.offsetWidth - 4) + "px";
    tip.style.top = Math.max(y - tip.offsetHeight - 10, 4) + "px";
  }
  document.addEventListener("mouseover", function (event) {
    var target = event.target.closest ? event.target.closest("[data-tip]") : null;
    if (target) { showTip(target, event.clientX, event.clientY); }
  });
  document.addEventListener("mouseout", function (event) {
    var target = event.target.closest ? event.target.closest("[data-tip]") : null;
    if (target) { tip.style.display = "none"; }
  });
  document.addEventListener("focusin", function (event) {
    var target = event.target.closest ? event.target.closest("[data-tip]") : null;
    if (target) {
      var box = target.getBoundingClientRect();
      showTip(target, box.right, box.top);
    }
  });

  all("figure.interactive").forEach(function (figure) {
    all(".legend .key", figure).forEach(function (key) {
      key.addEventListener("click", function () {
        var on = key.getAttribute("aria-pressed") !== "true";
        key.setAttribute("aria-pressed", on ? "true" : "false");
        all("g.series[data-series='" + key.getAttribute("data-series") + "']", figure)
          .forEach(function (g) { g.style.display = on ? "" : "none"; });
      });
    });
  });

  all(".forest").forEach(function (forest) {
    var readout = forest.querySelector("output");
    var select = forest.querySelector("select");
    select.addEventListener("change", function () {
      all(".forest-panel", forest).forEach(function (panel) {
        panel.hidden = panel.getAttribute("data-suite") !== select.value;
      });
    });
    function read(event) {
      var point = event.target.closest ? event.target.closest("[data-info]") : null;
      if (point) { readout.textContent = point.getAttribute("data-info"); }
    }
    forest.addEventListener("click", read);
    forest.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { read(event); }
    });
  });

  var bar = document.querySelector(".filters");
  if (bar) {
    var metric = bar.querySelector("select[name=metric]");
    var family = bar.querySelector("select[name=family]");
    var boxes = all("input[name=entry]", bar);
    var apply = function () {
      var shown = {};
      boxes.forEach(function (box) { shown[box.value] = box.checked; });
      all("[data-entry]").forEach(function (el) {
        var entry = el.getAttribute("data-entry");
        var m = el.getAttribute("data-metric");
        var off = shown[entry] === false || (metric.value !== "all" && m && m !== metric.value);
        el.classList.toggle("filtered", !!off);
      });
      all("[data-family]").forEach(function (el) {
        var f = el.getAttribute("data-family");
        el.classList.toggle("filtered", family.value !== "all" && f !== family.value);
      });
    };
    [metric, family].forEach(function (s) { s.addEventListener("change", apply); });
    boxes.forEach(function (b) { b.addEventListener("change", apply); });
    apply();
  }
})();
"""
