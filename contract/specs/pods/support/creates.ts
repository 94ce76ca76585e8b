import type { ApiClient, ApiResult, CallOptions } from '../../../../lib/client/api.js';
import type { CreatePodRequest, Pod } from '../../../../lib/types.gen.js';
import { NonConformanceError } from '../../../../lib/errors.js';
import { conform } from '../../../support/rules.js';
import type { UniqueName } from '../../../../lib/cleanup.js';
import type { PodKit, PodPool } from './fixtures.js';

/**
 * Create answers without creating: the pooled pods' createPod answers judged as any create
 * answer is (lib/plan.ts), and refusals sent once with one listing to tell whether they made a
 * pod anyway.
 */

export type PooledPod = PodPool;

/**
 * A pooled pod's createPod answer (201, or the pool's maker failed `POD.CREATE.201_POD`) with
 * the body it answered. The pool's pods are valid bodies of a kind the test's rules speak of
 * (a minimal GPU or CPU pod, one with a persistent or a network mount): their create answer is
 * the test's evidence as a create of its own would be. `refused` names the rules a refusal of
 * that body breaks besides `POD.CREATE.201_POD` (what `acceptedConformance` would say of a 4xx
 * to the test's own create): they are failed too when the pool's create was refused.
 */
export async function pooledCreate(pods: PodKit, name: PooledPod, ...refused: string[]): Promise<{ sent: CreatePodRequest; pod: Pod }> {
  try {
    return await pods.pooledAnswer(name);
  } catch (e) {
    const status = e instanceof NonConformanceError ? /answered (\d{3})/.exec(e.message)?.[1] : undefined;
    if (status !== undefined && Number(status) >= 400 && refused.length > 0) {
      conform(refused.map((rule) => ({ rule, message: `the pooled ${name} pod's valid createPod answered ${status}: ${e instanceof Error ? e.message.slice(0, 300) : ''}` })));
    }
    throw e;
  }
}

/**
 * Refusals of one test: each body sent once, and one listing afterwards for pods they made.
 *
 * An invalid body is refused whatever GPU type it names, so a 400 is the answer the test
 * expects, not a capacity refusal to try on the next candidate type (that retry is for bodies
 * the test holds valid: `PodKit.create`). Whether a refused create made a pod anyway is told by
 * name: a body named by this test (`uniqueName`) makes a pod of that name, so one listing after
 * the refusals finds it. A body without such a name (no name, an empty one, no body) is told
 * apart by comparing ids with a listing taken before it was sent.
 */
export function refusals(ctx: { api: ApiClient; pods: PodKit; uniqueName: UniqueName }) {
  let before: Map<string, string | undefined> | undefined;
  return {
    async send(body: unknown, options: Omit<CallOptions, 'body'> = {}): Promise<ApiResult<Pod>> {
      const name = (body as { name?: unknown } | undefined)?.name;
      if (!(typeof name === 'string' && name.startsWith(ctx.uniqueName.prefix))) before ??= await ctx.pods.snapshot();
      const res = await ctx.api.op<Pod>('createPod', { ...options, body });
      if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'string') ctx.pods.track(res.body.id);
      return res;
    },
    /** The pods the refusals sent so far made: named by this test, or (for unnamed bodies) new since. */
    async made(): Promise<string[]> {
      if (before) return ctx.pods.madeSince(before);
      const now = await ctx.pods.snapshot();
      return [...now].filter(([, name]) => name?.startsWith(ctx.uniqueName.prefix)).map(([id]) => id);
    },
  };
}
