/**
 * `npm run bench`: the suite's own figures, one after another on this machine:
 * 1. the suite's wall time against the embedded emulator (the whole `cpc conformance` main job);
 * 2. createPod throughput beside a bare node:http server (ratio) and p99 at 1,000 req/s (bench/pods.ts);
 * 3. the machine's ceiling curve: a bare server with createPod's I/O plus N µs of work per request (bench/ceiling.ts);
 * 4. `/run` throughput beside a bare node:http server (bench/jobs.ts);
 * 5. the emulator's resident memory after one million `/run` jobs past retention (bench/jobs-memory.ts);
 * 6. the load Node path's requests per second beside autocannon (bench/load-node.ts).
 *
 *   npm run bench [-- --quick]     (--quick: 100,000 jobs for the memory figure, shorter runs)
 *
 * Benchmarks are measurements, never tests: nothing here fails on a figure.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../run/paths.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, only: { type: 'string' } } });
const quick = values.quick === true;

function run(args: string[]): Promise<{ code: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: PROJECT_ROOT, stdio: 'inherit' });
    child.on('exit', (code) => resolve({ code: code ?? 1, seconds: (performance.now() - started) / 1000 }));
  });
}

const out = mkdtempSync(join(tmpdir(), 'cpc-bench-'));
const steps: [string, string[]][] = [
  ['suite wall time (cpc conformance, embedded emulator)', ['bin/cpc.ts', 'conformance', '--quiet-summary', '--out', out, '--artifacts', join(out, 'artifacts')]],
  ['createPod throughput and latency', ['bench/pods.ts', ...(quick ? ['--duration', '3', '--rounds', '1'] : [])]],
  ['the machine\'s ceiling: createPod I/O plus N µs of work', ['bench/ceiling.ts', ...(quick ? ['--duration', '3', '--spins', '0,10,20'] : [])]],
  ['/run throughput', ['bench/jobs.ts', ...(quick ? ['--duration', '3', '--rounds', '1'] : [])]],
  ['emulator memory after /run jobs past retention', ['bench/jobs-memory.ts', '--jobs', quick ? '100000' : '1000000']],
  ['load Node path beside autocannon', ['bench/load-node.ts', ...(quick ? ['--seconds', '5'] : [])]],
];
const results: string[] = [];
try {
  for (const [name, args] of steps) {
    if (values.only && !name.includes(values.only)) continue;
    process.stdout.write(`\n=== ${name}\n`);
    const r = await run(args);
    results.push(`  ${name.padEnd(52)} ${r.seconds.toFixed(1).padStart(7)} s${r.code === 0 ? '' : `  (exit ${r.code})`}`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.stdout.write(`\nBench wall times (figures are in each section above):\n${results.join('\n')}\n`);
