/**
 * The machine's ceiling curve: how many createPod-sized requests per second a server can answer
 * here when its own work costs N microseconds. Each server is the bare node:http server with
 * createPod's I/O (it reads and parses the body and answers the emulator's 425-byte pod with the
 * RateLimit headers, writing its answers at the end of each event-loop turn as the emulator
 * does) that also busy-waits N µs per request; the plain bare server (fixed 201) is
 * the reference, as in bench/pods.ts. Read an emulator figure against this curve: a pipeline
 * costing N µs cannot do better than the spinning server of the same N.
 *
 *   npx tsx bench/ceiling.ts [--duration 5] [--spins 0,5,10,15,20]
 */
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { CREATE_POD, sampleAnswer, serve, type BareAnswer } from './support.js';
import { BenchError } from '../lib/errors.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, spins: { type: 'string', default: '0,5,10,15,20' } } });
const duration = Number(values.duration);
const spins = values.spins.split(',').map(Number);

async function rps(url: string): Promise<number> {
  const r = await autocannon({ url: `${url}/v2/pods`, method: 'POST', body: CREATE_POD.body, headers: { 'content-type': 'application/json' }, connections: 20, duration });
  if (r.non2xx > 0 || r.errors > 0) throw new BenchError(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return r.requests.average;
}

const emulator = await serve('emulator');
let sample: BareAnswer;
try {
  sample = await sampleAnswer(emulator.url, (w) => CREATE_POD.send(emulator.url, w.key));
} finally {
  emulator.stop();
}
const plain = await serve('bare', { bare: CREATE_POD.fixedAnswer });
try {
  await rps(plain.url);
  const reference = await rps(plain.url);
  const lines = [`createPod-sized requests, 20 connections, ${duration} s each; plain bare server (fixed 201): ${reference.toFixed(0)} req/s`];
  const rows: string[] = [];
  for (const spinMicros of spins) {
    const server = await serve('bare', { bare: { ...sample, parse: true, batch: true, spinMicros } });
    try {
      await rps(server.url);
      const r = await rps(server.url);
      rows.push(`createPod I/O + ${String(spinMicros).padStart(3)} µs of work per request: ${r.toFixed(0).padStart(6)} req/s = ${((r / reference) * 100).toFixed(0)}% of the plain bare server`);
    } finally {
      server.stop();
    }
  }
  // The reference again at the end: if it moved, the machine's load changed during the run.
  const after = await rps(plain.url);
  lines.push(...rows, `plain bare server again at the end: ${after.toFixed(0)} req/s`);
  process.stdout.write(lines.join('\n') + '\n');
} catch (e) {
  process.stderr.write(`bench: ${(e as Error).message}\n`);
  process.exitCode = 1;
} finally {
  plain.stop();
}
