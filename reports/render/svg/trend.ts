import { html, type Html } from '../html/escape.js';
import { fmt } from './bars.js';
import { axes, type Frame } from './frame.js';

/**
 * One figure run by run (a small multiple): a line through the runs that measured it, a
 * marker per run with its date and value on hover, gaps where a run has no value. The x axis
 * is the runs in order, not time: nightly runs are evenly spaced in a reader's mind.
 */
export function trendChart(title: string, labels: readonly string[], values: readonly (number | null)[], unit: string): Html {
  const f: Frame = { width: 380, height: 150, left: 48, right: 12, top: 26, bottom: 26 };
  const { width, height, left, right, top, bottom } = f;
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return html``;
  const vMax = Math.max(...known, 0);
  const vMin = Math.min(...known, 0);
  const n = values.length;
  const x = (i: number) => left + (n === 1 ? (width - left - right) / 2 : (i / (n - 1)) * (width - left - right));
  const y = (v: number) => top + (1 - (v - vMin) / (vMax - vMin || 1)) * (height - top - bottom);
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v === null) { pen = false; return; }
    d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)} `;
    pen = true;
  });
  const u = unit ? ` ${unit}` : '';
  return html`<svg class="chart trend" role="img" aria-label="${title}" viewBox="0 0 ${String(width)} ${String(height)}" width="${String(width)}" height="${String(height)}" xmlns="http://www.w3.org/2000/svg">
<title>${title}</title>
${axes(f, title.length > 58 ? `${title.slice(0, 57)}…` : title, fmt(vMax), fmt(vMin))}
<text x="${String(left)}" y="${String(height - 8)}">${labels[0] ?? ''}</text>
<text x="${String(width - right)}" y="${String(height - 8)}" text-anchor="end">${labels[n - 1] ?? ''}${u ? ` ·${u}` : ''}</text>
<path d="${d.trim()}" fill="none" stroke="#4493f8" stroke-width="2"/>
${values.map((v, i) => (v === null ? '' : html`<circle class="point" cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="#4493f8"><title>${labels[i] ?? ''}: ${fmt(v)}${u}</title></circle>`))}
</svg>`;
}
