import type { Evidence } from '../../../../lib/evidence.js';
import type { TestOutcome } from '../../../model.js';
import { html, join, type Html } from '../escape.js';

const headerLines = (headers: Record<string, string>): string => Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n');

/** One exchange: the request, the response (or the error) and the curl line that replays it. */
export function exchange(e: Evidence, index: number, last: boolean, broke?: string): Html {
  const req = e.request;
  const res = e.response;
  const open = last || broke !== undefined;
  return html`<div class="exchange">
<div><strong>#${String(index + 1)}${broke !== undefined ? ` (broke ${broke})` : last ? ' (last)' : ''}</strong> ${e.operation ? html`<code>${e.operation}</code> ` : ''}<code>${req.method} ${req.url}</code>${res ? html` → <strong>${String(res.status)}</strong> <span class="muted small">(${String(res.durationMs)} ms, ${String(res.bodyBytes)} bytes)</span>` : ''}</div>
<details class="evidence"><summary>request</summary><pre>${req.method} ${req.url}
${headerLines(req.headers)}${req.body !== undefined ? `\n\n${req.body}` : ''}</pre></details>
${res ? html`<details class="evidence"${open ? html` open` : ''}><summary>response</summary><pre>HTTP ${String(res.status)}
${headerLines(res.headers)}${res.body ? `\n\n${res.body}` : ''}</pre></details>` : ''}
${e.error ? html`<pre class="failure-msg">${e.error}</pre>` : ''}
<div class="small">curl (keys as environment variables):</div><pre class="curl">${e.curl}</pre>
</div>`;
}

/**
 * A failing test: its message, then its exchanges with the target: first the ones `rule`'s
 * findings were read from, then the others, the last (the one the test ended on) first.
 */
export function testEvidence(t: TestOutcome, message: string, rule?: string): Html {
  const ev = (t.evidence ?? []).map((e, i) => ({ e, i }));
  const broke = ev.filter(({ e }) => rule !== undefined && e.brokeRules?.includes(rule));
  const rest = ev.filter((x) => !broke.includes(x)).reverse();
  return html`<div class="test-evidence">
<div><strong>${t.title}</strong> <span class="muted small">${t.file}</span></div>
<pre class="failure-msg">${message}</pre>
${ev.length ? join([...broke.map(({ e, i }) => exchange(e, i, i === ev.length - 1, rule)), ...rest.map(({ e, i }) => exchange(e, i, i === ev.length - 1))]) : html`<p class="muted small">No exchange was recorded for this test.</p>`}
</div>`;
}
