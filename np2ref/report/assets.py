"""The stylesheet and script every report page carries inline (no network needed to view it)."""

CSS = """
:root { --red: #cf222e; --red-bg: #ffebe9; --red-mark: #ffc1bd; --green: #1a7f37; --green-bg: #e6ffec;
  --amber: #9a6700; --amber-bg: #fff8c5; --blue: #0969da; --blue-bg: #ddf4ff; --violet: #8250df;
  --grey: #656d76; --rule: #d0d7de; --gutter: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
  color: #1f2328; background: #fff; }
header { padding: 14px 24px; background: #24292f; color: #fff; display: flex; align-items: baseline;
  gap: 18px; flex-wrap: wrap; }
header h1 { font-size: 19px; margin: 0; font-weight: 600; }
header a { color: #9ecbff; text-decoration: none; }
header .path { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 16px; }
main { padding: 16px 24px 48px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
.totals { display: flex; gap: 12px; flex-wrap: wrap; margin: 4px 0 14px; }
.card { border: 1px solid var(--rule); border-radius: 8px; padding: 8px 16px; min-width: 104px; }
.card .n { font-size: 24px; font-weight: 600; line-height: 1.2; }
.card .l { color: var(--grey); font-size: 13px; }
.card.exact .n { color: var(--green); } .card.refused .n { color: var(--red); }
.card.host .n { color: var(--violet); }
.verdict { margin: 0 0 12px; }
.toolbar { display: flex; gap: 10px; align-items: center; margin: 10px 0; }
select { font: inherit; padding: 3px 6px; }
table.list { border-collapse: collapse; min-width: 60%; }
table.list th, table.list td { padding: 4px 12px; border-bottom: 1px solid #eaeef2; text-align: left;
  vertical-align: top; }
table.list th { border-bottom: 2px solid var(--rule); font-weight: 600; }
table.list td.num, table.list th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.list tr.total td { font-weight: 600; border-top: 2px solid var(--rule); }
.bar { display: inline-block; width: 90px; height: 9px; background: var(--red-bg); border-radius: 5px;
  overflow: hidden; vertical-align: middle; margin-right: 8px; }
.bar > span { display: block; height: 100%; background: #2da44e; }
.badge { display: inline-block; padding: 0 7px; border-radius: 10px; font-size: 12px; font-weight: 600;
  font-family: ui-monospace, "DejaVu Sans Mono", monospace; border: 1px solid transparent; white-space: nowrap; }
a.badge { text-decoration: none; }
.badge.error { background: var(--red-bg); color: var(--red); border-color: #ffcecb; }
.badge.info { background: var(--blue-bg); color: var(--blue); border-color: #b6e3ff; }
.badge.exact { background: var(--green-bg); color: var(--green); }
.badge.refused { background: var(--red-bg); color: var(--red); }
.badge.blocked { background: var(--amber-bg); color: var(--amber); }
.badge.host { background: #fbefff; color: var(--violet); }
.fns { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 6px 0 4px; padding: 0; list-style: none; }
.fns a { color: inherit; text-decoration: none; font-family: ui-monospace, "DejaVu Sans Mono", monospace;
  font-size: 13px; }
.fns .why { color: var(--grey); font-size: 12px; }
details.code { border: 1px solid var(--rule); border-radius: 6px; margin: 6px 0; padding: 6px 12px; }
details.code summary { cursor: pointer; }
details.code pre { background: var(--gutter); padding: 8px 12px; border-radius: 4px; overflow-x: auto; }
table.sbs { width: 100%; border-collapse: collapse; table-layout: fixed; border: 1px solid var(--rule); }
table.sbs col.ln { width: 3.6em; }
table.sbs th { position: sticky; top: 0; background: #eaeef2; text-align: left; padding: 6px 10px;
  font-weight: 600; font-size: 13px; border-bottom: 1px solid var(--rule); z-index: 1; }
table.sbs th.right, table.sbs td.ln.right { border-left: 2px solid var(--rule); }
table.sbs td { padding: 0 10px; vertical-align: top; font-family: ui-monospace, "DejaVu Sans Mono", Menlo,
  Consolas, monospace; font-size: 13px; line-height: 1.5; }
table.sbs td.src { white-space: pre-wrap; overflow-wrap: anywhere; }
table.sbs td.ln { text-align: right; color: #8c959f; background: var(--gutter); user-select: none;
  padding: 0 8px 0 4px; border-left: 3px solid transparent; }
table.sbs tr.fn-exact td.ln.left { border-left-color: #2da44e; }
table.sbs tr.fn-refused td.ln.left { border-left-color: var(--red); }
table.sbs tr.fn-blocked td.ln.left { border-left-color: #d4a72c; }
table.sbs tr.fn-host td.ln.left { border-left-color: #c297ff; }
table.sbs td.src.changed { background: var(--green-bg); }
table.sbs tr.fn-refused td.src.right, table.sbs tr.fn-blocked td.src.right { color: var(--grey); }
table.sbs td.src.absent { background: repeating-linear-gradient(135deg, #fafbfc, #fafbfc 4px, #f0f2f4 4px,
  #f0f2f4 6px); }
table.sbs tr.bad td.src.left { background: var(--red-bg); }
table.sbs tr.bad td.ln.left { color: var(--red); font-weight: 700; }
table.sbs tr.note td.src.left { background: var(--blue-bg); }
mark.span { background: var(--red-mark); color: inherit; border-bottom: 2px solid var(--red); }
mark.span.info { background: #b6e3ff; border-bottom-color: var(--blue); }
tr.dim td.src.left { background: none !important; }
tr.dim td.ln.left { color: #8c959f !important; font-weight: 400 !important; }
tr.dim mark.span { background: none; border: 0; }
tr.diag td { padding: 2px 12px 8px 3.6em; background: #fff; }
.diagbox { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; font-size: 14px;
  line-height: 1.45; border: 1px solid #ffcecb; border-left: 5px solid var(--red); background: #fff8f7;
  border-radius: 6px; padding: 7px 12px; max-width: 1100px; box-shadow: 0 1px 3px rgba(31, 35, 40, .08); }
.diagbox.info { border-color: #b6e3ff; border-left-color: var(--blue); background: #f3faff; }
.diagbox .where { color: var(--grey); font-size: 12px; margin-left: 6px; }
.diagbox .hint, .diagbox .note { margin-top: 3px; }
.diagbox .hint::before { content: "hint: "; font-weight: 600; }
.diagbox .note::before { content: "note: "; font-weight: 600; }
.diagbox .explain { margin-top: 4px; color: var(--grey); font-size: 13px; }
.diagbox .explain code { background: #eaeef2; padding: 1px 5px; border-radius: 4px; color: #1f2328; }
.legend { font-size: 13px; margin: 4px 0 8px; }
.legend .key { display: inline-block; width: 14px; height: 12px; margin: 0 5px 0 12px; vertical-align: -1px;
  border-radius: 2px; border: 1px solid var(--rule); }
.legend .key:first-child { margin-left: 0; }
.key.fn-exact { background: #2da44e; } .key.fn-refused { background: var(--red); }
.key.fn-blocked { background: #d4a72c; } .key.fn-host { background: #c297ff; }
.key.changed { background: var(--green-bg); } .key.bad { background: var(--red-mark); }
a { color: var(--blue); }
.muted { color: var(--grey); }
[hidden] { display: none !important; }
"""

# The filter by code: rows that carry `data-codes` are hidden unless they hold the chosen code;
# highlighted source lines of other codes are dimmed. The choice is kept in the URL (?code=).
JS = """
(function () {
  var select = document.getElementById('code-filter');
  if (!select) return;
  function apply() {
    var code = select.value;
    document.querySelectorAll('[data-codes]').forEach(function (el) {
      var codes = el.getAttribute('data-codes').split(' ');
      el.hidden = code !== '' && codes.indexOf(code) < 0;
    });
    document.querySelectorAll('[data-hl]').forEach(function (el) {
      el.classList.toggle('dim', code !== '' && el.getAttribute('data-hl').split(' ').indexOf(code) < 0);
    });
    document.querySelectorAll('a[data-keep]').forEach(function (a) {
      var base = a.getAttribute('href').split('?')[0].split('#');
      a.setAttribute('href', base[0] + (code ? '?code=' + code : '') + (base[1] ? '#' + base[1] : ''));
    });
  }
  var wanted = new URLSearchParams(location.search).get('code');
  if (wanted && select.querySelector('option[value="' + wanted + '"]')) select.value = wanted;
  select.addEventListener('change', apply);
  apply();
})();
"""
