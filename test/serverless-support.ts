// Shared by the serverless unit tests: an emulator on a real port, a world, and small call helpers.
import assert from 'node:assert/strict';
import { request } from 'undici';
import { harnessAgent } from './agent-support.js';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import type { World } from '../emulator/world.js';

export interface Reply { status: number; headers: Record<string, unknown>; body: Record<string, unknown> | undefined; text: string }

export interface Harness {
  emu: RunningEmulator;
  world: World;
  worldId: string;
  keys: { main: string; readonly: string; other: string };
  endpointId: string;
  templateId: string;
  call(method: string, path: string, options?: { body?: unknown; raw?: string | Buffer; auth?: string | null; headers?: Record<string, string> }): Promise<Reply>;
  control(method: string, path: string, body?: unknown): Promise<Reply>;
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function harness(worldOptions: Record<string, unknown> = {}): Promise<Harness> {
  const emu = await startEmulator({ port: 0 });
  const agent = harnessAgent();
  const send = async (method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Reply> => {
    const res = await request(emu.url + path, { dispatcher: agent, method: method as 'GET', headers, body });
    const text = await res.body.text();
    let parsed: Record<string, unknown> | undefined;
    try { parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined; } catch { parsed = undefined; }
    return { status: res.statusCode, headers: res.headers, body: parsed, text };
  };
  const control = (method: string, path: string, body?: unknown) =>
    send(method, `/__emulator${path}`, { 'content-type': 'application/json' }, body === undefined ? undefined : JSON.stringify(body));
  const created = await control('POST', '/worlds', { quotas: { minute: 1_000_000, hour: 10_000_000, day: 100_000_000 }, ...worldOptions });
  assert.equal(created.status, 201, created.text);
  const info = created.body as { id: string; keys: Harness['keys']; seeded: Record<string, string> };
  const h: Harness = {
    emu, worldId: info.id, keys: info.keys, world: emu.emulator.worlds.get(info.id)!,
    endpointId: info.seeded.CPC_ENDPOINT_ID!, templateId: info.seeded.CPC_TEMPLATE_ID!,
    call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.auth !== null) headers.authorization = options.auth ?? info.keys.main;
      let body: string | Buffer | undefined;
      if (options.raw !== undefined) body = options.raw;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      return send(method, path, headers, body);
    },
    control,
    async advance(ms) { assert.equal((await control('POST', `/worlds/${info.id}/clock`, { advanceMs: ms })).status, 200); },
    close: async () => { await agent.close(); await emu.close(); },
  };
  return h;
}

/** Submits with /run and returns the job id. */
export async function submit(h: Harness, input: Record<string, unknown>, endpointId = h.endpointId): Promise<string> {
  const res = await h.call('POST', `/v2/${endpointId}/run`, { body: { input } });
  assert.equal(res.status, 200, res.text);
  return res.body!.id as string;
}

export async function statusOf(h: Harness, id: string, endpointId = h.endpointId): Promise<string | number> {
  const res = await h.call('GET', `/v2/${endpointId}/status/${id}`);
  return res.status === 200 ? (res.body!.status as string) : res.status;
}

export async function health(h: Harness, endpointId = h.endpointId): Promise<{ jobs: Record<string, number>; workers: Record<string, number> }> {
  const res = await h.call('GET', `/v2/${endpointId}/health`);
  assert.equal(res.status, 200, res.text);
  return res.body as { jobs: Record<string, number>; workers: Record<string, number> };
}

/**
 * Polls `done` every 5 ms until it holds; after `polls` tries it fails naming `what` (a job that
 * never starts fails the test instead of hanging it). The count bounds a hang, not a duration.
 */
export async function eventually(done: () => boolean | Promise<boolean>, what: string, polls = 2000): Promise<void> {
  for (let tries = 0; !(await done()); tries++) {
    if (tries >= polls) assert.fail(`${what}: not so after ${polls} polls`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
