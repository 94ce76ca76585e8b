/**
 * The page's only script (inline, no network): filters of the rule matrix by verdict,
 * surface, level and baseline status, a search box, and expand/collapse of evidence.
 * It reads only the DOM (data attributes the renderer wrote), never evaluates report text.
 */
export const SCRIPT = `
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.rule'));
  var ids = ['f-verdict', 'f-surface', 'f-level', 'f-baseline'];
  var selects = ids.map(function (id) { return document.getElementById(id); });
  var search = document.getElementById('f-search');
  var count = document.getElementById('f-count');
  function apply() {
    var q = search ? search.value.trim().toLowerCase() : '';
    var shown = 0;
    rows.forEach(function (row) {
      var ok = selects.every(function (s) { return !s || !s.value || row.getAttribute('data-' + s.getAttribute('data-key')) === s.value; });
      if (ok && q) ok = (row.getAttribute('data-search') || '').indexOf(q) !== -1;
      row.hidden = !ok;
      if (ok) shown++;
    });
    if (count) count.textContent = shown + ' of ' + rows.length + ' rules';
  }
  selects.forEach(function (s) { if (s) s.addEventListener('change', apply); });
  if (search) search.addEventListener('input', apply);
  var reset = document.getElementById('f-reset');
  if (reset) reset.addEventListener('click', function () {
    selects.forEach(function (s) { if (s) s.value = ''; });
    if (search) search.value = '';
    apply();
  });
  function setOpen(open) {
    rows.forEach(function (row) {
      if (row.hidden) return;
      Array.prototype.forEach.call(row.querySelectorAll('details.evidence'), function (d) { d.open = open; });
    });
  }
  var expand = document.getElementById('f-expand');
  var collapse = document.getElementById('f-collapse');
  if (expand) expand.addEventListener('click', function () { setOpen(true); });
  if (collapse) collapse.addEventListener('click', function () { setOpen(false); });
  // A click on a count in the totals tables filters the matrix to those rules.
  Array.prototype.forEach.call(document.querySelectorAll('[data-filter]'), function (el) {
    el.addEventListener('click', function (e) {
      e.preventDefault();
      selects.forEach(function (s) { if (s) s.value = ''; });
      var spec = JSON.parse(el.getAttribute('data-filter'));
      Object.keys(spec).forEach(function (k) { var s = document.getElementById('f-' + k); if (s) s.value = spec[k]; });
      apply();
      var m = document.getElementById('matrix');
      if (m) m.scrollIntoView();
    });
  });
  apply();
})();
`;
