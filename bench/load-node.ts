/**
 * Requests per second the Node path (run/k6node) reaches against the emulator, beside
 * autocannon and, when a k6 binary is there (`K6`, or `k6` on PATH), real k6 on the same route
 * (`GET /v2/pods`, same concurrency, same duration; the k6 script makes its own world).
 * The emulator runs in its own process so no load generator shares its event loop.
 *
 *   npx tsx bench/load-node.ts [--connections 8] [--seconds 10]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { request } from 'undici';
import { runK6ScriptOnNode } from '../run/k6node/runner.js';
import { findK6 } from '../run/k6node/k6-binary.js';
import { runK6Script } from '../run/load.js';
import { PROJECT_ROOT } from '../run/paths.js';
import { BenchError } from '../lib/errors.js';

const { values } = parseArgs({ options: { connections: { type: 'string' }, seconds: { type: 'string' } } });
const connections = Number(values.connections ?? 8);
const seconds = Number(values.seconds ?? 10);

async function startEmulatorProcess(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'emulator/main.ts'), '--port', '0'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    text += chunk as string;
    const m = /listening on (http:\/\/[^\s]+)/.exec(text);
    if (m) return { url: m[1]!, stop: () => child.kill('SIGTERM') };
  }
  throw new BenchError(`the emulator did not start: ${text}`);
}

async function worldKey(url: string): Promise<string> {
  const res = await request(`${url}/__emulator/worlds`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ quotas: { minute: 1e9, hour: 1e9, day: 1e9 } }),
  });
  return ((await res.body.json()) as { keys: { main: string } }).keys.main;
}

const emu = await startEmulatorProcess();
try {
  // Warm the emulator's JIT so neither run pays for it.
  const key = await worldKey(emu.url);
  await autocannon({ url: `${emu.url}/v2/pods`, connections, duration: 2, headers: { authorization: `Bearer ${key}` } });

  const node = await runK6ScriptOnNode({
    script: join(PROJECT_ROOT, 'load/bench/throughput.ts'), out: () => undefined, err: (t) => void process.stderr.write(t),
    env: { CPC_BASE_URL: emu.url, CPC_LOAD_VUS: String(connections), CPC_LOAD_DURATION: `${seconds}s` },
  });
  const m = node.summaryData!.metrics as Record<string, { values: Record<string, number> }>;
  const nodeCount = m['http_reqs']!.values.count!;
  // A Rate's `passes` counts true samples: for http_req_failed, the failed requests.
  const nodeFailed = m['http_req_failed']?.values.passes ?? 0;

  const ac = await autocannon({ url: `${emu.url}/v2/pods`, connections, duration: seconds, headers: { authorization: `Bearer ${key}` } });

  const rows: [string, number, number, number, number, string][] = [
    ['Node path (k6 script, worker threads)', Math.round(nodeCount / seconds), m['http_req_duration']!.values['p(50)']!, m['http_req_duration']!.values['p(99)']!, nodeCount, node.exitCode === 0 && nodeFailed === 0 ? 'ok' : `exit ${node.exitCode}`],
    ['autocannon', Math.round(ac.requests.average), ac.latency.p50, ac.latency.p99, ac.requests.total, ac.non2xx === 0 && ac.errors === 0 ? 'ok' : `${ac.non2xx} non-2xx, ${ac.errors} errors`],
  ];

  // Real k6 on the same script, its figures from `--summary-export` (count, and p(50)/p(99) in ms).
  const k6 = findK6();
  if (k6.found) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-k6-'));
    try {
      const exportFile = join(dir, 'summary.json');
      const code = await runK6Script({ script: join(PROJECT_ROOT, 'load/bench/throughput.ts'), k6: k6.path, quiet: true, exportFile, env: { CPC_BASE_URL: emu.url, CPC_LOAD_VUS: String(connections), CPC_LOAD_DURATION: `${seconds}s`, K6_NO_USAGE_REPORT: 'true' } });
      const x = (JSON.parse(readFileSync(exportFile, 'utf8')) as { metrics: Record<string, Record<string, number>> }).metrics;
      rows.push([`k6 ${k6.version}`, Math.round(x['http_reqs']!.count! / seconds), x['http_req_duration']!['p(50)']!, x['http_req_duration']!['p(99)']!, x['http_reqs']!.count!, code === 0 ? 'ok' : `exit ${code}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    process.stderr.write(`k6 left out: ${k6.reason}\n`);
  }
  process.stdout.write(`GET /v2/pods on the emulator, ${connections} concurrent, ${seconds} s each\n`);
  process.stdout.write(`${'generator'.padEnd(40)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'requests'.padStart(10)}  status\n`);
  for (const [name, rps, p50, p99, total, status] of rows) {
    process.stdout.write(`${name.padEnd(40)}${String(rps).padStart(8)}${p50.toFixed(2).padStart(9)}${p99.toFixed(2).padStart(9)}${String(total).padStart(10)}  ${status}\n`);
  }
  process.stdout.write(`Node path / autocannon: ${((nodeCount / seconds) / ac.requests.average * 100).toFixed(0)} %\n`);
  if (rows[2]) process.stdout.write(`Node path / ${rows[2][0]}: ${((nodeCount / seconds) / rows[2][1] * 100).toFixed(0)} %\n`);
} finally {
  emu.stop();
}
