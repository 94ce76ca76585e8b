import { fail, json } from '../http/reply.js';
import type { ControlRoute } from '../types.js';
import { gpuAvailabilitySlice, knownGpuTypeIds, tierOf } from './gpu-types.js';
import { parseTimings } from './settings.js';
import { jobsSlice } from './store.js';
import { worldOf } from '../control-world.js';

/**
 * Control routes of the serverless surface, under `/__emulator`: worker timings (cold start,
 * handler time, execution timeout, automatic retries) and which GPU types have no capacity.
 */
export const serverlessControlRoutes: ControlRoute[] = [
  { method: 'GET', path: '/worlds/:world/timings', handle: (ctx) => json(200, worldOf(ctx).get(jobsSlice).timings()) },
  {
    method: 'PUT', path: '/worlds/:world/timings',
    handle(ctx) {
      const world = worldOf(ctx);
      const parsed = parseTimings(ctx.body ?? {});
      if (!parsed.ok) fail('validation-failed', 'Invalid timings.', parsed.errors);
      return json(200, world.get(jobsSlice).setTimings((parsed as { timings: object }).timings));
    },
  },
  {
    method: 'PUT', path: '/worlds/:world/gpu-availability',
    handle(ctx) {
      const world = worldOf(ctx);
      const body = ctx.body as { unavailable?: unknown } | undefined;
      const list = body?.unavailable;
      if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' || !tierOf(id))) {
        fail('validation-failed', `\`unavailable\` must be an array of GPU type ids (${knownGpuTypeIds().join(', ')}).`);
      }
      world.get(gpuAvailabilitySlice).set(list as string[]);
      return json(200, { unavailable: [...world.get(gpuAvailabilitySlice).unavailable] });
    },
  },
];
