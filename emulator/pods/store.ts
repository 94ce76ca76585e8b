import { defineSlice, type World } from '../world.js';
import { settle } from './lifecycle.js';
import type { PodRecord } from './pod-record.js';
import { volumesSlice } from './volumes.js';

/** How long a container runs before it exits on its own, with the variant `pods.container-exits`. */
const CONTAINER_RUNS_MS = 10 * 60_000;

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
    const now = this.world.clock.now();
    settle(pod, now, this.world.fault('pods.stuck-in-starting'));
    // Variant `pods.container-exits`: the container exits on its own after running a while.
    if (pod.status === 'RUNNING' && now >= pod.statusSince + CONTAINER_RUNS_MS && this.world.variant('pods.container-exits')) {
      pod.status = 'EXITED';
      pod.statusSince += CONTAINER_RUNS_MS;
    }
  }
}

export const podsSlice = defineSlice('pods', (world) => new PodStore(world));
