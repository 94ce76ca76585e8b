import { defineSlice, type World } from '../world.js';
import { InternalError } from '../../lib/errors.js';
import { endpointsSlice } from './endpoints.js';

/**
 * Templates, one store per world: saved by GraphQL `saveTemplate`, used by pods (`template`)
 * and serverless endpoints (`templateId`). The deletion rule needs to know who uses a
 * template and when it was last used, so users register themselves in {@link templateUsages}.
 */
export interface TemplateRecord {
  id: string;
  accountId: string;
  name: string;
  imageName: string;
  containerDiskInGb: number;
  volumeInGb: number;
  dockerArgs: string;
  env: { key: string; value: string }[];
  ports: string;
  readme: string;
  volumeMountPath: string;
  isServerless: boolean;
  containerRegistryAuthId: string | null;
  /** Live fields (platform-notes); absent is false. */
  startSsh?: boolean;
  isPublic?: boolean;
  createdAt: number;
  /** Virtual time of the most recent use (creation counts as none). */
  lastUsedAt: number | null;
}

export type TemplateFields = Omit<TemplateRecord, 'id' | 'accountId' | 'createdAt' | 'lastUsedAt'>;

/** Returns the ids of what uses the template now in a world (pods, endpoints). */
export type TemplateUsage = (world: World, templateId: string) => string[];

/**
 * Every kind of template user registers here once, at module load (pods, endpoints), so
 * the store never needs to know the other surfaces.
 */
export const templateUsages: TemplateUsage[] = [
  (world, templateId) => world.get(endpointsSlice).usingTemplate(templateId).map((e) => e.id),
];

/**
 * Spec, Limits: "Template deletion delay | up to 2 minutes after last use". The emulator
 * refuses deletion until this much virtual time has passed since the template's last use.
 */
export const TEMPLATE_DELETION_DELAY_MS = 120_000;

export class TemplateStore {
  readonly #byId = new Map<string, TemplateRecord>();

  constructor(private readonly world: World) {
    // An endpoint created on, moved off or deleted from a template is a use of it, whichever
    // surface (GraphQL, REST v1, seeders) made the change.
    world.get(endpointsSlice).onChange((before, after) => {
      if (before) this.touch(before.templateId);
      if (after) this.touch(after.templateId);
    });
  }

  create(accountId: string, fields: TemplateFields, id?: string): TemplateRecord {
    const record: TemplateRecord = { ...fields, id: id ?? this.world.nextId('tpl'), accountId, createdAt: this.world.clock.now(), lastUsedAt: null };
    this.#byId.set(record.id, record);
    return record;
  }

  get(id: string, accountId?: string): TemplateRecord | undefined {
    const record = this.#byId.get(id);
    return record && (accountId === undefined || record.accountId === accountId) ? record : undefined;
  }

  findByName(accountId: string, name: string): TemplateRecord | undefined {
    for (const t of this.#byId.values()) if (t.accountId === accountId && t.name === name) return t;
    return undefined;
  }

  update(id: string, patch: Partial<TemplateFields>): TemplateRecord {
    const before = this.#byId.get(id);
    if (!before) throw new InternalError(`no template ${id}`);
    const after = { ...before, ...patch };
    this.#byId.set(id, after);
    return after;
  }

  delete(id: string): boolean {
    return this.#byId.delete(id);
  }

  listByAccount(accountId: string): TemplateRecord[] {
    return [...this.#byId.values()].filter((t) => t.accountId === accountId);
  }

  /** Records a use now (a pod or endpoint created from it, a job run on it). */
  touch(id: string): void {
    const record = this.#byId.get(id);
    if (record) record.lastUsedAt = this.world.clock.now();
  }

  usersOf(id: string): string[] {
    return templateUsages.flatMap((u) => u(this.world, id));
  }
}

export const templatesSlice = defineSlice('templates', (world) => new TemplateStore(world));
