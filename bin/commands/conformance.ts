/**
 * `cpc conformance`: its options; the run itself is run/conformance.ts, step by step.
 */
import { ConfigError } from '../../lib/errors.js';
import { SUITE_NAMES, isSuiteName } from '../../lib/suites.js';
import { parseChaos } from '../../lib/chaos/options.js';
import { defaultOutDir } from '../../run/paths.js';
import { applyWorkerImageFlag, budgetFlags, budgetOptions, parse, targetFlags, targetOptions, workerImageOption } from '../args.js';

export async function conformanceCommand(rest: string[]): Promise<number> {
  const parsed = parse('conformance', rest, {
    ...targetOptions,
    out: { type: 'string' }, project: { type: 'string', multiple: true }, grep: { type: 'string' },
    workers: { type: 'string' }, faults: { type: 'string' }, 'quiet-summary': { type: 'boolean' },
    baseline: { type: 'string' }, 'update-baseline': { type: 'boolean' }, 'load-dir': { type: 'string' }, 'probe-every': { type: 'string' }, artifacts: { type: 'string' },
    load: { type: 'boolean' }, 'skip-load': { type: 'boolean' }, shard: { type: 'string' }, 'skip-preflight': { type: 'boolean' },
    'target-name': { type: 'string' }, previous: { type: 'string' }, 'fail-on-blocked': { type: 'string' }, 'require-all-must': { type: 'boolean' },
    chaos: { type: 'string' }, ...budgetOptions, ...workerImageOption,
  });
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  applyWorkerImageFlag(v);
  const projects = (v.project as string[] | undefined) ?? [...SUITE_NAMES];
  const unknownProject = projects.find((p) => !isSuiteName(p));
  if (unknownProject !== undefined) throw new ConfigError(`--project is contract or property, got "${unknownProject}"`, '--project');
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${String(v.workers)}"`, '--workers');
  const probeEvery = v['probe-every'] === undefined ? undefined : Number(v['probe-every']);
  if (probeEvery !== undefined && !(Number.isInteger(probeEvery) && probeEvery >= 100)) throw new ConfigError(`--probe-every must be an integer of at least 100 (ms), got "${String(v['probe-every'])}"`, '--probe-every');
  const { runConformance } = await import('../../run/conformance.js');
  const { parseShard } = await import('../../reports/merge.js');
  const outcome = await runConformance({
    flags: targetFlags(v),
    outDir: typeof v.out === 'string' ? v.out : defaultOutDir(),
    projects: projects.filter(isSuiteName),
    ...(typeof v.grep === 'string' ? { grep: v.grep } : {}),
    ...(workers ? { workers } : {}),
    faults: typeof v.faults === 'string' ? v.faults.split(',').map((f) => f.trim()).filter(Boolean) : [],
    // Legal chaos wins over CPC_EMULATOR_CHAOS, one parser for both (lib/chaos/options.ts).
    ...(typeof v.chaos === 'string' ? { chaos: parseChaos(v.chaos, '--chaos') } : {}),
    quiet: v['quiet-summary'] === true,
    ...(typeof v.baseline === 'string' ? { baseline: v.baseline } : {}),
    updateBaseline: v['update-baseline'] === true,
    ...(typeof v['load-dir'] === 'string' ? { loadDir: v['load-dir'] } : {}),
    ...(probeEvery ? { probeEveryMs: probeEvery } : {}),
    ...(typeof v.artifacts === 'string' ? { artifactsDir: v.artifacts } : {}),
    load: loadChoice(v.load === true, v['skip-load'] === true),
    ...(typeof v.shard === 'string' ? { shard: parseShard(v.shard) } : {}),
    skipPreflight: v['skip-preflight'] === true,
    ...(typeof v['target-name'] === 'string' ? { targetName: targetNameFlag(v['target-name']) } : {}),
    ...(typeof v.previous === 'string' ? { previous: v.previous } : {}),
    ...(typeof v['fail-on-blocked'] === 'string' ? { failOnBlocked: (await import('../../run/publish.js')).parseBlockedGate(v['fail-on-blocked']) } : {}),
    ...(v['require-all-must'] === true ? { requireAllMust: true } : {}),
    budgets: await budgetFlags(v),
  });
  return outcome.exitCode;
}

/** `--target-name`: a label of one line (it names a report history). */
function targetNameFlag(name: string): string {
  if (name.trim() === '' || [...name].some((c) => c.charCodeAt(0) < 0x20)) throw new ConfigError(`--target-name must be a non-empty label of one line, got ${JSON.stringify(name)}`, '--target-name');
  return name.trim();
}

function loadChoice(on: boolean, off: boolean): 'auto' | 'on' | 'off' {
  if (on && off) throw new ConfigError('--load and --skip-load exclude each other', '--load');
  return on ? 'on' : off ? 'off' : 'auto';
}
