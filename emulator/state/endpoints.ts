import { defineSlice, type World } from '../world.js';
import { InternalError } from '../../lib/errors.js';

/**
 * Serverless endpoints, one store per world, shared by every surface that touches them:
 * REST v1 `POST /v1/endpoints`, GraphQL `saveEndpoint`/`deleteEndpoint`/`myself`, and the
 * serverless job operations (`/v2/<endpoint_id>/...`), which run jobs on an endpoint's workers.
 */
export type EndpointType = 'QB' | 'LB';

export interface EndpointRecord {
  id: string;
  accountId: string;
  name: string;
  templateId: string;
  /** GraphQL `gpuIds` (a GPU tier such as `AMPERE_16`), or the allocated type of a REST v1 endpoint. */
  gpuIds: string;
  /** REST v1 `gpuTypeIds`, in priority order; empty for endpoints made by GraphQL. */
  gpuTypeIds: string[];
  type: EndpointType;
  idleTimeout: number;
  locations: string | null;
  flashBootType: string | null;
  scalerType: string | null;
  scalerValue: number | null;
  workersMin: number;
  workersMax: number;
  networkVolumeId: string | null;
  /** Live fields (platform-notes): GPUs per worker (absent: 1), the hosts' CUDA versions (absent: any), template changes (absent: 0). */
  gpuCount?: number;
  allowedCudaVersions?: string[];
  version?: number;
  createdAt: number;
  origin: 'rest-v1' | 'graphql' | 'seed';
  /** Public model endpoints answer any account with bearer auth. */
  publicModel?: boolean;
}

export type EndpointFields = Omit<EndpointRecord, 'id' | 'accountId' | 'createdAt'>;

/** Listener for endpoint changes: `before` is undefined on create, `after` on delete. */
export type EndpointListener = (before: EndpointRecord | undefined, after: EndpointRecord | undefined) => void;

export class EndpointStore {
  readonly #byId = new Map<string, EndpointRecord>();
  readonly #listeners: EndpointListener[] = [];

  constructor(private readonly world: World) {}

  create(accountId: string, fields: EndpointFields, id?: string): EndpointRecord {
    const record: EndpointRecord = { ...fields, id: id ?? this.world.nextId('ep'), accountId, createdAt: this.world.clock.now() };
    this.#byId.set(record.id, record);
    this.#emit(undefined, record);
    return record;
  }

  /** The endpoint if it exists and the account may see it (its own, or a public model). */
  get(id: string, accountId?: string): EndpointRecord | undefined {
    const record = this.#byId.get(id);
    if (!record) return undefined;
    if (accountId !== undefined && record.accountId !== accountId && !record.publicModel) return undefined;
    return record;
  }

  update(id: string, patch: Partial<EndpointFields>): EndpointRecord {
    const before = this.#byId.get(id);
    if (!before) throw new InternalError(`no endpoint ${id}`);
    const after: EndpointRecord = { ...before, ...patch };
    this.#byId.set(id, after);
    this.#emit(before, after);
    return after;
  }

  delete(id: string): boolean {
    const before = this.#byId.get(id);
    if (!before) return false;
    this.#byId.delete(id);
    this.#emit(before, undefined);
    return true;
  }

  listByAccount(accountId: string): EndpointRecord[] {
    return [...this.#byId.values()].filter((e) => e.accountId === accountId && !e.publicModel);
  }

  /** Endpoints that use a template (for the template deletion rule). */
  usingTemplate(templateId: string): EndpointRecord[] {
    return [...this.#byId.values()].filter((e) => e.templateId === templateId);
  }

  onChange(listener: EndpointListener): void {
    this.#listeners.push(listener);
  }

  /** Every endpoint of the world (all accounts, public models included). */
  all(): EndpointRecord[] {
    return [...this.#byId.values()];
  }

  #emit(before: EndpointRecord | undefined, after: EndpointRecord | undefined): void {
    for (const l of this.#listeners) l(before, after);
    for (const o of endpointObservers) o(this.world, before, after);
  }
}

export const endpointsSlice = defineSlice('endpoints', (world) => new EndpointStore(world));

/**
 * Observers of endpoint changes in every world, registered once at module load by the surface
 * that runs workers (serverless), so workers follow endpoints whichever surface changed them.
 */
export type EndpointObserver = (world: World, before: EndpointRecord | undefined, after: EndpointRecord | undefined) => void;
export const endpointObservers: EndpointObserver[] = [];

/** A worker pod of an endpoint, as GraphQL `myself { endpoints { pods { desiredStatus } } }` shows it. */
export interface EndpointPodView { desiredStatus: string }

/**
 * Providers of an endpoint's worker pods. The surface that runs workers registers one at
 * module load; the first provider that answers (not undefined) wins. Without one, GraphQL
 * shows the `workersMin` workers the platform keeps warm.
 */
export type EndpointPodsProvider = (world: World, endpoint: EndpointRecord) => EndpointPodView[] | undefined;
export const endpointPodProviders: EndpointPodsProvider[] = [];
