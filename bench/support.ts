import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

export interface Served { child: ChildProcess; url: string; stop(): void; measure(): Promise<{ rss: number; heapUsed: number; gc: boolean }> }

/** Starts `bench/serve.ts <kind>` in a child process and waits for its port. */
export async function serve(kind: 'emulator' | 'bare', exposeGc = false): Promise<Served> {
  const child = fork(fileURLToPath(new URL('./serve.ts', import.meta.url)), [kind], {
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

export async function advance(url: string, world: string, ms: number): Promise<void> {
  const res = await request(`${url}/__emulator/worlds/${world}/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
  await res.body.text();
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A benchmark could not run as planned (a server died, a batch failed). */
export class BenchError extends Error {
  readonly code = 'CPC_BENCH';
}
