import { listItems } from '../../lib/pod-catalog.js';
import type { Mounts } from '../../lib/types.gen.js';

/**
 * Reads a check decides from, taken only when the answer is what was asked for: a listing or a
 * read that failed (a 5xx, a 429, a problem+json, a body of another shape) is `Unread`, never
 * "no pods" or "no mounts". A check that needed it then says it could not decide (`unchecked`),
 * instead of passing "nothing was made" on an empty list or failing on a missing field. Pure:
 * each takes the answer already received.
 */

/** A read that did not answer what was asked: why, for the rule left unchecked. */
export interface Unread { readonly unread: string }

/** The caller's pods as listed: id → name (undefined when the pod has no string name). */
export type Listing = ReadonlyMap<string, string | undefined>;

/** An answer as the suite's client gives it (only what these reads look at). */
interface Answer { readonly status: number; readonly body?: unknown; readonly contentType?: string; readonly headers?: Readonly<Record<string, string>> }

export const isUnread = (x: unknown): x is Unread => typeof x === 'object' && x !== null && typeof (x as Unread).unread === 'string';

/** A 2xx that is not a problem: a problem+json body (with its one `errors` array) is never a listing, whatever its status. */
const success = (res: Answer): boolean => res.status >= 200 && res.status < 300 && !/^application\/problem\+json\b/i.test(res.contentType ?? res.headers?.['content-type'] ?? '');

/** Why an answer is not a read: its status, and what its body was. */
const why = (what: string, res: Answer, shape: string): Unread => ({ unread: `${what} answered ${res.status}${success(res) ? ` with ${shape}` : ''}` });

/**
 * The pods of a listPods answer (wrapped `{pods: [...]}` or bare: the spec shows neither), or
 * `Unread` unless it is a 2xx whose body is a list.
 */
export function podListing(res: Answer): Listing | Unread {
  const items = success(res) ? listItems<{ id?: unknown; name?: unknown } | null>(res.body, 'pods')?.items : undefined;
  if (!items) return why('listPods', res, 'a body that is not a list');
  return new Map(items.filter((p) => typeof p?.id === 'string').map((p) => [p!.id as string, typeof p!.name === 'string' ? p!.name : undefined]));
}

/**
 * The mounts of a getPod answer for pod `podId` (undefined: the pod shows none), or `Unread`
 * unless it is a 2xx whose body is that Pod.
 */
export function podMounts(res: Answer, podId: string): Mounts | undefined | Unread {
  const pod = res.body as { id?: unknown; mounts?: Mounts } | null | undefined;
  if (!success(res) || typeof pod !== 'object' || pod === null || pod.id !== podId) return why('getPod', res, `a body that is not the pod ${podId}`);
  return pod.mounts ?? undefined;
}
