import { WORLD_SEEDERS } from '../assembly.js';
import { FAULT_IDS, faultCatalog } from '../faults.js';
import { fail, json, noContent } from '../http/reply.js';
import { WINDOWS, type Quotas } from '../rate-limit.js';
import { serverlessControlRoutes } from '../serverless/control-routes.js';
import type { ControlRoute } from '../types.js';
import { variantCatalog, variantSets } from '../variants.js';
import type { Scope, World } from '../world.js';
import { UnknownFaultError, UnknownVariantError } from '../../lib/errors.js';
import { parseChaosOption } from '../chaos/control.js';
import { worldOf } from '../control-world.js';

export const EMULATOR_VERSION = '0.1.0';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isObject(body)) fail('validation-failed', 'The control body must be a JSON object.');
  return body as Record<string, unknown>;
}

function parseQuotas(value: unknown): Partial<Quotas> {
  if (value === undefined) return {};
  if (!isObject(value)) fail('validation-failed', '`quotas` must be an object with minute, hour, day.');
  const out: Partial<Quotas> = {};
  const errors: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!WINDOWS.some((w) => w.name === k)) errors.push(`/quotas/${k}: unknown window`);
    else if (!Number.isInteger(v) || (v as number) < 0) errors.push(`/quotas/${k}: must be an integer >= 0`);
    else out[k as keyof Quotas] = v as number;
  }
  if (errors.length) fail('validation-failed', 'Invalid quotas.', errors);
  return out;
}

const NAMES = { faults: ['fault ids', 'fault'], variants: ['variant or variant-set names', 'variant'] } as const;

/** The `faults` or `variants` member of a control body: an array of names. */
function parseNames(value: unknown, field: keyof typeof NAMES): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((f) => typeof f !== 'string')) fail('validation-failed', `\`${field}\` must be an array of ${NAMES[field][0]}.`);
  return value as string[];
}

/** Switches the world's faults or variants; unknown names are a validation failure naming each. */
function applyNames(world: World, field: keyof typeof NAMES, names: string[]): void {
  try {
    if (field === 'faults') world.setFaults(names);
    else world.setVariants(names);
  } catch (e) {
    if (e instanceof UnknownFaultError || e instanceof UnknownVariantError) fail('validation-failed', e.message, e.ids.map((id) => `/${field}: unknown ${NAMES[field][1]} "${id}"`));
    throw e;
  }
}

function describe(world: World): Record<string, unknown> {
  return {
    id: world.id,
    now: new Date(world.clock.now()).toISOString(),
    nowMs: world.clock.now(),
    clock: world.clock.settings(),
    quotas: world.rateLimiter.quotas,
    faults: [...world.faults],
    variants: [...world.variants],
    outsideWorkers: world.outsideWorkers,
    ...(world.chaos ? { chaos: world.chaos.describe() } : {}),
  };
}

/**
 * The control surface under `/__emulator`: worlds, keys, quotas, the clock, faults and variants.
 * Never authenticated and never rate limited; it is how the suite drives the emulator.
 */
export const controlRoutes: ControlRoute[] = [
  {
    method: 'GET', path: '',
    handle: ({ registry }) => json(200, {
      emulator: 'compute-platform-emulator', version: EMULATOR_VERSION, defaultWorld: registry.defaultWorld.id,
      worlds: registry.worlds.size, faults: FAULT_IDS, variants: Object.keys(variantCatalog),
    }),
  },
  { method: 'GET', path: '/faults', handle: () => json(200, { faults: Object.entries(faultCatalog).map(([id, f]) => ({ id, ...f })) }) },
  {
    method: 'GET', path: '/variants',
    handle: () => json(200, {
      variants: Object.entries(variantCatalog).map(([id, v]) => ({ id, ...v })),
      sets: Object.entries(variantSets).map(([id, variants]) => ({ id, variants })),
    }),
  },
  {
    method: 'POST', path: '/worlds',
    handle: (ctx) => {
      const body = objectBody(ctx.body);
      const clock = isObject(body.clock) ? body.clock : {};
      if (clock.mode !== undefined && clock.mode !== 'manual' && clock.mode !== 'auto') fail('validation-failed', '`clock.mode` is manual or auto.');
      if (clock.scale !== undefined && !(typeof clock.scale === 'number' && clock.scale > 0)) fail('validation-failed', '`clock.scale` must be a number > 0.');
      const seed = body.seed === undefined ? undefined : Number(body.seed);
      if (seed !== undefined && !Number.isInteger(seed)) fail('validation-failed', '`seed` must be an integer.');
      const quotas = parseQuotas(body.quotas);
      const faults = parseNames(body.faults, 'faults');
      const variants = parseNames(body.variants, 'variants');
      const chaos = parseChaosOption(body.chaos);
      if (body.outsideWorkers !== undefined && typeof body.outsideWorkers !== 'boolean') fail('validation-failed', '`outsideWorkers` is a boolean.');
      const outsideWorkers = body.outsideWorkers === true;
      // Outside workers run in real time: their world's clock follows it unless told otherwise.
      const mode = (clock.mode as 'manual' | 'auto' | undefined) ?? (outsideWorkers ? 'auto' : undefined);
      const world = ctx.registry.createWorld({
        quotas, ...(seed !== undefined ? { seed } : {}), ...(chaos ? { chaos } : {}), ...(outsideWorkers ? { outsideWorkers } : {}),
        clock: { ...(mode ? { mode } : {}), ...(clock.scale ? { scale: clock.scale as number } : {}) },
      });
      try { applyNames(world, 'faults', faults); applyNames(world, 'variants', variants); } catch (e) { ctx.registry.deleteWorld(world.id); throw e; }
      const main = world.createAccount('main');
      const other = world.createAccount('other');
      const keys = {
        main: world.mintKey(main.id, ['read', 'write'], 'main').key,
        readonly: world.mintKey(main.id, ['read'], 'readonly').key,
        other: world.mintKey(other.id, ['read', 'write'], 'other').key,
        expired: world.mintKey(main.id, ['read', 'write'], 'expired', undefined, world.clock.now() - 1).key,
      };
      const seeded: Record<string, unknown> = {};
      for (const seeder of WORLD_SEEDERS) Object.assign(seeded, seeder(world, main.id));
      return json(201, { ...describe(world), accountId: main.id, otherAccountId: other.id, keys, seeded });
    },
  },
  { method: 'GET', path: '/worlds/:world', handle: (ctx) => json(200, describe(worldOf(ctx))) },
  {
    method: 'DELETE', path: '/worlds/:world',
    handle: (ctx) => {
      const world = worldOf(ctx);
      if (world === ctx.registry.defaultWorld) fail('conflict', 'The default world cannot be deleted; reset it instead.');
      ctx.registry.deleteWorld(world.id);
      return noContent();
    },
  },
  { method: 'POST', path: '/worlds/:world/reset', handle: (ctx) => { worldOf(ctx).resetState(); return noContent(); } },
  {
    method: 'POST', path: '/worlds/:world/clock',
    handle: (ctx) => {
      const world = worldOf(ctx);
      const body = objectBody(ctx.body);
      if (body.mode !== undefined || body.scale !== undefined) {
        if (body.mode !== undefined && body.mode !== 'manual' && body.mode !== 'auto') fail('validation-failed', '`mode` is manual or auto.');
        if (body.scale !== undefined && !(typeof body.scale === 'number' && body.scale > 0)) fail('validation-failed', '`scale` must be a number > 0.');
        world.clock.configure({ ...(body.mode ? { mode: body.mode as 'manual' | 'auto' } : {}), ...(body.scale ? { scale: body.scale as number } : {}) });
      }
      if (body.advanceMs !== undefined) {
        if (!Number.isInteger(body.advanceMs) || (body.advanceMs as number) < 0) fail('validation-failed', '`advanceMs` must be an integer >= 0.');
        world.clock.advance(body.advanceMs as number);
      }
      return json(200, describe(world));
    },
  },
  {
    method: 'PUT', path: '/worlds/:world/quotas',
    handle: (ctx) => {
      const world = worldOf(ctx);
      const body = objectBody(ctx.body);
      Object.assign(world.rateLimiter.quotas, parseQuotas(body.quotas ?? body));
      if (body.resetCounters === true) world.rateLimiter.reset();
      return json(200, describe(world));
    },
  },
  {
    method: 'PUT', path: '/worlds/:world/faults',
    handle: (ctx) => {
      const world = worldOf(ctx);
      applyNames(world, 'faults', parseNames(objectBody(ctx.body).faults, 'faults'));
      return json(200, describe(world));
    },
  },
  {
    method: 'PUT', path: '/worlds/:world/variants',
    handle: (ctx) => {
      const world = worldOf(ctx);
      applyNames(world, 'variants', parseNames(objectBody(ctx.body).variants, 'variants'));
      return json(200, describe(world));
    },
  },
  {
    method: 'POST', path: '/worlds/:world/keys',
    handle: (ctx) => {
      const world = worldOf(ctx);
      const body = objectBody(ctx.body);
      const accountId = typeof body.accountId === 'string' ? body.accountId : world.createAccount(String(body.accountName ?? 'minted')).id;
      if (!world.accounts.has(accountId)) fail('not-found', `No account ${accountId} in world ${world.id}.`);
      const scopes = body.scopes ?? ['read', 'write'];
      if (!Array.isArray(scopes) || scopes.some((s) => s !== 'read' && s !== 'write')) fail('validation-failed', '`scopes` is an array of "read" and "write".');
      if (body.expiresInMs !== undefined && !Number.isInteger(body.expiresInMs)) fail('validation-failed', '`expiresInMs` must be an integer (negative: already expired).');
      const expiresAt = body.expiresInMs === undefined ? undefined : world.clock.now() + (body.expiresInMs as number);
      const key = world.mintKey(accountId, scopes as Scope[], String(body.label ?? 'minted'), undefined, expiresAt);
      return json(201, { key: key.key, accountId, scopes: [...key.scopes], ...(expiresAt !== undefined ? { expiresAt } : {}) });
    },
  },
  // Surface-specific control routes (worker timings, GPU availability).
  ...serverlessControlRoutes,
];
