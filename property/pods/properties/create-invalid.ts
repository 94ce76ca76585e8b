import fc from 'fast-check';
import type { ApiClient } from '../../../lib/client/api.js';
import { rejectionConformance } from '../../../contract/checks/rejection.js';
import { invalidCreatePodRequest } from '../arbitraries/invalid-create-pod-request.js';
import type { Mutation } from '../arbitraries/mutations.js';
import type { PodContext } from '../support/context.js';
import { throwFindings } from '../../../lib/errors.js';

/**
 * Every CreatePodRequest that breaks exactly one rule is refused with the status the spec
 * states for that rule (or some 4xx where it says "not shown"), never 2xx or 5xx, with an
 * `application/problem+json` body. `only` narrows the mutations (one property per group).
 */
export function invalidCreateProperty(api: ApiClient, ctx: PodContext, only?: (m: Mutation) => boolean, onCreated: (podId: string) => void = () => undefined) {
  return fc.asyncProperty(invalidCreatePodRequest(ctx, only), async (c) => {
    const res = await api.op<{ id?: string }>('createPod', { body: c.body });
    if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'string') onCreated(res.body.id);
    throwFindings(rejectionConformance(c.rule, res, c.expected));
  });
}
