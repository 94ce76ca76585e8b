/**
 * Latency at a constant arrival rate (an open-model load): request i is due at
 * `start + i / rate`, whether or not earlier requests have answered, and its latency counts
 * from that due time, so a slow answer that delays later sends is charged to the server
 * (no coordinated omission). Requests go over a pool of keep-alive connections.
 *
 * Why not autocannon's `overallRate`: it gives each connection a per-second quota that it
 * sends back to back from the start of each second, then pauses (`reqsMadeThisSecond` in
 * autocannon's lib/httpClient.js). At "1,000 req/s" over 20 connections that is a burst of
 * 1,000 requests every second, so its p99 measures how long a burst takes to drain, which a
 * bare server that answers a fixed body also shows in milliseconds.
 */
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as hdr from 'hdr-histogram-js';
import { Pool } from 'undici';
import { BenchError } from '../lib/errors.js';

export interface OpenLoopOptions {
  url: string;
  path: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  /** Requests per second. */
  rate: number;
  seconds: number;
  connections: number;
  /** Seconds of the same load before measuring, so both sides run optimised code. */
  warmupSeconds?: number;
}

export interface OpenLoopResult {
  sent: number;
  ok: number;
  other: number;
  /** Milliseconds from each request's due time to the end of its answer. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** The largest lag of a send behind its due time, in ms (the generator's own precision). */
  worstSendLag: number;
}

/**
 * Runs the load in a child process of its own, so the generator's event loop is not paused
 * by the collector of a process that has just run autocannon; resolves with the figures.
 */
export function openLoopInChild(o: OpenLoopOptions): Promise<OpenLoopResult> {
  const child = fork(fileURLToPath(import.meta.url), ['--run', JSON.stringify(o)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let result: OpenLoopResult | undefined;
    child.once('message', (m) => { result = m as OpenLoopResult; child.disconnect(); });
    child.once('exit', (code) => {
      if (result && code === 0) resolve(result);
      else reject(new BenchError(`the open-loop generator exited with ${code}${result ? '' : ' before sending its figures'}`));
    });
  });
}

/** Runs the load (after its warm-up) in this process; resolves when every request has answered. */
export async function openLoop(o: OpenLoopOptions): Promise<OpenLoopResult> {
  const pool = new Pool(o.url, { connections: o.connections, pipelining: 1 });
  try {
    if (o.warmupSeconds) await phase(pool, o, o.warmupSeconds);
    return await phase(pool, o, o.seconds);
  } finally {
    await pool.close();
  }
}

async function phase(pool: Pool, o: OpenLoopOptions, seconds: number): Promise<OpenLoopResult> {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 });
  const total = Math.round(o.rate * seconds);
  const intervalNs = 1e9 / o.rate;
  let sent = 0;
  let done = 0;
  let ok = 0;
  let worstLagNs = 0;
  const start = process.hrtime.bigint();
  await new Promise<void>((resolve) => {
    const answered = (due: bigint, status: number): void => {
      histogram.recordValue(Number(process.hrtime.bigint() - due) / 1000);
      if (status >= 200 && status < 300) ok++;
      if (++done === total) resolve();
    };
    const send = (): void => {
      const due = start + BigInt(Math.round(sent * intervalNs));
      sent++;
      const lag = Number(process.hrtime.bigint() - due);
      if (lag > worstLagNs) worstLagNs = lag;
      pool.request({ path: o.path, method: o.method, headers: o.headers, body: o.body })
        .then(async (r) => { await r.body.dump(); answered(due, r.statusCode); }, () => { answered(due, 0); });
    };
    // setImmediate runs after each round of I/O, so sends keep to their due times within a
    // fraction of a millisecond while answers are read in between.
    const tick = (): void => {
      const elapsed = Number(process.hrtime.bigint() - start);
      while (sent < total && sent * intervalNs <= elapsed) send();
      if (sent < total) setImmediate(tick);
    };
    tick();
  });
  const ms = (us: number): number => Math.round(us) / 1000;
  // A percentile is its bucket's highest equivalent value (3 significant digits: about 2 ms wide
  // near 3 s), which can lie above the largest value recorded; no answer took longer than the max.
  const at = (p: number): number => ms(Math.min(histogram.getValueAtPercentile(p), histogram.maxValue));
  return {
    sent, ok, other: sent - ok,
    p50: at(50), p90: at(90), p99: at(99), max: ms(histogram.maxValue),
    worstSendLag: Math.round(worstLagNs / 1000) / 1000,
  };
}

// Child mode (openLoopInChild): run once, send the figures back, exit.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--run') process.send?.(await openLoop(JSON.parse(process.argv[3] ?? '{}') as OpenLoopOptions));
