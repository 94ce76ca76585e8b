import { html, type Html } from '../html/escape.js';

/** A chart's size and the margins around its plot area (room for the title and the axis labels). */
export interface Frame { width: number; height: number; left: number; right: number; top: number; bottom: number }

/** The chart's title and its two axes, with the y range written at the ends of the y axis. */
export function axes(f: Frame, title: string, yMax: string, yMin: string): Html {
  return html`<text x="8" y="18" font-weight="600">${title}</text>
<line x1="${String(f.left)}" y1="${String(f.top)}" x2="${String(f.left)}" y2="${String(f.height - f.bottom)}" stroke="#8c959f"/>
<line x1="${String(f.left)}" y1="${String(f.height - f.bottom)}" x2="${String(f.width - f.right)}" y2="${String(f.height - f.bottom)}" stroke="#8c959f"/>
<text x="${String(f.left - 6)}" y="${String(f.top + 4)}" text-anchor="end">${yMax}</text>
<text x="${String(f.left - 6)}" y="${String(f.height - f.bottom)}" text-anchor="end">${yMin}</text>`;
}
