/**
 * The load smoke beside the suites. `cpc conformance` against the embedded emulator starts the
 * load scenarios as Playwright starts, in child processes with an emulator each, so the run
 * lasts about as long as the longest of them and the suites instead of their sum. Durations are
 * observed there, never judged (CPC_LOAD_TIMING=observe): the run's verdicts say what the
 * emulator does, not how busy the machine running it was. The `wait` range scenario, which waits
 * most of its time, has a process and an emulator of its own; the others (payload limits, then
 * RateLimit headers) run one after the other in a second process, which lasts about as long as
 * the `wait` range alone and saves a Node start, its module loading and an emulator. The
 * children's output is held and printed after the suites' output, in scenario order, where the
 * scenarios' lines stood when they ran after the suites.
 *
 * Run as a script (by `startLoadBeside` only): `load-beside.ts <out-dir> <scenario>[,<scenario>...] quiet|verbose`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../lib/errors.js';
import { loopbackOnlyEnv, scenarioNames, tsxLoader } from './paths.js';
import { runAsScript } from './entry.js';

export interface LoadBeside {
  /** Resolves once the scenarios ended: their exit code (0 when all passed) and their output, held until then. */
  finished: Promise<{ code: number; output: string }>;
  /** Stops the scenarios at once (an interrupted run reads no load summaries). */
  stop(): void;
}

/** The scenario that waits most of its time, in a process of its own (the others' sum lasts about as long). */
const TIMED_ALONE = 'wait-range';

/** The processes of a beside run: the waiting scenario alone, the others together (in their order). */
export function besideGroups(scenarios: readonly string[]): string[][] {
  const together = scenarios.filter((s) => s !== TIMED_ALONE);
  return [together, scenarios.includes(TIMED_ALONE) ? [TIMED_ALONE] : []].filter((g) => g.length > 0);
}

/** Every load scenario, in the processes of {@link besideGroups}, each against an emulator of its own, writing its summary to `outDir`. */
export function startLoadBeside(outDir: string, quietScripts: boolean, scenarios: readonly string[] = scenarioNames()): LoadBeside {
  const runs = besideGroups(scenarios).map((group) => startGroup(group.join(','), outDir, quietScripts));
  return {
    finished: Promise.all(runs.map((r) => r.finished)).then((ended) => ({
      // 0 when every scenario passed; else the first other code (as `npm run load` exits).
      code: ended.find((e) => e.code !== 0)?.code ?? 0,
      output: ended.map((e) => e.output).join(''),
    })),
    stop: () => runs.forEach((r) => r.stop()),
  };
}

function startGroup(scenarios: string, outDir: string, quietScripts: boolean): LoadBeside {
  const child = spawn(process.execPath, [`--import=${tsxLoader()}`, fileURLToPath(import.meta.url), outDir, scenarios, quietScripts ? 'quiet' : 'verbose'], {
    // Its own process group: a terminal's Ctrl-C reaches `cpc`, which stops it (as it stops Playwright).
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The scenarios' own emulator, on loopback: no TLS anywhere in the process.
    env: loopbackOnlyEnv(process.env),
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const stop = () => {
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
  };
  process.on('exit', stop);
  const finished = new Promise<{ code: number; output: string }>((done) => {
    child.on('error', (e) => {
      process.off('exit', stop);
      done({ code: 1, output: `load: ${scenarios} could not start: ${e.message}\n` });
    });
    child.on('close', (code, signal) => {
      process.off('exit', stop);
      const text = Buffer.concat(output).toString('utf8');
      done({ code: code ?? 1, output: code === null ? `${text}load: ${scenarios} ended by ${signal ?? 'an unknown cause'}\n` : text });
    });
  });
  return { finished, stop };
}

/** The child's side: the scenarios against an emulator of its own (no target named), as `npm run load` does. */
async function main([outDir, scenarios, mode]: string[]): Promise<number> {
  if (!outDir || !scenarios || (mode !== 'quiet' && mode !== 'verbose')) throw new ConfigError('usage: load-beside.ts <out-dir> <scenario>[,<scenario>...] quiet|verbose');
  // The suites' target is not the scenarios': an embedded target without URLs starts their own emulator.
  // Imported here: `cpc conformance` loads this module only to start the children.
  const { runLoadScenarios } = await import('./load.js');
  const result = await runLoadScenarios({ target: { kind: 'embedded' }, env: { ...process.env, CPC_LOAD_TIMING: 'observe' }, outDir, scenarios: scenarios.split(','), quietScripts: mode === 'quiet' });
  return result.exitCode;
}

runAsScript('load', import.meta.url, main);
