import { ConfigError } from '../errors.js';

/**
 * The emulator's legal chaos (emulator/chaos/, emulator/README.md "Chaos"): every choice the
 * spec leaves free, drawn from a seed per world and per request. One value switches it on
 * everywhere: `--chaos` of `cpc conformance`, `cpc detect` and `npm run emulator`, the variable
 * `CPC_EMULATOR_CHAOS`, and the world option `chaos` of `POST /__emulator/worlds`. The members
 * are written down once ({@link CHAOS_MEMBERS}): the written form's parser and printer and the
 * world option's checks are all read from that table, so the three cannot disagree.
 *
 * Written `<seed>[,real-time][,latency=<ms>][,capacity=<share>][,capacity-only]`: `7`,
 * `7,real-time,latency=120`, `3,capacity=0.5,capacity-only` (a deployment that refuses half of
 * the GPU types per placement for capacity, and is otherwise the plain emulator).
 */
export interface ChaosOptions {
  /** Every draw derives from it and from the world's key. */
  seed: number;
  /** Each world's clock runs in real time, instead of the virtual clock the tests move. */
  realTime?: boolean;
  /** Mean latency added to each request, in real milliseconds (each draw from 0 to twice this); default 0. */
  latencyMs?: number;
  /** Share of GPU types refused for capacity per placement (0 to 0.9), instead of the world's draw. */
  capacityShare?: number;
  /** Draw nothing but capacity refusals: no variants, quotas, latency, resets, extra members or time. */
  capacityOnly?: boolean;
}

/** Chaos as one world takes it: the run's options and the key its draws are made under (a test's id). */
export interface ChaosWorldOptions extends ChaosOptions {
  key?: string;
}

/** Seeds are 31-bit non-negative integers, as every seed of a run (lib/run-config.ts). */
const MAX_CHAOS_SEED = 2 ** 31 - 1;
/** A mean latency beyond this is no longer a deployment but an outage. */
export const MAX_CHAOS_LATENCY_MS = 5_000;
/** One GPU type always places a body. */
const MAX_CAPACITY_SHARE = 0.9;

/** One optional member: its written part (`real-time`, `latency=<n>`) and the values it takes. */
type Member =
  | { member: 'realTime' | 'capacityOnly'; part: string; kind: 'flag' }
  | { member: 'latencyMs' | 'capacityShare'; part: string; kind: 'integer' | 'share'; max: number; means: string };

/** The optional members, in their written order: the one description of the chaos options. */
export const CHAOS_MEMBERS: readonly Member[] = [
  { member: 'realTime', part: 'real-time', kind: 'flag' },
  { member: 'latencyMs', part: 'latency', kind: 'integer', max: MAX_CHAOS_LATENCY_MS, means: `latency is an integer from 0 to ${MAX_CHAOS_LATENCY_MS} ms` },
  { member: 'capacityShare', part: 'capacity', kind: 'share', max: MAX_CAPACITY_SHARE, means: `capacity is a share from 0 to ${MAX_CAPACITY_SHARE} (one GPU type always places a body)` },
  { member: 'capacityOnly', part: 'capacity-only', kind: 'flag' },
];

const GRAMMAR = `<seed>${CHAOS_MEMBERS.map((m) => (m.kind === 'flag' ? `[,${m.part}]` : `[,${m.part}=<${m.kind === 'integer' ? 'ms' : 'share'}>]`)).join('')}`;

const seedOk = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_CHAOS_SEED;
const valueOk = (m: Member & { kind: 'integer' | 'share' }, v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= m.max && (m.kind === 'share' || Number.isInteger(v));

/** Reads the written form ({@link GRAMMAR}); a bad value is a configuration error naming `setting`. */
export function parseChaos(text: string, setting: string): ChaosOptions {
  const bad = (why: string): never => { throw new ConfigError(`${setting} is ${GRAMMAR}: ${why}, got "${text}"`, setting); };
  const [seedText, ...rest] = text.split(',').map((s) => s.trim());
  if (!seedText || !/^\d+$/.test(seedText) || !seedOk(Number(seedText))) bad(`the seed is an integer from 0 to ${MAX_CHAOS_SEED}`);
  const options: ChaosOptions = { seed: Number(seedText) };
  for (const part of rest) {
    const [name, value, ...more] = part.split('=');
    const m = CHAOS_MEMBERS.find((x) => x.part === name);
    if (!m || more.length > 0 || (m.kind === 'flag') !== (value === undefined)) bad(`unknown part "${part}"`);
    if (m!.kind === 'flag') options[m!.member] = true;
    else {
      const n = /^\d+(\.\d+)?$/.test(value!) ? Number(value) : Number.NaN;
      if (!valueOk(m!, n)) bad(m!.means);
      options[m!.member] = n;
    }
  }
  // What the control surface would refuse is refused here, in the same words (one table for both).
  const refused = chaosProblems({ ...options });
  if (refused.length) bad(refused.join('; '));
  return options;
}

/** The written form of {@link parseChaos}, for replay lines and child processes. */
export function formatChaos(options: ChaosOptions): string {
  const parts = CHAOS_MEMBERS.flatMap((m) => {
    const v = options[m.member];
    if (m.kind === 'flag') return v === true ? [m.part] : [];
    return v !== undefined ? [`${m.part}=${v}`] : [];
  });
  return [String(options.seed), ...parts].join(',');
}

/** The world option `chaos` (`{seed, key?, ...}`) checked against the same members: each problem as `/chaos/<member>: why`. */
export function chaosProblems(value: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const known = new Set(['seed', 'key', ...CHAOS_MEMBERS.map((m) => m.member)]);
  for (const k of Object.keys(value)) if (!known.has(k)) errors.push(`/chaos/${k}: unknown member`);
  if (!seedOk(value.seed)) errors.push(`/chaos/seed: must be an integer from 0 to ${MAX_CHAOS_SEED}`);
  if (value.key !== undefined && !(typeof value.key === 'string' && value.key.length > 0 && value.key.length <= 200)) errors.push('/chaos/key: must be a string of 1 to 200 characters');
  for (const m of CHAOS_MEMBERS) {
    const v = value[m.member];
    if (v === undefined) continue;
    if (m.kind === 'flag' ? typeof v !== 'boolean' : !valueOk(m, v)) errors.push(`/chaos/${m.member}: ${m.kind === 'flag' ? 'must be a boolean' : `must be ${m.kind === 'integer' ? 'an integer' : 'a number'} from 0 to ${m.max}`}`);
  }
  return errors;
}
