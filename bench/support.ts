import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request, type Dispatcher } from 'undici';
import { BenchError } from '../lib/errors.js';

export interface Served { child: ChildProcess; url: string; stop(): void; measure(): Promise<{ rss: number; heapUsed: number; gc: boolean }> }

/**
 * What the bare server answers to every request: the machine's ceiling for one operation.
 * With `parse`, it also parses the body as JSON before answering; `headers` are sent as well;
 * `spinMicros` adds that much work per request.
 */
export interface BareAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  parse?: boolean;
  /** Busy-waits this many microseconds per request: stands for a pipeline of that cost (bench/ceiling.ts). */
  spinMicros?: number;
  /** Writes answers at the end of each event-loop turn, as the emulator does (emulator/http/outbox.ts). */
  batch?: boolean;
}

/**
 * Starts `bench/serve.ts <kind>` in a child process and waits for its port. The bare server
 * answers `bare` (by default a job handle, 200).
 */
export async function serve(kind: 'emulator' | 'bare', options: { exposeGc?: boolean; bare?: BareAnswer } = {}): Promise<Served> {
  const { exposeGc = false, bare } = options;
  const child = fork(fileURLToPath(new URL('./serve.ts', import.meta.url)), [kind, ...(bare ? [JSON.stringify(bare)] : [])], {
    execArgv: ['--import', 'tsx', ...(exposeGc ? ['--expose-gc'] : []), '--max-old-space-size=2048'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new BenchError(`${kind} server exited with ${code}`)));
    child.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(d.toString()) as { port: number }).port));
  });
  return {
    child, url: `http://127.0.0.1:${port}`,
    stop: () => { child.kill(); },
    measure: () => new Promise((resolve) => { child.once('message', (m) => resolve(m as { rss: number; heapUsed: number; gc: boolean })); child.send('measure'); }),
  };
}

const createPodBody = JSON.stringify({ name: 'bench', image: 'busybox:latest', gpu: { id: 'NVIDIA GeForce RTX 4090' } });

/** The createPod request every pod benchmark sends, and what the plain bare server answers to it. */
export const CREATE_POD = {
  body: createPodBody,
  fixedAnswer: { status: 201, body: JSON.stringify({ id: 'pod-00001', status: 'PROVISIONING' }) } satisfies BareAnswer,
  send: (url: string, key: string): Promise<Dispatcher.ResponseData> =>
    request(`${url}/v2/pods`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: createPodBody }),
};

/**
 * The emulator's answer to one request (status, body, RateLimit headers), made in a fresh
 * world by `send`: what a bare server answers to stand in for that operation's I/O.
 */
export async function sampleAnswer(emulatorUrl: string, send: (world: { key: string; endpointId: string }) => Promise<Dispatcher.ResponseData>): Promise<BareAnswer> {
  return inWorld(emulatorUrl, async (w) => {
    const res = await send(w);
    const body = await res.body.text();
    return { status: res.statusCode, body, headers: { RateLimit: String(res.headers.ratelimit), 'RateLimit-Policy': String(res.headers['ratelimit-policy']) } };
  });
}

/**
 * A bare server that answers the same bytes as the emulator's answer to one request, reads and
 * parses each body, and writes its answers the emulator's way (at the end of each event-loop
 * turn): what the operation's own I/O costs on this machine, before any work.
 */
export async function ioTwin(emulatorUrl: string, send: (world: { key: string; endpointId: string }) => Promise<Dispatcher.ResponseData>): Promise<Served & { bytes: number }> {
  const sample = await sampleAnswer(emulatorUrl, send);
  return { ...(await serve('bare', { bare: { ...sample, parse: true, batch: true } })), bytes: Buffer.byteLength(sample.body) };
}

/** A world on the emulator with quotas no benchmark reaches, and worker timings of 0. */
export async function benchWorld(url: string): Promise<{ id: string; key: string; endpointId: string }> {
  const res = await request(`${url}/__emulator/worlds`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ quotas: { minute: 1_000_000_000, hour: 1_000_000_000, day: 1_000_000_000 } }),
  });
  const world = (await res.body.json()) as { id: string; keys: { main: string }; seeded: { CPC_ENDPOINT_ID: string } };
  // Enough warm workers that no job waits for a cold start.
  await request(`${url}/__emulator/worlds/${world.id}/timings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ coldStartMs: 0, executionMs: 0 }) }).then((r) => r.body.text());
  return { id: world.id, key: world.keys.main, endpointId: world.seeded.CPC_ENDPOINT_ID };
}

/**
 * Runs `fn` in a fresh bench world and deletes the world afterwards, so each measurement
 * starts with an empty store (everything created is kept until then).
 */
export async function inWorld<T>(url: string, fn: (world: { id: string; key: string; endpointId: string }) => Promise<T>): Promise<T> {
  const world = await benchWorld(url);
  try {
    return await fn(world);
  } finally {
    await (await request(`${url}/__emulator/worlds/${world.id}`, { method: 'DELETE' })).body.text();
  }
}

/**
 * Alternates the bare server and the emulator (and `also`, when given, after them) for
 * `rounds` rounds and compares them round by round: on a shared machine the bare server's
 * figure alone moves by a fifth from run to run, so the median of the per-round ratios is the
 * figure to trust.
 */
export async function alternate(rounds: number, bare: () => Promise<number>, emulator: () => Promise<number>, also?: () => Promise<number>): Promise<{ bare: number[]; emulator: number[]; also: number[]; ratios: number[]; median: number }> {
  const out = { bare: [] as number[], emulator: [] as number[], also: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    out.bare.push(await bare());
    out.emulator.push(await emulator());
    if (also) out.also.push(await also());
  }
  const { ratios, median } = ratiosOf(out.emulator, out.bare);
  return { ...out, ratios, median };
}

/** `a[i] / b[i]` for each round, and their median. */
export function ratiosOf(a: readonly number[], b: readonly number[]): { ratios: number[]; median: number } {
  const ratios = a.map((x, i) => x / b[i]!);
  const sorted = [...ratios].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return { ratios, median: sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2 };
}

export async function advance(url: string, world: string, ms: number): Promise<void> {
  const res = await request(`${url}/__emulator/worlds/${world}/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
  await res.body.text();
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

