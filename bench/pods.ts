/**
 * createPod throughput and latency: the emulator's full pipeline (auth, rate limit, body,
 * schema validation, catalog, scheduler, store, serialisation) beside a bare node:http server
 * that answers a fixed 201, on the same machine, in one run. Each server runs in its own
 * process, apart from the load generator.
 *
 *   npx tsx bench/pods.ts [--duration 5] [--rounds 3] [--connections 20] [--rate 1000] [--rate-connections 20]
 *
 * Throughput is autocannon's with every connection busy, in rounds that alternate the two
 * servers (the median ratio is the figure). Latency at 1,000 requests per second is measured at
 * a constant arrival rate (bench/open-loop.ts), because autocannon's `overallRate` sends each
 * second's quota as a burst; its figures are printed too, labelled as bursts.
 *
 * Goals (issue "Pods end to end"): at least half the bare server's requests per second with 20
 * connections, and p99 under 5 ms at 1,000 requests per second.
 */
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { openLoopInChild } from './open-loop.js';
import { alternate, CREATE_POD, inWorld, ioTwin, ratiosOf, serve, type Served } from './support.js';
import { BenchError } from '../lib/errors.js';

const BODY = CREATE_POD.body;
/** Seconds of load each server gets before anything is measured. */
const WARMUP_SECONDS = 5;
/** Seconds of the constant-rate measurement. */
const STEADY_SECONDS = 10;

interface Row { server: string; load: string; rps: number; p50: number; p99: number; ok: number; other: number }

interface Options { duration: number; rounds: number; connections: number; rate: number; rateConnections: number }

const headersFor = (key: string | undefined): Record<string, string> => ({ 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) });

/** autocannon, closed model: `max` keeps every connection busy; `bursts` is its `overallRate`. */
async function cannon(server: string, url: string, key: string | undefined, mode: 'max' | 'bursts', o: Options): Promise<Row> {
  const r = await autocannon({
    url: `${url}/v2/pods`, method: 'POST', body: BODY, connections: mode === 'max' ? o.connections : o.rateConnections, duration: o.duration,
    headers: headersFor(key), ...(mode === 'bursts' ? { overallRate: o.rate } : {}),
  });
  return {
    server, load: mode === 'max' ? `autocannon, ${o.connections} connections` : `autocannon overallRate ${o.rate}/s (per-second bursts), ${o.rateConnections} conn.`,
    rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], other: r.non2xx + r.errors + r.timeouts,
  };
}

/** Constant arrival rate (bench/open-loop.ts): one request every 1/rate s, latency from its due time. */
async function steady(server: string, url: string, key: string | undefined, o: Options): Promise<Row & { lag: number }> {
  const r = await openLoopInChild({ warmupSeconds: WARMUP_SECONDS, url, path: '/v2/pods', method: 'POST', body: BODY, rate: o.rate, seconds: STEADY_SECONDS, connections: o.rateConnections, headers: headersFor(key) });
  return { server, load: `constant ${o.rate} req/s for ${STEADY_SECONDS} s, ${o.rateConnections} conn.`, rps: r.sent / STEADY_SECONDS, p50: r.p50, p99: r.p99, ok: r.ok, other: r.other, lag: r.worstSendLag };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: {
    duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '20' },
    rate: { type: 'string', default: '1000' }, 'rate-connections': { type: 'string', default: '20' },
  } });
  const o: Options = { duration: Number(values.duration), rounds: Number(values.rounds), connections: Number(values.connections), rate: Number(values.rate), rateConnections: Number(values['rate-connections']) };
  const servers: Served[] = [];
  const bareName = 'bare node:http (fixed 201)';
  const ioName = 'bare node:http (createPod I/O)';
  try {
    const bare = await serve('bare', { bare: CREATE_POD.fixedAnswer });
    servers.push(bare);
    const emulator = await serve('emulator');
    servers.push(emulator);
    // The same bytes as the emulator's createPod answer, from a bare server that also parses the body and writes the emulator's way.
    const withIo = await ioTwin(emulator.url, (w) => CREATE_POD.send(emulator.url, w.key));
    servers.push(withIo);
    // Warm the servers up so each runs JIT-compiled code.
    await cannon('bare', bare.url, undefined, 'max', { ...o, duration: WARMUP_SECONDS });
    await inWorld(emulator.url, (w) => cannon('emulator', emulator.url, w.key, 'max', { ...o, duration: WARMUP_SECONDS }));
    const rows: Row[] = [];
    const kept = (r: Row): Row => { rows.push(r); return r; };
    await cannon('bare', withIo.url, undefined, 'max', { ...o, duration: WARMUP_SECONDS });
    const throughput = await alternate(o.rounds,
      async () => kept(await cannon(bareName, bare.url, undefined, 'max', o)).rps,
      async () => kept(await inWorld(emulator.url, (w) => cannon('emulator createPod', emulator.url, w.key, 'max', o))).rps,
      async () => kept(await cannon(ioName, withIo.url, undefined, 'max', o)).rps);
    const ofIo = ratiosOf(throughput.emulator, throughput.also);
    const ioOfBare = ratiosOf(throughput.also, throughput.bare);
    const bareSteady = await steady(bareName, bare.url, undefined, o);
    const emulatorSteady = await inWorld(emulator.url, (w) => steady('emulator createPod', emulator.url, w.key, o));
    rows.push(bareSteady, emulatorSteady);
    const bareBursts = await cannon(bareName, bare.url, undefined, 'bursts', o);
    rows.push(bareBursts, await inWorld(emulator.url, (w) => cannon('emulator createPod', emulator.url, w.key, 'bursts', o)));

    const line = (c: string[]) => `| ${c.join(' | ')} |`;
    console.log(line(['server', 'load', 'req/s', 'p50 ms', 'p99 ms', '2xx', 'other']));
    console.log(line(['---', '---', '---:', '---:', '---:', '---:', '---:']));
    for (const r of rows) console.log(line([r.server, r.load, r.rps.toFixed(0), String(r.p50), String(r.p99), String(r.ok), String(r.other)]));
    const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
    console.log(`\nemulator / bare throughput by round: ${throughput.ratios.map(pct).join(', ')}; median ${pct(throughput.median)} (goal >= 50%: ${throughput.median >= 0.5 ? 'met' : 'NOT met'})`);
    console.log(`bare server with createPod's I/O / bare: ${ioOfBare.ratios.map(pct).join(', ')}; median ${pct(ioOfBare.median)} (reading and parsing the body, the ${withIo.bytes}-byte pod and the RateLimit headers, written at the end of each event-loop turn as the emulator writes them, and nothing else)`);
    console.log(`emulator / bare server with createPod's I/O: ${ofIo.ratios.map(pct).join(', ')}; median ${pct(ofIo.median)}`);
    console.log(`emulator p99 at a constant ${o.rate} req/s: ${emulatorSteady.p99} ms (goal < 5 ms: ${emulatorSteady.p99 < 5 ? 'met' : 'NOT met'}); `
      + `bare server ${bareSteady.p99} ms; the generator sent at most ${Math.max(bareSteady.lag, emulatorSteady.lag)} ms behind schedule`);
    console.log(`autocannon's overallRate sends each connection's per-second quota back to back, so its p99 is the time a ${o.rate}-request burst takes to drain (bare server: ${bareBursts.p99} ms)`);
    console.log(`load average during the run: ${loadavg().map((l) => l.toFixed(2)).join(', ')} (other processes share the machine)`);
    if (rows.some((r) => r.other > 0)) throw new BenchError('some requests failed; see the "other" column');
  } finally {
    for (const server of servers) server.stop();
  }
}

try {
  await main();
} catch (e) {
  process.stderr.write(`bench: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
