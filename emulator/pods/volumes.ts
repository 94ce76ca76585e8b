import { defineSlice, type World } from '../world.js';

/**
 * Network volumes, one store per world: persistent network storage in one data center that
 * pods mount by `volumeId` (spec, Mounts: "an existing network volume in the same data center
 * as the pod"). Shape from platform-notes: `{ id, name, size, dataCenter, type }`.
 */
export type VolumeType = 'STANDARD' | 'HIGH_PERFORMANCE';

export interface VolumeRecord {
  id: string;
  accountId: string;
  name: string;
  size: number;
  dataCenter: string;
  type: VolumeType;
  /** Pods that mount the volume now; a mounted volume cannot be deleted. */
  mountedBy: Set<string>;
}

export interface VolumeFields { name: string; size: number; dataCenter: string; type: VolumeType }

export class VolumeStore {
  readonly #byId = new Map<string, VolumeRecord>();

  constructor(private readonly world: World) {}

  create(accountId: string, fields: VolumeFields): VolumeRecord {
    const record: VolumeRecord = { id: this.world.nextId('vol'), accountId, ...fields, mountedBy: new Set() };
    this.#byId.set(record.id, record);
    return record;
  }

  /** The account's volume, or undefined (another account's volume does not exist for it). */
  get(id: string, accountId: string): VolumeRecord | undefined {
    const v = this.#byId.get(id);
    return v && v.accountId === accountId ? v : undefined;
  }

  list(accountId: string): VolumeRecord[] {
    return [...this.#byId.values()].filter((v) => v.accountId === accountId);
  }

  delete(id: string): boolean {
    return this.#byId.delete(id);
  }

  attach(id: string, podId: string): void {
    this.#byId.get(id)?.mountedBy.add(podId);
  }

  detach(id: string, podId: string): void {
    this.#byId.get(id)?.mountedBy.delete(podId);
  }
}

export const volumesSlice = defineSlice('pods.volumes', (world) => new VolumeStore(world));

/** The wire form of a volume. */
export const volumeView = (v: VolumeRecord): Record<string, unknown> =>
  ({ id: v.id, name: v.name, size: v.size, dataCenter: v.dataCenter, type: v.type });
