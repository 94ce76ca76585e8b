import { ConfigError } from '../errors.js';

/**
 * The emulator's legal chaos (emulator/chaos/, emulator/README.md "Chaos"): every choice the
 * spec leaves free, drawn from a seed per world and per request. One value switches it on
 * everywhere: `--chaos` of `cpc conformance`, `cpc detect` and `npm run emulator`, the variable
 * `CPC_EMULATOR_CHAOS`, and the world option `chaos` of `POST /__emulator/worlds`.
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

/** Reads `<seed>[,real-time][,latency=<ms>]`; a bad value is a configuration error naming `setting`. */
export function parseChaos(text: string, setting: string): ChaosOptions {
  const bad = (why: string): never => { throw new ConfigError(`${setting} is <seed>[,real-time][,latency=<ms>][,capacity=<share>][,capacity-only]: ${why}, got "${text}"`, setting); };
  const [seedText, ...rest] = text.split(',').map((s) => s.trim());
  if (!seedText || !/^\d+$/.test(seedText) || Number(seedText) > MAX_CHAOS_SEED) bad(`the seed is an integer from 0 to ${MAX_CHAOS_SEED}`);
  const options: ChaosOptions = { seed: Number(seedText) };
  for (const part of rest) {
    if (part === 'real-time') {
      options.realTime = true;
      continue;
    }
    if (part === 'capacity-only') {
      options.capacityOnly = true;
      continue;
    }
    const capacity = /^capacity=(0(\.\d+)?)$/.exec(part);
    if (capacity) {
      const share = Number(capacity[1]);
      if (share > 0.9) bad('capacity is a share from 0 to 0.9 (one GPU type always places a body)');
      options.capacityShare = share;
      continue;
    }
    const latency = /^latency=(\d+)$/.exec(part);
    if (!latency) bad(`unknown part "${part}"`);
    const ms = Number(latency![1]);
    if (ms > MAX_CHAOS_LATENCY_MS) bad(`latency is at most ${MAX_CHAOS_LATENCY_MS} ms`);
    options.latencyMs = ms;
  }
  return options;
}

/** The written form of {@link parseChaos}, for replay lines and child processes. */
export function formatChaos(options: ChaosOptions): string {
  return [String(options.seed), ...(options.realTime ? ['real-time'] : []), ...(options.latencyMs ? [`latency=${options.latencyMs}`] : []),
    ...(options.capacityShare !== undefined ? [`capacity=${options.capacityShare}`] : []), ...(options.capacityOnly ? ['capacity-only'] : [])].join(',');
}
