import { createHash } from 'node:crypto';
import type { DiffSide, ReportDiff, RuleDiff } from '../diff.js';
import { Html, html } from './html/escape.js';
import { STYLES } from './html/styles.js';

const CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLES, 'utf8').digest('base64')}'; base-uri 'none'; form-action 'none'`;

const side = (name: string, s: DiffSide): Html =>
  html`<dt>${name}</dt><dd><strong>${s.label}</strong>: ${s.target} · ${s.startedAt}${s.seed !== undefined ? ` · seed ${s.seed}` : ''} · ${s.conformant ? 'conformant' : 'not conformant'}${s.complete ? '' : html` · <strong>incomplete run</strong>`}</dd>`;

const cell = (x: RuleDiff['a']): Html =>
  x ? html`<span class="v v-${x.verdict}">${x.verdict}</span>${x.observed.map((v) => html`<pre>${v}</pre>`)}` : html`<span class="muted">absent</span>`;

/** The differential report as one self-contained page (no script; nothing fetched). */
export function diffHtml(diff: ReportDiff): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance diff: ${diff.identical ? 'identical' : `${diff.rules.length} rule(s) differ`}</title>
<style>${new Html(STYLES)}</style></head>
<body>
<h1>Conformance diff</h1>
<p><span class="result ${diff.identical ? 'ok' : 'bad'}">${diff.identical ? 'IDENTICAL' : `${diff.rules.length} RULE(S) DIFFER`}</span> <span class="muted">${String(diff.compared)} rule(s) compared</span></p>
<dl class="facts">${side('A', diff.a)}${side('B', diff.b)}</dl>
${!diff.a.complete || !diff.b.complete ? html`<div class="banner">At least one run is incomplete: rules its tests never reached show as skipped.</div>` : ''}
${diff.identical ? html`<p>Every rule has the same verdict and the same observed values in both reports.</p>` : html`<table><thead><tr><th>Rule</th><th>Level</th><th>Differs in</th><th>A: ${diff.a.label}</th><th>B: ${diff.b.label}</th><th>Statement</th></tr></thead><tbody>
${diff.rules.map((r) => html`<tr><td><code>${r.id}</code></td><td>${r.level}</td><td>${[r.verdictChanged ? 'verdict' : '', r.observedChanged ? 'observed' : ''].filter(Boolean).join(' + ')}</td><td>${cell(r.a)}</td><td>${cell(r.b)}</td><td>${r.statement}</td></tr>`)}
</tbody></table>`}
</body></html>
`.text;
}
