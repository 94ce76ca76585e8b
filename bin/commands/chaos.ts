/**
 * The chaos matrix: the whole contract and property suite against the emulator's legal chaos
 * (emulator/README.md "Chaos"), once per seed, each seed a `cpc conformance --chaos` run of its
 * own (its seed is the run's seed too, so one number replays both). Every seed must end with no
 * failed MUST rule: a target that makes every free choice at once, and takes its time, is still
 * a legal one. Writes `reports/out/chaos.json` (per seed: MUST verdicts, the failed and blocked
 * rules with their tests, wall time) and prints one line per seed.
 *
 *   npm run chaos -- [--seeds N] [--from S|fresh] [--real-time] [--latency-ms M] [--workers N]
 *                    [--property-runs N] [--job-model-runs N] [--out DIR]
 *
 * `--from fresh` draws the first seed for this run and prints it (`npm test`: one fresh seed a
 * run, so consecutive runs try new worlds; the nightly workflow runs twenty).
 *
 * `--real-time`: each world's clock runs in real time (queueing, cold starts and provisioning
 * then take real seconds); `--latency-ms`: the mean latency of every request (nightly: 20 seeds,
 * real time, 120 ms). The load scenarios are not part of it: they run on an emulator of their own.
 * A project self-test like the variant matrix, so an npm script rather than a `cpc` command:
 * chaos applies to the emulator only, never to a deployment.
 * Exit code: 0 every seed clean, 1 otherwise, 2 configuration error, 130 interrupted.
 */
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_CHAOS_LATENCY_MS } from '../../lib/chaos/options.js';
import { ConfigError } from '../../lib/errors.js';
import { MAX_SEED } from '../../lib/run-config.js';
import { PROJECT_ROOT } from '../../run/paths.js';
import { runAsScript } from '../../run/entry.js';
import { DEFAULT_SEEDS, runChaosMatrix } from '../../run/detection/chaos-run.js';

/** `--from` for a first seed drawn at random each run. */
const FRESH = 'fresh';

function positive(value: string | undefined, flag: string, min = 1, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(/^\d+$/.test(value) && n >= min && n <= max)) throw new ConfigError(`${flag} must be an integer from ${min} to ${max}, got "${value}"`, flag);
  return n;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, strict: true,
      options: {
        seeds: { type: 'string' }, from: { type: 'string' }, 'real-time': { type: 'boolean' }, 'latency-ms': { type: 'string' }, workers: { type: 'string' },
        'property-runs': { type: 'string' }, 'job-model-runs': { type: 'string' }, out: { type: 'string' },
      },
    });
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const v = parsed.values;
  if (process.env.CPC_BASE_URL?.trim()) throw new ConfigError('the chaos matrix runs against the embedded emulator: unset CPC_BASE_URL', 'CPC_BASE_URL');
  const seeds = positive(v.seeds, '--seeds', 1, 1000) ?? DEFAULT_SEEDS;
  // `--from fresh`: a seed drawn for this run (npm test), printed with its replay like every seed.
  const fresh = v.from === FRESH;
  const from = fresh ? randomInt(0, MAX_SEED - seeds + 2) : positive(v.from, '--from', 0, MAX_SEED) ?? 1;
  if (fresh) {
    const replay = argv.map((a) => a === FRESH ? String(from) : a === `--from=${FRESH}` ? `--from=${from}` : a).join(' ');
    process.stdout.write(`chaos: fresh seed(s) from ${from} (replay: npm run chaos -- ${replay})\n`);
  }
  if (from + seeds - 1 > MAX_SEED) throw new ConfigError(`--from ${from} with --seeds ${seeds} passes the largest seed, ${MAX_SEED}`, '--from');
  const workers = positive(v.workers, '--workers');
  const propertyRuns = positive(v['property-runs'], '--property-runs');
  const jobModelRuns = positive(v['job-model-runs'], '--job-model-runs');
  const { exitCode } = await runChaosMatrix({
    outDir: v.out ?? join(PROJECT_ROOT, 'reports', 'out'),
    seeds, from, realTime: v['real-time'] === true, latencyMs: positive(v['latency-ms'], '--latency-ms', 0, MAX_CHAOS_LATENCY_MS) ?? 0,
    ...(workers ? { workers } : {}), ...(propertyRuns ? { propertyRuns } : {}), ...(jobModelRuns ? { jobModelRuns } : {}),
  });
  return exitCode;
}

runAsScript('chaos', import.meta.url, main);
