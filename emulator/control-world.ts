import { fail } from './http/reply.js';
import type { ControlCtx } from './types.js';
import type { World } from './world.js';

/** The world a control route names (`/worlds/:world`): an unknown one is a `not-found` problem. */
export function worldOf(ctx: ControlCtx): World {
  const world = ctx.registry.worlds.get(ctx.params.world ?? '');
  if (!world) fail('not-found', `No world ${ctx.params.world}.`);
  return world!;
}
