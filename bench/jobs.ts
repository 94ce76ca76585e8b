/**
 * `/run` throughput: the emulator's full pipeline (auth, rate limit, body, schema, job,
 * worker, retention timer) beside a bare node:http server on the same machine, in one run.
 * Goal: at least half the bare server's requests per second.
 *
 *   npx tsx bench/jobs.ts [--duration 10] [--connections 50]
 */
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { benchWorld, serve } from './support.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } });
const duration = Number(values.duration);
const connections = Number(values.connections);
const body = JSON.stringify({ input: { prompt: 'benchmark', n: 1 } });

async function load(url: string, path: string, headers: Record<string, string>): Promise<autocannon.Result> {
  return autocannon({ url: url + path, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, connections, duration, pipelining: 1 });
}

const bare = await serve('bare');
const emulator = await serve('emulator');
try {
  const world = await benchWorld(emulator.url);
  // A short warm-up of each, so both run JIT-compiled code.
  await autocannon({ url: `${bare.url}/v2/x/run`, method: 'POST', body, connections, duration: 2 });
  await autocannon({ url: `${emulator.url}/v2/${world.endpointId}/run`, method: 'POST', headers: { authorization: world.key, 'content-type': 'application/json' }, body, connections, duration: 2 });
  const b = await load(bare.url, '/v2/x/run', {});
  const e = await load(emulator.url, `/v2/${world.endpointId}/run`, { authorization: world.key });
  const row = (name: string, r: autocannon.Result) =>
    `${name.padEnd(10)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
  const ratio = e.requests.average / b.requests.average;
  process.stdout.write([
    `POST /run, ${connections} connections, ${duration} s each, ${process.platform} ${process.arch}, node ${process.version}`,
    row('bare http', b),
    row('emulator', e),
    `emulator / bare = ${(ratio * 100).toFixed(0)}% (goal: at least 50%) ${ratio >= 0.5 ? 'MET' : 'NOT MET'}`,
  ].join('\n') + '\n');
  if (e.non2xx > 0 || e.errors > 0) process.exitCode = 1;
} finally {
  bare.stop();
  emulator.stop();
}
