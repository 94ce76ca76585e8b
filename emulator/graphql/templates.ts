import { validate } from '../../lib/schema-registry.js';
import { TEMPLATE_DELETION_DELAY_MS, templatesSlice, type TemplateFields, type TemplateRecord } from '../state/templates.js';
import type { RootResolver, GqlContext } from './context.js';
import { GqlOpError } from './errors.js';

/** Whether the input gives the four required fields (spec, GraphQL rule 3) and nothing else. */
const onlyRequiredFields = (input: TemplateInputArgs): boolean =>
  Object.entries(input).every(([k, v]) => v === null || v === undefined || ['name', 'imageName', 'containerDiskInGb', 'volumeInGb'].includes(k));

/** `saveTemplate(input:)` as graphql-js coerces it. */
export interface TemplateInputArgs {
  id?: string | null;
  name: string;
  imageName: string;
  containerDiskInGb: number;
  volumeInGb: number;
  dockerArgs?: string | null;
  env?: ({ key: string; value: string } | null)[] | null;
  ports?: string | null;
  readme?: string | null;
  volumeMountPath?: string | null;
  isServerless?: boolean | null;
  containerRegistryAuthId?: string | null;
  startSsh?: boolean | null;
  isPublic?: boolean | null;
}

/** Live input fields (platform-notes) outside `schemas/template-input.schema.json`, the spec's fields. */
const LIVE_TEMPLATE_FIELDS = new Set(['startSsh', 'isPublic']);

/** Values of a new template's optional fields (not shown by the spec; the live platform's). */
const TEMPLATE_DEFAULTS = {
  dockerArgs: '', env: [], ports: '', readme: '', volumeMountPath: '/workspace', isServerless: false, containerRegistryAuthId: null,
} satisfies Partial<TemplateFields>;

/** The GraphQL view of a template (type `PodTemplate`). */
export function templateView(t: TemplateRecord): Record<string, unknown> {
  return {
    id: t.id, name: t.name, imageName: t.imageName, containerDiskInGb: t.containerDiskInGb, volumeInGb: t.volumeInGb,
    dockerArgs: t.dockerArgs, env: t.env.map((e) => ({ key: e.key, value: e.value })), ports: t.ports, readme: t.readme,
    volumeMountPath: t.volumeMountPath, isServerless: t.isServerless, containerRegistryAuthId: t.containerRegistryAuthId,
    startSsh: t.startSsh ?? false, isPublic: t.isPublic ?? false,
  };
}

function fieldsOf(t: TemplateRecord): TemplateFields {
  const { id: _id, accountId: _a, createdAt: _c, lastUsedAt: _l, ...fields } = t;
  return fields;
}

/**
 * The template the input describes, merged over the one it modifies: checked against
 * `schemas/template-input.schema.json` as a whole, so an update cannot make a serverless
 * template keep a volume. Null means "not given", except for `containerRegistryAuthId`, which
 * null and `""` clear (live clients send `""` for none, platform-notes). The live fields
 * `startSsh` and `isPublic` are GraphQL Booleans, checked by the schema of the document.
 */
function mergedFields(ctx: GqlContext, input: TemplateInputArgs, existing: TemplateRecord | undefined): TemplateFields {
  const given: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'id' || value === undefined || (value === null && key !== 'containerRegistryAuthId')) continue;
    given[key] = key === 'containerRegistryAuthId' && value === '' ? null : value;
  }
  const merged = { ...TEMPLATE_DEFAULTS, ...(existing ? fieldsOf(existing) : {}), ...given } as TemplateFields;
  const { containerRegistryAuthId, ...rest } = merged;
  const specFields = Object.fromEntries(Object.entries(containerRegistryAuthId === null ? rest : merged).filter(([k]) => !LIVE_TEMPLATE_FIELDS.has(k)));
  const result = validate('template-input', specFields);
  const issues = result.valid ? [] : result.issues
    .filter((i) => !(i.path === '/volumeInGb' && i.keyword === 'const' && ctx.world.fault('graphql.serverless-volume-unchecked')))
    .map((i) => `${i.path || '(input)'}: ${i.message}`);
  // Sizes the spec does not bound ("not shown"): a container needs a disk, a volume cannot be negative.
  if (merged.containerDiskInGb < 1) issues.push('/containerDiskInGb: must be >= 1');
  if (merged.volumeInGb < 0) issues.push('/volumeInGb: must be >= 0');
  if (issues.length > 0) throw new GqlOpError('BAD_USER_INPUT', `Invalid template input: ${issues.join('; ')}.`, issues);
  return merged;
}

/** `saveTemplate(input:)`: creates without `id`, modifies the caller's template with it. */
export const saveTemplate: RootResolver<{ input: TemplateInputArgs }> = ({ input }, ctx) => {
  const store = ctx.world.get(templatesSlice);
  const updating = typeof input.id === 'string' && !ctx.world.fault('graphql.template-update-creates-new');
  const existing = updating ? store.get(input.id!, ctx.account.id) : undefined;
  if (updating && !existing) throw new GqlOpError('NOT_FOUND', `No template "${input.id}" in this account.`);
  if (!existing && ctx.world.fault('graphql.template-requires-optional-field') && onlyRequiredFields(input)) {
    throw new GqlOpError('BAD_USER_INPUT', 'dockerArgs is required.');
  }
  const fields = mergedFields(ctx, input, existing);
  const clash = store.findByName(ctx.account.id, fields.name);
  if (clash && clash.id !== existing?.id && !ctx.world.fault('graphql.duplicate-template-name')) {
    throw new GqlOpError('CONFLICT', `A template named "${fields.name}" already exists; template names are unique.`);
  }
  const record = existing ? store.update(existing.id, fields) : store.create(ctx.account.id, fields);
  return templateView(record);
};

/**
 * `deleteTemplate(templateName:)`: by name (spec rule 4), only when nothing uses the template
 * and the deletion delay since its last use has passed (lifecycle rule 2, Limits).
 */
export const deleteTemplate: RootResolver<{ templateName: string }> = ({ templateName }, ctx) => {
  const store = ctx.world.get(templatesSlice);
  const template = ctx.world.fault('graphql.delete-template-by-id')
    ? store.get(templateName, ctx.account.id)
    : store.findByName(ctx.account.id, templateName);
  if (!template) throw new GqlOpError('NOT_FOUND', `No template named "${templateName}" in this account.`);
  const users = store.usersOf(template.id);
  if (users.length > 0 && !ctx.world.fault('graphql.delete-template-in-use')) {
    throw new GqlOpError('CONFLICT', `Template "${templateName}" is in use by ${users.join(', ')}; it can be deleted only when no pod or endpoint uses it.`);
  }
  // A fault stretches the delay past the spec's 2 minutes (to 8).
  const delay = TEMPLATE_DELETION_DELAY_MS * (ctx.world.fault('graphql.deletion-delay-too-long') ? 4 : 1);
  const now = ctx.world.clock.now();
  const last = template.lastUsedAt;
  if (last !== null && now < last + delay) {
    throw new GqlOpError('CONFLICT', `Template "${templateName}" was last used ${Math.floor((now - last) / 1000)} s ago; `
      + `it can be deleted ${Math.ceil((last + delay - now) / 1000)} s from now (deletion delay after its most recent use).`);
  }
  store.delete(template.id);
  return null;
};
