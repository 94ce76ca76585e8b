import { defineSlice, type World } from '../world.js';
import { settle } from './lifecycle.js';
import type { PodRecord } from './pod-record.js';
import { volumesSlice } from './volumes.js';

/**
 * Pods, one store per world. Every read settles the pod's status to the world's virtual time,
 * so callers always see the status the clock implies. Another account's pod does not exist
 * for the caller (`get` answers undefined) unless the isolation fault is on.
 */
export class PodStore {
  readonly #byId = new Map<string, PodRecord>();

  constructor(private readonly world: World) {}

  add(pod: PodRecord): void {
    this.#byId.set(pod.id, pod);
    if (pod.mounts.network) for (const m of pod.mounts.network) this.world.get(volumesSlice).attach(m.volumeId, pod.id);
  }

  get(id: string, accountId: string): PodRecord | undefined {
    const pod = this.#byId.get(id);
    if (!pod || (pod.accountId !== accountId && !this.world.fault('pods.other-account-visible'))) return undefined;
    this.#settle(pod);
    return pod;
  }

  list(accountId: string): PodRecord[] {
    const out: PodRecord[] = [];
    for (const pod of this.#byId.values()) {
      if (pod.accountId !== accountId) continue;
      this.#settle(pod);
      out.push(pod);
    }
    return out;
  }

  /** Ids of the pods, of every account, created from or moved to a template and not terminated. */
  usingTemplate(templateId: string): string[] {
    const out: string[] = [];
    for (const pod of this.#byId.values()) if (pod.template === templateId && pod.status !== 'TERMINATED') out.push(pod.id);
    return out;
  }

  /** Removes the pod; its network volumes are detached, not deleted (platform-notes). */
  delete(pod: PodRecord): void {
    this.detachVolumes(pod);
    this.#byId.delete(pod.id);
  }

  detachVolumes(pod: PodRecord): void {
    for (const m of pod.mounts.network ?? []) this.world.get(volumesSlice).detach(m.volumeId, pod.id);
  }

  #settle(pod: PodRecord): void {
    settle(pod, this.world.clock.now(), this.world.fault('pods.stuck-in-starting'));
  }
}

export const podsSlice = defineSlice('pods', (world) => new PodStore(world));
