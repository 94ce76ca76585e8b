/**
 * The target a scenario drives, resolved in `setup()`: when `GET {base}/__emulator` answers as
 * the emulator's control surface, the scenario creates its own world there (its quotas, an
 * `auto` clock at a chosen scale or a `manual` one the scenario advances, one account per key it
 * needs) and deletes it in `teardown()`; otherwise it uses the keys from the environment and
 * the real clock (scale 1).
 */
import http from 'k6/http';
import { envKeys, seedOf, targetUrls, type Env } from './config.ts';
import { ControlSurfaceError } from '../../lib/iso/errors.ts';

export interface Target {
  baseUrl: string;
  serverlessUrl: string;
  /** True when the emulator's control surface answered. */
  emulator: boolean;
  worldId?: string;
  /** One key per account (the first is the world's main account). */
  keys: string[];
  /** The queue-based endpoint running the conformance handler, when there is one. */
  endpointId?: string;
  /** Virtual milliseconds per real millisecond: expected real durations are virtual ones divided by it. */
  scale: number;
  /**
   * A world with a manual clock: its virtual time (epoch ms) when it was created. That time
   * moves only when the scenario advances it ({@link advanceClock}).
   */
  manualClockMs?: number;
}

export interface WorldRequest {
  quotas: { minute: number; hour: number; day: number };
  /** Virtual ms per real ms of the world's auto clock; 0 keeps the clock manual. */
  scale: number;
}


const JSON_HEADERS = { 'Content-Type': 'application/json' };
// Control calls are not the target's API under test: a 404 on a real target is the answer.
const TAGS = { tags: { phase: 'control' }, responseCallback: http.expectedStatuses({ min: 200, max: 499 }) };

function controlJson(method: 'POST' | 'GET', url: string, body: unknown, expected: number): Record<string, unknown> {
  const res = http.request(method, url, body === undefined ? null : JSON.stringify(body), { headers: JSON_HEADERS, ...TAGS });
  if (res.status !== expected) throw new ControlSurfaceError(`${method} ${url.replace(/\/__emulator.*/, '/__emulator…')} answered ${res.status}, expected ${expected}`);
  return res.json() as Record<string, unknown>;
}

/** True when `{base}/__emulator` is the emulator's control surface. */
export function hasControlSurface(baseUrl: string): boolean {
  const res = http.get(`${baseUrl}/__emulator`, TAGS);
  if (res.status !== 200) return false;
  try {
    return (res.json() as { emulator?: unknown }).emulator === 'compute-platform-emulator';
  } catch {
    return false;
  }
}

/**
 * Resolves the target for a scenario needing `accounts` separate accounts (rate limits are
 * per user). On the emulator the world is created with `world`; on a real target, keys come
 * from CPC_LOAD_API_KEYS or CPC_API_KEY and may be fewer than asked.
 */
export function openTarget(env: Env, world: WorldRequest, accounts: number): Target {
  const { baseUrl, serverlessUrl } = targetUrls(env);
  if (!hasControlSurface(baseUrl)) {
    return { baseUrl, serverlessUrl, emulator: false, keys: envKeys(env), endpointId: env.CPC_ENDPOINT_ID?.trim() || undefined, scale: 1 };
  }
  // CPC_LOAD_EMULATOR_FAULTS switches emulator faults on in the scenario's world, to watch a threshold catch them.
  const faults = (env.CPC_LOAD_EMULATOR_FAULTS ?? '').split(',').map((f) => f.trim()).filter((f) => f.length > 0);
  const created = controlJson('POST', `${baseUrl}/__emulator/worlds`, {
    quotas: world.quotas, seed: seedOf(env), faults,
    clock: world.scale > 0 ? { mode: 'auto', scale: world.scale } : { mode: 'manual' },
  }, 201);
  const worldId = String(created.id);
  const keys = [String((created.keys as Record<string, unknown>).main)];
  for (let i = 1; i < accounts; i++) {
    const minted = controlJson('POST', `${baseUrl}/__emulator/worlds/${worldId}/keys`, { accountName: `load-${i + 1}` }, 201);
    keys.push(String(minted.key));
  }
  const seeded = (created.seeded ?? {}) as Record<string, unknown>;
  return {
    baseUrl, serverlessUrl, emulator: true, worldId, keys,
    endpointId: typeof seeded.CPC_ENDPOINT_ID === 'string' ? seeded.CPC_ENDPOINT_ID : undefined,
    scale: world.scale > 0 ? world.scale : 1,
    ...(world.scale > 0 ? {} : { manualClockMs: Number(created.nowMs) }),
  };
}

/**
 * One target per account, for a scenario whose VUs each move their own clock: on the emulator
 * every account gets a world of its own (a VU advancing its world's manual clock never moves
 * another VU's); on a real target one target holds the environment's keys, which share the
 * real clock.
 */
export function openTargetPerAccount(env: Env, world: WorldRequest, accounts: number): Target[] {
  const targets = [openTarget(env, world, 1)];
  if (!targets[0]!.emulator) return targets;
  for (let i = 1; i < accounts; i++) targets.push(openTarget(env, world, 1));
  return targets;
}

/**
 * Advances the clock of the target's world by `ms` virtual ms (the world's timers fire in
 * order) and returns the world's virtual time after it (epoch ms).
 */
export function advanceClock(target: Target, ms: number): number {
  const world = controlJson('POST', `${target.baseUrl}/__emulator/worlds/${target.worldId ?? ''}/clock`, { advanceMs: ms }, 200);
  return Number(world.nowMs);
}

/** Deletes the scenario's world (teardown); nothing to do on a real target. */
export function closeTarget(target: Target): void {
  if (target.emulator && target.worldId) http.del(`${target.baseUrl}/__emulator/worlds/${target.worldId}`, null, TAGS);
}

/** REST v2 and REST v1 carry the key as a bearer token (spec, Authentication). */
export const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });
/** Serverless job operations carry the bare key in `authorization` (spec, Authentication). */
export const serverlessAuth = (key: string): Record<string, string> => ({ authorization: key });
