/** Deleting what a run created: one resource, or all of them with retries for templates still held. */
import type { ApiClient } from '../client/api.js';
import type { Leftover, Resource } from '../protocol.js';
import { sortForDeletion } from './registry.js';

const gqlString = (s: string) => JSON.stringify(s);

/** Deletes one resource with the client (whose keys name the roles); undefined when gone, else why not. */
export async function deleteResource(api: ApiClient, r: Resource): Promise<string | undefined> {
  const auth = r.auth;
  try {
    switch (r.kind) {
      case 'pod': {
        const res = await api.op('deletePod', { params: { podId: r.id! }, auth });
        return res.status < 300 || res.status === 404 ? undefined : `deletePod answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
      case 'networkVolume': {
        const res = await api.op('deleteNetworkVolume', { params: { networkVolumeId: r.id! }, auth });
        return res.status < 300 || res.status === 404 ? undefined : `deleteNetworkVolume answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
      case 'endpoint': {
        let res = await api.graphql(`mutation { deleteEndpoint(id: ${gqlString(r.id!)}) }`, undefined, { auth });
        if (!gqlOk(res.status, res.body) && r.name && r.gpuIds && r.templateId) {
          // Deletion needs workersMin and workersMax at 0 (spec): scale down, then delete again.
          await api.graphql(`mutation { saveEndpoint(input: {id: ${gqlString(r.id!)}, name: ${gqlString(r.name)}, gpuIds: ${gqlString(r.gpuIds)}, templateId: ${gqlString(r.templateId)}, workersMin: 0, workersMax: 0}) { id } }`, undefined, { auth });
          res = await api.graphql(`mutation { deleteEndpoint(id: ${gqlString(r.id!)}) }`, undefined, { auth });
        }
        return gqlOk(res.status, res.body) ? undefined : `deleteEndpoint answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
      case 'template': {
        const res = await api.graphql(`mutation { deleteTemplate(templateName: ${gqlString(r.name!)}) }`, undefined, { auth });
        return gqlOk(res.status, res.body) ? undefined : `deleteTemplate answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
      case 'secret': {
        if (!r.id) return 'the creating request did not select the secret\'s id, and secrets are deleted by id';
        const res = await api.graphql(`mutation { secretDelete(id: ${gqlString(r.id)}) }`, undefined, { auth });
        return gqlOk(res.status, res.body) ? undefined : `secretDelete answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
    }
  } catch (e) {
    return (e as Error).message;
  }
}

/** Deleted, or already gone (a "not found" error: another deletion came first). */
const gqlOk = (status: number, body: unknown): boolean => {
  if (status !== 200) return false;
  const errors = ((body ?? {}) as { errors?: { message?: unknown }[] }).errors;
  return !Array.isArray(errors) || errors.length === 0 || errors.every((e) => /not found|no (template|endpoint|secret)\b|does not exist/i.test(String(e?.message)));
};

export interface SweepOptions {
  /** How long to keep retrying templates a recent use still holds (spec: "up to 2 minutes"). */
  retryForMs?: number;
  /** The first pause before trying again (default 30 s); each later one is twice the last. */
  retryEveryMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  log?: (line: string) => void;
}

/**
 * Deletes every resource; what fails is tried again (templates may be held up to 2 minutes
 * after their last use) until `retryForMs` has passed, the last time at that deadline. The
 * pauses double from `retryEveryMs`: a hold that ends soon is seen soon, and one that lasts its
 * 2 minutes costs a few deletions rather than one every 15 s (each a request against the
 * target's rate limit). Returns what is left, with the reason.
 */
export async function sweep(api: ApiClient, resources: Resource[], options: SweepOptions = {}): Promise<Leftover[]> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // Counted from the end of the first pass: deleting endpoints there is the templates' last use,
  // and under a rate limit the first pass itself can take minutes.
  let deadline = Number.POSITIVE_INFINITY;
  let pending = sortForDeletion(resources);
  let pauseMs = options.retryEveryMs ?? 30_000;
  for (;;) {
    const left: Leftover[] = [];
    for (const r of pending) {
      const reason = await deleteResource(api, r);
      if (reason !== undefined) left.push({ ...r, reason });
    }
    if (deadline === Number.POSITIVE_INFINITY) deadline = now() + (options.retryForMs ?? 150_000);
    const waitMs = Math.min(pauseMs, deadline - now());
    if (left.length === 0 || waitMs <= 0) return left;
    options.log?.(`cleanup: ${left.length} resource(s) not deleted yet, trying again in ${Math.round(waitMs / 1000)} s`);
    await sleep(waitMs);
    pauseMs *= 2;
    pending = left.map(({ reason: _reason, ...r }) => r);
  }
}
