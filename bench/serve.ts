/**
 * Servers for the benchmarks, each in its own process so the load generator does not share
 * their event loop: `emulator` (the full pipeline) or `bare` (a node:http server that reads the
 * body and answers a fixed reply, by default a job handle: the machine's ceiling; optionally it
 * parses the body, sends extra headers and writes its answers at the end of each event-loop turn
 * as the emulator does, to match an operation's own I/O). Prints `{"port": N}` on stdout;
 * answers `{"rss": bytes, "heapUsed": bytes}` to an IPC "measure" message (after `gc()` when
 * run with --expose-gc).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator } from '../emulator/server.js';
import { endThisTurn } from '../emulator/http/outbox.js';
import type { BareAnswer } from './support.js';
import { BenchError } from '../lib/errors.js';

const kind = process.argv[2];

/** Busy-waits `micros` microseconds. */
function spin(micros: number): void {
  const until = process.hrtime.bigint() + BigInt(Math.round(micros * 1000));
  while (process.hrtime.bigint() < until) { /* work stands in for a pipeline */ }
}

async function listen(): Promise<number> {
  if (kind === 'emulator') return (await startEmulator({ port: 0 })).port;
  if (kind !== 'bare') throw new BenchError(`unknown server kind ${kind}`);
  const { status, body: answer, headers = {}, parse = false, spinMicros = 0, batch = false } = process.argv[3] !== undefined
    ? JSON.parse(process.argv[3]) as BareAnswer
    : { status: 200, body: JSON.stringify({ id: 'job-00001', status: 'IN_QUEUE' }) };
  const fixed = { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) };
  const server = createServer({ keepAlive: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', parse ? (chunk: Buffer) => { chunks.push(chunk); } : () => undefined);
    req.on('end', () => {
      if (parse) JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (spinMicros > 0) spin(spinMicros);
      res.writeHead(status, fixed);
      if (batch) endThisTurn(res, answer);
      else res.end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

process.on('message', (message) => {
  // A clean exit lets --cpu-prof write its profile.
  if (message === 'exit') process.exit(0);
  if (message !== 'measure') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) { gc(); gc(); }
  const m = process.memoryUsage();
  process.send?.({ rss: m.rss, heapUsed: m.heapUsed, gc: gc !== undefined });
});

process.stdout.write(`${JSON.stringify({ port: await listen() })}\n`);
