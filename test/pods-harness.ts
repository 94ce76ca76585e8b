// In-process harness for the pods unit tests: a real emulator on port 0, one world per test
// file (or per call), JSON requests with the world's keys, and the control surface's clock.
import { request, type Agent } from 'undici';
import { harnessAgent } from './agent-support.js';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';

// Answers are read loosely on purpose: each test asserts the fields it cares about.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

export interface PodsHarness {
  url: string;
  world: string;
  keys: { main: string; readonly: string; other: string };
  call(method: string, path: string, body?: unknown, key?: 'main' | 'readonly' | 'other'): Promise<{ status: number; type: string; json: Loose }>;
  advance(ms: number): Promise<void>;
  /** A world of its own (for faults), sharing the server. */
  fork(faults?: string[]): Promise<PodsHarness>;
  close(): Promise<void>;
}

async function control(agent: Agent, url: string, method: string, path: string, body?: unknown): Promise<Loose> {
  const res = await request(`${url}/__emulator${path}`, { dispatcher: agent, method: method as 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`control ${method} ${path}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function harnessFor(running: RunningEmulator, agent: Agent, faults: string[], owner: boolean): Promise<PodsHarness> {
  const info = await control(agent, running.url, 'POST', '/worlds', { faults, quotas: { minute: 1e6, hour: 1e7, day: 1e8 } });
  const h: PodsHarness = {
    url: running.url,
    world: info.id,
    keys: info.keys,
    async call(method, path, body, key = 'main') {
      const res = await request(running.url + path, {
        dispatcher: agent,
        method: method as 'GET',
        headers: { authorization: `Bearer ${info.keys[key]}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, type: String(res.headers['content-type'] ?? '').split(';')[0]!, json: text ? JSON.parse(text) : undefined };
    },
    advance: async (ms) => { await control(agent, running.url, 'POST', `/worlds/${info.id}/clock`, { advanceMs: ms }); },
    fork: (more = []) => harnessFor(running, agent, more, false),
    close: async () => { if (owner) { await agent.close(); await running.close(); } },
  };
  return h;
}

/** Starts an emulator and a world in it, with a connection pool of its own; `close()` stops both. */
export async function podsHarness(faults: string[] = []): Promise<PodsHarness> {
  return harnessFor(await startEmulator({ port: 0 }), harnessAgent(), faults, true);
}

export const GPU = { name: 'unit', image: 'busybox:latest', gpu: { id: 'NVIDIA L40S' } };
export const AMD = { name: 'unit', image: 'busybox:latest', gpu: { id: 'AMD Instinct MI300X OAM' } };
export const CPU = { name: 'unit', image: 'busybox:latest', cpu: { id: 'cpu3c', vcpuCount: 4 } };
