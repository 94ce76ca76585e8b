import { EXIT } from './exit-codes.js';
import { K6RunError } from '../../lib/errors.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, us: 0.001, 'µs': 0.001, ns: 0.000001 };

/**
 * A k6 duration (`'30s'`, `'1m30s'`, `'500ms'`, or a number of milliseconds) in milliseconds.
 * Anything else is an invalid option, as in k6.
 */
export function parseDuration(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string') {
    const s = value.trim();
    if (/^[0-9]+(\.[0-9]+)?$/.test(s)) return Number(s) * 1000; // k6 reads a bare string number as seconds
    const parts = [...s.matchAll(/([0-9]+(?:\.[0-9]+)?)(ms|us|µs|ns|s|m|h|d)/g)];
    if (parts.length > 0 && parts.map((p) => p[0]).join('') === s) return parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_MS[p[2]!]!, 0);
  }
  throw new K6RunError(EXIT.invalidConfig, `invalid duration for ${what}: ${JSON.stringify(value)}`);
}
