import { validate } from '../../lib/schema-registry.js';
import { defineSlice, type World } from '../world.js';
import type { RootResolver } from './context.js';
import { GqlOpError } from './errors.js';

/** A stored secret. The value is kept (templates may reference it) but no view ever shows it. */
interface SecretRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  value: string;
  createdAt: number;
}

/** Secrets, one store per world; only `secretCreate` and `secretDelete` reach them. */
export class SecretStore {
  readonly #byId = new Map<string, SecretRecord>();

  constructor(private readonly world: World) {}

  create(accountId: string, name: string, value: string): SecretRecord {
    const record: SecretRecord = { id: this.world.nextId('sec'), accountId, name, description: null, value, createdAt: this.world.clock.now() };
    this.#byId.set(record.id, record);
    return record;
  }

  get(id: string, accountId: string): SecretRecord | undefined {
    const record = this.#byId.get(id);
    return record?.accountId === accountId ? record : undefined;
  }

  findByName(accountId: string, name: string): SecretRecord | undefined {
    for (const s of this.#byId.values()) if (s.accountId === accountId && s.name === name) return s;
    return undefined;
  }

  delete(id: string): boolean {
    return this.#byId.delete(id);
  }
}

export const secretsSlice = defineSlice('graphql-secrets', (world) => new SecretStore(world));

/** The GraphQL view (type `Secret`): id, name, description; never the value. */
function secretView(world: World, s: SecretRecord): Record<string, unknown> {
  return { id: s.id, name: s.name, description: world.fault('graphql.secret-value-returned') ? s.value : s.description };
}

/** `secretCreate(input: {value, name})`. Names are unique per account (CHOICES.md). */
export const secretCreate: RootResolver<{ input: { name: string; value: string } }> = ({ input }, ctx) => {
  ctx.sensitive.push(input.value);
  const result = validate('secret-input', input);
  if (!result.valid) {
    // Issue messages name paths and keywords, never the value itself.
    const issues = result.issues.map((i) => `${i.path || '(input)'}: ${i.message}`);
    throw new GqlOpError('BAD_USER_INPUT', `Invalid secret input: ${issues.join('; ')}.`, issues);
  }
  const store = ctx.world.get(secretsSlice);
  if (store.findByName(ctx.account.id, input.name)) {
    throw new GqlOpError('CONFLICT', `A secret named "${input.name}" already exists.`);
  }
  return secretView(ctx.world, store.create(ctx.account.id, input.name, input.value));
};

/** `secretDelete(id:)`: by id (spec rule 4); another account's secret is indistinguishable from none. */
export const secretDelete: RootResolver<{ id: string }> = ({ id }, ctx) => {
  const store = ctx.world.get(secretsSlice);
  const secret = ctx.world.fault('graphql.secret-delete-by-name') ? store.findByName(ctx.account.id, id) : store.get(id, ctx.account.id);
  if (!secret) throw new GqlOpError('NOT_FOUND', `No secret "${id}" in this account.`);
  store.delete(secret.id);
  return null;
};
