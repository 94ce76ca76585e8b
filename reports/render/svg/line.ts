import type { Series } from '../../load-model.js';
import { html, type Html } from '../html/escape.js';
import { axes, type Frame } from './frame.js';

/** Up to this many samples, each gets a marker (with its value on hover). */
const MARKED_POINTS = 120;

/**
 * A step line of `[milliseconds, value]` points (the `RateLimit` remaining count over time):
 * the count holds between responses, so steps tell the truth where a slope would not.
 */
export function lineChart(title: string, points: Series, yLabel: string): Html {
  const pts = points.filter(([t, v]) => Number.isFinite(t) && Number.isFinite(v)).sort((a, b) => a[0] - b[0]);
  if (pts.length === 0) return html``;
  const f: Frame = { width: 560, height: 220, left: 52, right: 12, top: 28, bottom: 34 };
  const { width, height, left, right, top, bottom } = f;
  const t0 = pts[0]![0];
  const t1 = Math.max(pts[pts.length - 1]![0], t0 + 1);
  const vMax = Math.max(...pts.map(([, v]) => v), 1);
  const vMin = Math.min(0, ...pts.map(([, v]) => v));
  const x = (t: number) => left + ((t - t0) / (t1 - t0)) * (width - left - right);
  // A few pixels inside the axes, so a run of zeros shows as a line of its own, not as the axis.
  const inset = 5;
  const y = (v: number) => top + inset + (1 - (v - vMin) / (vMax - vMin || 1)) * (height - top - bottom - 2 * inset);
  let d = `M${x(pts[0]![0]).toFixed(1)},${y(pts[0]![1]).toFixed(1)}`;
  for (let i = 1; i < pts.length; i++) d += ` H${x(pts[i]![0]).toFixed(1)} V${y(pts[i]![1]).toFixed(1)}`;
  const seconds = (t: number) => `${((t - t0) / 1000).toFixed(1)} s`;
  return html`<svg class="chart line" role="img" aria-label="${title}" viewBox="0 0 ${String(width)} ${String(height)}" width="${String(width)}" height="${String(height)}" xmlns="http://www.w3.org/2000/svg">
<title>${title}</title>
${axes(f, title, String(vMax), String(vMin))}
<text x="${String(left)}" y="${String(height - bottom + 16)}">${seconds(t0)}</text>
<text x="${String(width - right)}" y="${String(height - bottom + 16)}" text-anchor="end">${seconds(t1)}</text>
<text x="${String((left + width) / 2)}" y="${String(height - 4)}" text-anchor="middle">time since start · ${yLabel}</text>
<path d="${d}" fill="none" stroke="#1a7f37" stroke-width="2"/>
${pts.length <= MARKED_POINTS ? pts.map(([t, v]) => html`<circle cx="${x(t).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="#1a7f37"><title>${seconds(t)}: ${String(v)}</title></circle>`) : ''}
</svg>`;
}
