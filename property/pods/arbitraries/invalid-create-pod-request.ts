import fc from 'fast-check';
import { SetupError } from '../../../lib/errors.js';
import type { PodContext } from '../support/context.js';
import { MUTATIONS, type Body, type Expected, type Mutation } from './mutations.js';
import { hasCpuFlavors, validCreatePodRequest } from './valid-create-pod-request.js';

/** An invalid request: which rule it breaks, the status the spec states, and the body. */
export interface InvalidCase {
  label: string;
  rule: string;
  expected: Expected;
  body: Body;
}

/** Whether the target's catalog and volumes let the mutation be built. */
export function buildable(m: Mutation, ctx: PodContext): boolean {
  return m.needs.every((n) => (n === 'gpu' ? ctx.catalog.gpus.length > 0 : n === 'cpu' || n === 'cpu-flavors' ? hasCpuFlavors(ctx) : ctx.volumes.length > 0));
}

/**
 * An invalid CreatePodRequest: a valid one (see {@link validCreatePodRequest}) of the kind the
 * mutation starts from, with exactly one labelled mutation applied. Mutations the context
 * cannot build (no volumes, no CPU flavor...) are left out. Shrinking keeps the mutation and
 * minimises the valid part.
 */
export function invalidCreatePodRequest(ctx: PodContext, only?: (m: Mutation) => boolean): fc.Arbitrary<InvalidCase> {
  const usable = MUTATIONS.filter((m) => buildable(m, ctx) && (only?.(m) ?? true));
  if (usable.length === 0) throw new SetupError('no mutation can be built from this catalog');
  return fc.oneof(...usable.map((m) => {
    const kind = m.needs.includes('gpu') ? 'gpu' : m.needs.includes('cpu') ? 'cpu' : undefined;
    const base = validCreatePodRequest(ctx, kind ? { kind } : {}) as unknown as fc.Arbitrary<Body>;
    return base.chain((b) => m.mutate(b, ctx)).map((body): InvalidCase => ({ label: m.label, rule: m.rule, expected: m.expected, body }));
  }));
}
