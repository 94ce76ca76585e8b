/**
 * Reading the scenarios' environment (`k6 run -e NAME=value` or the process environment).
 * The names are the suite's own (CPC_BASE_URL, CPC_SERVERLESS_URL, CPC_API_KEY,
 * CPC_ENDPOINT_ID) plus scale knobs (CPC_LOAD_*), each with a small default so that a bare
 * `k6 run load/<script>.ts` is a smoke run. Pure ECMAScript.
 */
import { LoadConfigError } from '../../lib/iso/errors.ts';

export type Env = Record<string, string | undefined>;

/** An integer knob within [min, max]; the default when unset or empty. */
export function intKnob(env: Env, name: string, fallback: number, min = 1, max = 1000000): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new LoadConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** A positive number knob (scales may be fractional). */
export function numberKnob(env: Env, name: string, fallback: number, min = 0, max = 1e9): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= min || n > max) throw new LoadConfigError(`${name} must be a number above ${min} and at most ${max}, got "${raw}"`);
  return n;
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** The REST v2 base and the serverless base (which defaults to the REST v2 base). */
export function targetUrls(env: Env): { baseUrl: string; serverlessUrl: string } {
  const base = env.CPC_BASE_URL?.trim();
  if (!base) throw new LoadConfigError('CPC_BASE_URL is required: the REST v2 base of the target (npm run load sets it to the embedded emulator)');
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(base)) throw new LoadConfigError(`CPC_BASE_URL is not an http(s) URL without query: "${base}"`);
  const serverless = env.CPC_SERVERLESS_URL?.trim() || base;
  return { baseUrl: trimSlash(base), serverlessUrl: trimSlash(serverless) };
}

/** API keys for a target without the control surface: CPC_LOAD_API_KEYS (comma list, one per account) or CPC_API_KEY. */
export function envKeys(env: Env): string[] {
  const list = (env.CPC_LOAD_API_KEYS ?? env.CPC_API_KEY ?? '').split(',').map((k) => k.trim()).filter((k) => k.length > 0);
  if (list.length === 0) throw new LoadConfigError('CPC_API_KEY is required: the target has no emulator control surface to mint keys');
  return list;
}

/** The run's seed (CPC_SEED), for the worlds the scenarios create. */
export const seedOf = (env: Env): number => intKnob(env, 'CPC_SEED', 1, 0, 2 ** 31);

/** How a script treats durations it measures: `judge` (a real load run) or `observe` (a test). */
export type TimingMode = 'judge' | 'observe';

/**
 * CPC_LOAD_TIMING: `judge` (the default: a real load run, where the latency thresholds and the
 * lateness checks hold) or `observe` (the suite's own tests and the smoke beside the suites,
 * whose verdicts never depend on how fast the machine running them is: the durations are still
 * measured and reported, never a threshold or a check). The same script decides on k6 and on the
 * Node path, so both judge exactly the same thresholds.
 */
export function timingMode(env: Env): TimingMode {
  const raw = env.CPC_LOAD_TIMING?.trim() || 'judge';
  if (raw !== 'judge' && raw !== 'observe') throw new LoadConfigError(`CPC_LOAD_TIMING must be judge or observe, got "${raw}"`);
  return raw;
}

/** The latency thresholds when timing is judged; none when it is only observed. */
export const latencyThresholds = (env: Env, thresholds: Record<string, string[]>): Record<string, string[]> =>
  (timingMode(env) === 'judge' ? thresholds : {});
