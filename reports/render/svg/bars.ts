import { html, type Html } from '../html/escape.js';

/** A figure for a chart label: integers (counts) as they are, other numbers to three significant digits or so. */
export const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

/**
 * Horizontal bars, one per statistic (latency percentiles: p50, p90, p95, p99, max), scaled
 * to the largest. Inline SVG with presentation attributes only, so the page needs no styles
 * or scripts from anywhere for it.
 */
export function barChart(title: string, stats: readonly [string, number][], unit = 'ms'): Html {
  const rows = stats.filter(([, v]) => Number.isFinite(v));
  if (rows.length === 0) return html``;
  const width = 440;
  const label = 48;
  const valueWidth = 90;
  const barMax = width - label - valueWidth - 16;
  const rowH = 22;
  const height = 30 + rows.length * rowH;
  const max = Math.max(...rows.map(([, v]) => v), 1e-9);
  return html`<svg class="chart bars" role="img" aria-label="${title}" viewBox="0 0 ${String(width)} ${String(height)}" width="${String(width)}" height="${String(height)}" xmlns="http://www.w3.org/2000/svg">
<title>${title}</title>
<text x="8" y="18" font-weight="600">${title}</text>
${rows.map(([name, v], i) => {
    const y = 28 + i * rowH;
    const w = Math.max(1, Math.round((v / max) * barMax));
    return html`<g><title>${name}: ${fmt(v)} ${unit}</title><text x="8" y="${String(y + 14)}">${name}</text><rect x="${String(label)}" y="${String(y + 3)}" width="${String(w)}" height="14" rx="2" fill="#4493f8"/><text x="${String(label + w + 6)}" y="${String(y + 14)}">${fmt(v)} ${unit}</text></g>`;
  })}
</svg>`;
}
