import type { ApiClient, ApiResult, CallOptions } from '../../../../lib/client/api.js';
import type { CreatePodRequest, Pod } from '../../../../lib/types.gen.js';
import { NonConformanceError } from '../../../../lib/errors.js';
import { conform, unchecked, type Finding } from '../../../support/rules.js';
import { isUnread, type Listing, type Unread } from '../../../support/reads.js';
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

/** What the refusals made, by request key, and the keys whose "made nothing" could not be told, with why. */
export interface Made { readonly by: ReadonlyMap<string, readonly string[]>; readonly untold: ReadonlyMap<string, string> }

/** What one test's refusals sent: the names under its prefix (name → request key), and each unnamed request's listings. */
export interface Sent {
  readonly prefix: string;
  readonly named: ReadonlyMap<string, string>;
  readonly windows: readonly { readonly key: string; readonly before: Listing | Unread; readonly after?: Listing | Unread }[];
}

/**
 * The pods `sent` made, seen in the listing `now` (pure: `newIn` is `PodKit.newIn`). A pod named
 * as a request sent is that request's. A pod under the test's prefix whose name matches no name
 * sent (a target that changed it) is laid to none: which request made it cannot be told, so each
 * named request without a pod of its own is untold, naming the pod. An unnamed request's pods are
 * the new ids of its window. A listing that was not read leaves the requests it was to decide
 * untold, never "nothing made".
 */
export function attribute(sent: Sent, now: Listing | Unread, newIn: (before: Listing, after: Listing) => string[]): Made {
  const by = new Map<string, string[]>();
  const untold = new Map<string, string>();
  const add = (key: string, id: string) => by.set(key, [...(by.get(key) ?? []), id]);
  const namedKeys = new Set(sent.named.values());
  if (isUnread(now)) {
    for (const k of namedKeys) untold.set(k, `the listing after the refusals: ${now.unread}`);
  } else {
    const strays: string[] = [];
    for (const [id, name] of now) {
      if (!name?.startsWith(sent.prefix)) continue;
      const key = sent.named.get(name);
      if (key !== undefined) add(key, id);
      else strays.push(id);
    }
    if (strays.length) for (const k of namedKeys) untold.set(k, `pod(s) ${strays.join(', ')} carry this test's name prefix but no name it sent: which request made them cannot be told`);
  }
  for (const w of sent.windows) {
    const after = w.after ?? now;
    const unread = [w.before, after].find(isUnread);
    if (unread) { untold.set(w.key, `a listing around the unnamed request: ${unread.unread}`); continue; }
    for (const id of newIn(w.before as Listing, after as Listing)) if (!(after as Listing).get(id)?.startsWith(sent.prefix)) add(w.key, id);
  }
  // A request a pod is laid to is decided: it made one.
  for (const k of by.keys()) untold.delete(k);
  return { by, untold };
}

/**
 * "Request `key` created nothing", as `rule`'s finding: a finding naming the pods it made; none
 * when it made none; none either when that could not be told, the rule then marked unchecked
 * with why (a failed check of the same rule still fails it).
 */
export function madeNothing(made: Made, key: string, rule: string, what = 'a refused createPod still created a pod'): Finding[] {
  const ids = made.by.get(key);
  if (ids?.length) return [{ rule, message: `${what} (${ids.join(', ')})` }];
  const why = made.untold.get(key);
  if (why !== undefined) unchecked(rule, `whether it created a pod: ${why}`);
  return [];
}

/**
 * Refusals of one test: each body sent once, and one listing afterwards for pods they made,
 * each pod laid to the request that made it ({@link attribute}).
 *
 * An invalid body is refused whatever GPU type it names, so a 400 is the answer the test
 * expects, not a capacity refusal to try on the next candidate type (that retry is for bodies
 * the test holds valid: `PodKit.create`, here {@link create}). Whether a refused create made a
 * pod anyway is told by name: a body named by this test (`uniqueName`) makes a pod of that
 * name, so one listing after all the refusals finds it, and its name tells which request made
 * it (a test sending several gives each body a name of its own). A body without such a name (no
 * name, an empty one, no body) is told apart by ids: the pods new between a listing taken just
 * before it and the next listing are its own. Unnamed bodies are best sent last: each then
 * costs one listing, and a named body sent after one costs a listing that closes the unnamed
 * one's window.
 */
export function refusals(ctx: { api: ApiClient; pods: PodKit; uniqueName: UniqueName }) {
  const named = new Map<string, string>();
  const windows: { key: string; before: Listing | Unread; after?: Listing | Unread }[] = [];
  const list = async (): Promise<Listing | Unread> => {
    const now = await ctx.pods.snapshot();
    const open = windows.at(-1);
    if (open && !open.after) open.after = now;
    return now;
  };
  /** Records `body` as sent under `key`: its name, or a listing opening its window. */
  async function before(body: unknown, key: string): Promise<void> {
    const name = (body as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string' && name.startsWith(ctx.uniqueName.prefix)) {
      if (windows.at(-1) && !windows.at(-1)!.after) await list();
      named.set(name, key);
    } else {
      windows.push({ key, before: await list() });
    }
  }
  /** What the refusals sent so far made, by request key (one listing). */
  async function madeBy(): Promise<Made> {
    return attribute({ prefix: ctx.uniqueName.prefix, named, windows }, await list(), (b, a) => ctx.pods.newIn(b, a));
  }
  return {
    /** Sends `body` once; `key` names the request for {@link madeBy} (default `refusal`). */
    async send(body: unknown, options: Omit<CallOptions, 'body'> = {}, key = 'refusal'): Promise<ApiResult<Pod>> {
      await before(body, key);
      const res = await ctx.api.op<Pod>('createPod', { ...options, body });
      if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'string') ctx.pods.track(res.body.id);
      return res;
    },
    /** Sends `body` as `PodKit.create` does (on the next GPU candidates while answered 400), recorded as {@link send} records. */
    async create(body: unknown, key = 'refusal'): Promise<ApiResult<Pod>> {
      await before(body, key);
      return ctx.pods.create(body);
    },
    madeBy,
    /** "The refusals sent so far created nothing", as `rule`'s finding ({@link madeNothing} over every request). */
    async madeNothing(rule: string, what?: string): Promise<Finding[]> {
      const made = await madeBy();
      const all: Made = { by: new Map([['all', [...new Set([...made.by.values()].flat())]]]), untold: new Map(made.untold.size ? [['all', [...new Set(made.untold.values())].join('; ')]] : []) };
      return madeNothing(all, 'all', rule, what);
    },
  };
}
