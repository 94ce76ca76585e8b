/** `cpc detect`: its options; the matrix itself runs in run/detection/run.ts. */
import { ConfigError } from '../../lib/errors.js';
import { parseChaos } from '../../lib/chaos/options.js';
import { defaultOutDir } from '../../run/paths.js';
import { parse } from '../args.js';

/** `cpc detect`: its options checked, then the matrix (run/detection/run.ts `runDetection`). */
export async function detectCommand(args: string[]): Promise<number> {
  const v = parse('detect', args, { faults: { type: 'string' }, 'per-fault': { type: 'string' }, out: { type: 'string' }, workers: { type: 'string' }, full: { type: 'boolean' }, variants: { type: 'string' }, chaos: { type: 'string' }, pooled: { type: 'boolean' }, scale: { type: 'string' } }).values;
  const perFault = v['per-fault'] === undefined ? undefined : Number(v['per-fault']);
  if (perFault !== undefined && !(Number.isInteger(perFault) && perFault > 0)) throw new ConfigError(`--per-fault must be a positive integer, got "${v['per-fault']}"`, '--per-fault');
  const workers = v.workers === undefined ? undefined : Number(v.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${v.workers}"`, '--workers');
  if (v.pooled) {
    const scale = v.scale === undefined ? 1 : Number(v.scale);
    if (!(scale > 0)) throw new ConfigError(`--scale must be a number > 0 (the emulator clock's speed), got "${v.scale}"`, '--scale');
    const { runPooledDetection } = await import('../../run/detection/pooled-run.js');
    return runPooledDetection({ outDir: v.out ?? defaultOutDir(), faults: v.faults ? v.faults.split(',').map((f) => f.trim()).filter(Boolean) : [], perFault: perFault ?? 3, scale });
  } else if (v.scale !== undefined) throw new ConfigError('--scale applies to --pooled only', '--scale');
  const { runDetection } = await import('../../run/detection/run.js');
  const { exitCode } = await runDetection({
    outDir: v.out ?? defaultOutDir(),
    faults: v.faults ? v.faults.split(',').map((f) => f.trim()).filter(Boolean) : [],
    ...(perFault ? { perFault } : {}),
    ...(workers ? { workers } : {}),
    ...(v.full ? { full: true } : {}),
    ...(v.variants ? { variants: v.variants.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
    ...(v.chaos !== undefined ? { chaos: parseChaos(v.chaos, '--chaos') } : {}),
  });
  return exitCode;
}
