/**
 * createPod throughput and latency: the emulator's full pipeline (auth, rate limit, body,
 * schema validation, catalog, scheduler, store, serialisation) beside a bare node:http server
 * that answers a fixed 201, on the same machine, in one run. Each server runs in its own
 * process, apart from the load generator.
 *
 *   npx tsx bench/pods.ts [--duration 10] [--connections 20] [--rate 1000] [--rate-connections 20]
 *
 * At a fixed rate autocannon paces each connection on its own timer, so N connections send in
 * bursts of N: `--rate-connections` shows how much of the p99 is that burst queueing.
 *
 * Goals (issue "Pods end to end"): at least half the bare server's requests per second with 20
 * connections, and p99 under 5 ms at a fixed 1,000 requests per second.
 */
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { request } from 'undici';
import { startEmulator } from '../emulator/server.js';

const BODY = JSON.stringify({ name: 'bench', image: 'busybox:latest', gpu: { id: 'NVIDIA GeForce RTX 4090' } });
const FIXED = JSON.stringify({ id: 'pod-00001', status: 'PROVISIONING' });

class BenchError extends Error {
  readonly code = 'CPC_BENCH';
}

/** Child mode: serve, print the port, wait to be killed. */
async function serve(kind: string): Promise<void> {
  let port: number;
  if (kind === 'emulator') port = (await startEmulator({ port: 0 })).port;
  else if (kind === 'bare') {
    const server = createServer({ keepAlive: true }, (req, res) => {
      req.on('data', () => undefined);
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(FIXED) });
        res.end(FIXED);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  } else throw new BenchError(`unknown server kind ${kind}`);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

async function start(kind: 'bare' | 'emulator'): Promise<{ url: string; stop(): void }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', kind], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new BenchError(`${kind} server exited with ${code}`)));
    child.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(d.toString()) as { port: number }).port));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => { child.kill(); } };
}

/**
 * Runs `fn` with the main key of a fresh world whose quotas no benchmark reaches, then deletes
 * the world, so each phase starts with an empty store (every created pod is kept until then).
 */
async function inWorld<T>(url: string, fn: (key: string) => Promise<T>): Promise<T> {
  const res = await request(`${url}/__emulator/worlds`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ quotas: { minute: 1e9, hour: 1e9, day: 1e9 } }),
  });
  const world = (await res.body.json()) as { id: string; keys: { main: string } };
  try {
    return await fn(world.keys.main);
  } finally {
    await (await request(`${url}/__emulator/worlds/${world.id}`, { method: 'DELETE' })).body.text();
  }
}

interface Row { server: string; mode: string; rps: number; p50: number; p99: number; ok: number; other: number }

interface Options { duration: number; connections: number; rate: number; rateConnections: number }

async function run(server: string, url: string, key: string | undefined, mode: 'max' | 'rate', o: Options): Promise<Row> {
  const r = await autocannon({
    url: `${url}/v2/pods`, method: 'POST', body: BODY, connections: mode === 'max' ? o.connections : o.rateConnections, duration: o.duration,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(mode === 'rate' ? { overallRate: o.rate } : {}),
  });
  return { server, mode: mode === 'max' ? `${o.connections} connections` : `${o.rate} req/s, ${o.rateConnections} conn.`, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], other: r.non2xx + r.errors + r.timeouts };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' }, rate: { type: 'string', default: '1000' }, 'rate-connections': { type: 'string', default: '20' } } });
  const o: Options = { duration: Number(values.duration), connections: Number(values.connections), rate: Number(values.rate), rateConnections: Number(values['rate-connections']) };
  const bare = await start('bare');
  const emulator = await start('emulator');
  try {
    // Warm both up so each runs JIT-compiled code.
    await run('bare', bare.url, undefined, 'max', { ...o, duration: 2 });
    await inWorld(emulator.url, (key) => run('emulator', emulator.url, key, 'max', { ...o, duration: 2 }));
    const rows = [
      await run('bare node:http (fixed 201)', bare.url, undefined, 'max', o),
      await inWorld(emulator.url, (key) => run('emulator createPod', emulator.url, key, 'max', o)),
      await run('bare node:http (fixed 201)', bare.url, undefined, 'rate', o),
      await inWorld(emulator.url, (key) => run('emulator createPod', emulator.url, key, 'rate', o)),
    ];
    const line = (c: string[]) => `| ${c.join(' | ')} |`;
    console.log(line(['server', 'load', 'req/s', 'p50 ms', 'p99 ms', '2xx', 'other']));
    console.log(line(['---', '---', '---:', '---:', '---:', '---:', '---:']));
    for (const r of rows) console.log(line([r.server, r.mode, r.rps.toFixed(0), String(r.p50), String(r.p99), String(r.ok), String(r.other)]));
    const ratio = rows[1]!.rps / rows[0]!.rps;
    console.log(`\nemulator / bare throughput: ${(ratio * 100).toFixed(0)}% (goal >= 50%: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);
    console.log(`emulator p99 at ${o.rate} req/s: ${rows[3]!.p99} ms (goal < 5 ms: ${rows[3]!.p99 < 5 ? 'met' : 'NOT met'})`);
    console.log(`load average during the run: ${loadavg().map((l) => l.toFixed(2)).join(', ')} (other processes share the machine)`);
    if (rows.some((r) => r.other > 0)) throw new BenchError('some requests failed; see the "other" column');
  } finally {
    bare.stop();
    emulator.stop();
  }
}

if (process.argv[2] === '--serve') await serve(process.argv[3] ?? '');
else {
  try {
    await main();
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
