/**
 * `/run` throughput: the emulator's full pipeline (auth, rate limit, body, schema, job,
 * worker, retention timer) beside a bare node:http server on the same machine, in one run,
 * in rounds that alternate the two servers (the median ratio is the figure).
 * Goal: at least half the bare server's requests per second.
 *
 *   npx tsx bench/jobs.ts [--duration 5] [--rounds 3] [--connections 50]
 */
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { alternate, inWorld, ioTwin, ratiosOf, serve, type Served } from './support.js';
import { BenchError } from '../lib/errors.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '50' } } });
const duration = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const body = JSON.stringify({ input: { prompt: 'benchmark', n: 1 } });
/** Seconds of load each server gets before anything is measured. */
const WARMUP_SECONDS = 5;

async function load(url: string, path: string, headers: Record<string, string>, seconds = duration): Promise<autocannon.Result> {
  const r = await autocannon({ url: url + path, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, connections, duration: seconds, pipelining: 1 });
  if (r.non2xx > 0 || r.errors > 0) throw new BenchError(`${url}${path}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return r;
}

const servers: Served[] = [];
try {
  const bare = await serve('bare');
  servers.push(bare);
  const emulator = await serve('emulator');
  servers.push(emulator);
  // The same bytes as the emulator's /run answer, from a bare server that also parses the body and writes the emulator's way.
  const withIo = await ioTwin(emulator.url, (w) => request(`${emulator.url}/v2/${w.endpointId}/run`, { method: 'POST', headers: { authorization: w.key, 'content-type': 'application/json' }, body }));
  servers.push(withIo);
  // A warm-up of each, so all run JIT-compiled code.
  await load(bare.url, '/v2/x/run', {}, WARMUP_SECONDS);
  await inWorld(emulator.url, (w) => load(emulator.url, `/v2/${w.endpointId}/run`, { authorization: w.key }, WARMUP_SECONDS));
  await load(withIo.url, '/v2/x/run', {}, WARMUP_SECONDS);
  const p99: number[] = [];
  const r = await alternate(rounds,
    async () => (await load(bare.url, '/v2/x/run', {})).requests.average,
    async () => {
      const e = await inWorld(emulator.url, (w) => load(emulator.url, `/v2/${w.endpointId}/run`, { authorization: w.key }));
      p99.push(e.latency.p99);
      return e.requests.average;
    },
    async () => (await load(withIo.url, '/v2/x/run', {})).requests.average);
  const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
  const lines = [`POST /run, ${connections} connections, ${rounds} rounds of ${duration} s per server, ${process.platform} ${process.arch}, node ${process.version}`];
  for (let i = 0; i < rounds; i++) {
    lines.push(`round ${i + 1}: bare http ${r.bare[i]!.toFixed(0).padStart(6)} req/s   emulator ${r.emulator[i]!.toFixed(0).padStart(6)} req/s (p99 ${p99[i]} ms)   ${pct(r.ratios[i]!)}   bare with /run's I/O ${r.also[i]!.toFixed(0).padStart(6)} req/s`);
  }
  const ioOfBare = ratiosOf(r.also, r.bare);
  const ofIo = ratiosOf(r.emulator, r.also);
  lines.push(`bare server with /run's I/O / bare, median = ${pct(ioOfBare.median)} (reading and parsing the body, the ${withIo.bytes}-byte answer and the RateLimit headers, written at the end of each event-loop turn as the emulator writes them, and nothing else)`);
  lines.push(`emulator / bare server with /run's I/O, median = ${pct(ofIo.median)}`);
  lines.push(`emulator / bare, median of the rounds = ${pct(r.median)} (goal: at least 50%) ${r.median >= 0.5 ? 'MET' : 'NOT MET'}`);
  process.stdout.write(lines.join('\n') + '\n');
} catch (e) {
  process.stderr.write(`bench: ${(e as Error).message}\n`);
  process.exitCode = 1;
} finally {
  for (const server of servers) server.stop();
}
