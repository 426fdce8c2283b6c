#include "batch/html.hpp"

namespace impetus::batch {

namespace {

const char* kStyle = R"JS(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f0f0f0; cursor: pointer; user-select: none; }
th.sorted-asc::after { content: " ▲"; } th.sorted-desc::after { content: " ▼"; }
td.text, th.text { text-align: left; } td.text { white-space: nowrap; }
tr.regressed td { background: #fde2e2; } tr.improved td { background: #e2f5e2; }
td.bad { color: #b00; font-weight: bold; }
.plot { display: inline-block; margin: 0.5em 1em 1em 0; }
.plot svg { background: #fff; border: 1px solid #ddd; }
.legend span { margin-right: 1em; }
)JS";

// Sortable tables and the line plot, shared by both pages.
const char* kScript = R"JS(
function sortTable(th) {
  const table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex;
  const asc = !th.classList.contains('sorted-asc');
  table.querySelectorAll('th').forEach(h => h.classList.remove('sorted-asc', 'sorted-desc'));
  th.classList.add(asc ? 'sorted-asc' : 'sorted-desc');
  const key = td => { const v = td.dataset.v !== undefined ? td.dataset.v : td.textContent;
                      const x = parseFloat(v); return isNaN(x) ? v : x; };
  const rows = Array.from(body.rows);
  rows.sort((a, b) => { const x = key(a.cells[col]), y = key(b.cells[col]);
    const r = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
    return asc ? r : -r; });
  rows.forEach(r => body.appendChild(r));
}
document.querySelectorAll('th').forEach(th => th.addEventListener('click', () => sortTable(th)));
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2'];
function plot(el, series, yLabel, title) {
  const W = 460, H = 260, L = 62, R = 10, T = 24, B = 36;
  let t0 = Infinity, t1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const s of series) for (let i = 0; i < s.t.length; ++i) {
    if (!isFinite(s.y[i])) continue;
    t0 = Math.min(t0, s.t[i]); t1 = Math.max(t1, s.t[i]); y0 = Math.min(y0, s.y[i]); y1 = Math.max(y1, s.y[i]); }
  if (!isFinite(t0)) { t0 = 0; t1 = 1; y0 = 0; y1 = 1; }
  if (t1 === t0) t1 = t0 + 1;
  if (y1 - y0 < 1e-12 * Math.max(1, Math.abs(y0))) { y0 -= 0.5; y1 += 0.5; }
  const X = t => L + (t - t0) / (t1 - t0) * (W - L - R), Y = y => T + (y1 - y) / (y1 - y0) * (H - T - B);
  let svg = `<svg width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg" font-size="11">`;
  svg += `<text x="${W / 2}" y="14" text-anchor="middle" font-weight="bold">${title || ''}</text>`;
  for (let k = 0; k <= 4; ++k) {
    const y = y0 + (y1 - y0) * k / 4, t = t0 + (t1 - t0) * k / 4;
    svg += `<line x1="${L}" x2="${W - R}" y1="${Y(y)}" y2="${Y(y)}" stroke="#eee"/>`;
    svg += `<text x="${L - 4}" y="${Y(y) + 4}" text-anchor="end">${y.toPrecision(4)}</text>`;
    svg += `<text x="${X(t)}" y="${H - B + 14}" text-anchor="middle">${t.toPrecision(3)}</text>`; }
  svg += `<text x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">t (s)</text>`;
  svg += `<text x="12" y="${(T + H - B) / 2}" transform="rotate(-90 12 ${(T + H - B) / 2})" text-anchor="middle">${yLabel}</text>`;
  series.forEach((s, k) => {
    let d = '', pen = 'M';
    for (let i = 0; i < s.t.length; ++i) {
      if (!isFinite(s.y[i])) { pen = 'M'; continue; }
      d += `${pen}${X(s.t[i]).toFixed(1)},${Y(s.y[i]).toFixed(1)}`; pen = 'L'; }
    const dash = s.dash ? ` stroke-dasharray="${s.dash === true ? '5,3' : s.dash}"` : '';
    svg += `<path d="${d}" fill="none" stroke="${s.color || COLORS[k % COLORS.length]}" stroke-width="1.5"${dash}/>`; });
  svg += '</svg>';
  const legend = series.map((s, k) => `<span style="color:${s.color || COLORS[k % COLORS.length]}">━ ${s.name}</span>`).join('');
  el.innerHTML = svg + `<div class="legend">${legend}</div>`;
}
)JS";

}  // namespace

std::string html_page(const std::string& title, const std::string& body, const std::string& data_json,
                      const std::string& script) {
  // "</" inside inlined JSON would end the script element.
  std::string data;
  for (std::size_t i = 0; i < data_json.size(); ++i) {
    if (data_json[i] == '<' && i + 1 < data_json.size() && data_json[i + 1] == '/') data += "<\\";
    else data += data_json[i];
  }
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html_escape(title) + "</title><style>" +
         kStyle + "</style></head><body>\n" + body + "\n<script>\nconst DATA = " + data + ";\n" + kScript + script +
         "\n</script></body></html>\n";
}

}  // namespace impetus::batch
