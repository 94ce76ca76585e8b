/**
 * Memory after one million jobs through `/run` (echo handler, zero-cost workers), with the
 * virtual clock moved past the 30-minute retention after every batch: the emulator's resident
 * memory must stay under 300 MB (measured after `gc()`; the server runs with --expose-gc).
 *
 *   npx tsx bench/jobs-memory.ts [--jobs 1000000] [--batch 100000]
 */
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { advance, benchWorld, mb, serve } from './support.js';
import { BenchError } from '../lib/errors.js';

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '1000000' }, batch: { type: 'string', default: '100000' } } });
const total = Number(values.jobs);
const batch = Number(values.batch);
const GOAL = 300 * 1024 * 1024;
const RETENTION_MS = 30 * 60_000;

const emulator = await serve('emulator', { exposeGc: true });
try {
  const world = await benchWorld(emulator.url);
  const baseline = await emulator.measure();
  const started = Date.now();
  let sent = 0;
  let peak = baseline.rss;
  while (sent < total) {
    const amount = Math.min(batch, total - sent);
    const r = await autocannon({
      url: `${emulator.url}/v2/${world.endpointId}/run`, method: 'POST', connections: 50, amount,
      headers: { authorization: world.key, 'content-type': 'application/json' }, body: JSON.stringify({ input: { n: sent } }),
    });
    if (r.non2xx > 0 || r.errors > 0) throw new BenchError(`batch at ${sent}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    sent += amount;
    peak = Math.max(peak, (await emulator.measure()).rss);
    await advance(emulator.url, world.id, RETENTION_MS + 1_000);
  }
  const health = (await (await request(`${emulator.url}/v2/${world.endpointId}/health`, { headers: { authorization: world.key } })).body.json()) as { jobs: Record<string, number> };
  const after = await emulator.measure();
  process.stdout.write([
    `${sent} jobs through POST /run in ${((Date.now() - started) / 1000).toFixed(0)} s (batches of ${batch}, clock moved ${RETENTION_MS / 60_000} min after each)`,
    `health: completed ${health.jobs.completed}, inQueue ${health.jobs.inQueue}, inProgress ${health.jobs.inProgress}`,
    `rss: baseline ${mb(baseline.rss)}, highest between batches ${mb(peak)}, after the last retention ${mb(after.rss)} (heap used ${mb(after.heapUsed)}, gc ${after.gc ? 'run' : 'not exposed'})`,
    `goal: under ${mb(GOAL)} ${after.rss < GOAL ? 'MET' : 'NOT MET'}`,
  ].join('\n') + '\n');
  if (after.rss >= GOAL || health.jobs.completed !== total) process.exitCode = 1;
} finally {
  emulator.stop();
}
