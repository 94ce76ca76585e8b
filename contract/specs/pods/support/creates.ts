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

type Listing = Map<string, string | undefined>;

/**
 * Refusals of one test: each body sent once, and one listing afterwards for pods they made,
 * each pod laid to the request that made it.
 *
 * An invalid body is refused whatever GPU type it names, so a 400 is the answer the test
 * expects, not a capacity refusal to try on the next candidate type (that retry is for bodies
 * the test holds valid: `PodKit.create`). Whether a refused create made a pod anyway is told by
 * name: a body named by this test (`uniqueName`) makes a pod of that name, so one listing after
 * all the refusals finds it, and its name tells which request made it (a test sending several
 * gives each body a name of its own). A body without such a name (no name, an empty one, no
 * body) is told apart by ids: the pods new between a listing taken just before it and the next
 * listing are its own. Unnamed bodies are best sent last: each then costs one listing, and a
 * named body sent after one costs a listing that closes the unnamed one's window.
 */
export function refusals(ctx: { api: ApiClient; pods: PodKit; uniqueName: UniqueName }) {
  /** Names sent by this test, each with the key of the request that sent it. */
  const named = new Map<string, string>();
  /** Unnamed requests: the listing before each, and the one that closed its window (the next one taken). */
  const windows: { key: string; before: Listing; after?: Listing }[] = [];
  const list = async (): Promise<Listing> => {
    const now = await ctx.pods.snapshot();
    const open = windows.at(-1);
    if (open && !open.after) open.after = now;
    return now;
  };
  /**
   * The pods the refusals sent so far made, by request key (one listing). A pod under this
   * test's prefix whose name no request sent exactly (a target that changed it) is laid to
   * every named request: which one made it cannot be told.
   */
  async function madeBy(): Promise<Map<string, string[]>> {
    const now = await list();
    const by = new Map<string, string[]>();
    const add = (key: string, id: string) => by.set(key, [...(by.get(key) ?? []), id]);
    for (const [id, name] of now) {
      if (!name?.startsWith(ctx.uniqueName.prefix)) continue;
      const key = named.get(name);
      if (key !== undefined) add(key, id);
      else for (const k of new Set(named.values())) add(k, id);
    }
    for (const w of windows) {
      const after = w.after ?? now;
      for (const id of ctx.pods.newIn(w.before, after)) if (!after.get(id)?.startsWith(ctx.uniqueName.prefix)) add(w.key, id);
    }
    return by;
  }
  return {
    /** Sends `body` once; `key` names the request for {@link madeBy} (default `refusal`). */
    async send(body: unknown, options: Omit<CallOptions, 'body'> = {}, key = 'refusal'): Promise<ApiResult<Pod>> {
      const name = (body as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string' && name.startsWith(ctx.uniqueName.prefix)) {
        if (windows.at(-1) && !windows.at(-1)!.after) await list();
        named.set(name, key);
      } else {
        windows.push({ key, before: await list() });
      }
      const res = await ctx.api.op<Pod>('createPod', { ...options, body });
      if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'string') ctx.pods.track(res.body.id);
      return res;
    },
    madeBy,
    /** The pods the refusals sent so far made, whichever request made them. */
    async made(): Promise<string[]> {
      return [...new Set([...(await madeBy()).values()].flat())];
    },
  };
}
