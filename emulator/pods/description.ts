import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { schemaOf, type SchemaName } from '../../lib/schema-registry.js';
import { InternalError } from '../../lib/errors.js';
import { json } from '../http/reply.js';
import type { RouteDef } from '../types.js';

/**
 * The published interface description (spec, Versioning: "the interface description version
 * is 2.0.0"; "Persistent mounts are marked deprecated"): `schemas/openapi.yaml` served as one
 * JSON document at `GET /v2/openapi.json`, with every referenced `*.schema.json` inlined so a
 * client needs no second request. Built once, on first use.
 */
const OPENAPI = new URL('../../schemas/openapi.yaml', import.meta.url);
const EXTERNAL = /^(?:\.\/)?([a-z0-9-]+)\.schema\.json$/;
const MAX_DEPTH = 64;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Replaces `{$ref: "x.schema.json", ...siblings}` by the schema itself, siblings kept. */
function inline(value: Json, depth = 0): Json {
  if (depth > MAX_DEPTH) throw new InternalError('openapi.yaml nests schema references too deeply');
  if (Array.isArray(value)) return value.map((v) => inline(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  const ref = typeof value.$ref === 'string' ? EXTERNAL.exec(value.$ref) : null;
  if (ref) {
    const { $schema: _schema, ...schema } = structuredClone(schemaOf(ref[1] as SchemaName)) as Record<string, Json>;
    Object.assign(out, inline(schema, depth + 1));
  }
  for (const [k, v] of Object.entries(value)) {
    if (ref && k === '$ref') continue;
    out[k] = inline(v, depth + 1);
  }
  return out;
}

/** The live description's wording for what the keyword says (platform-notes). */
const DEPRECATION_PROSE = 'Deprecated: prefer NetworkMount for any data you cannot recreate.';

/** Where the live description keeps the persistent mount schema, which `Mounts` references. */
const PERSISTENT_MOUNT_REF = '#/components/schemas/PersistentMount';

const isRecord = (v: Json | undefined): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every Mounts schema's `persistent` property replaced by the bare local reference, as the live description has it. */
function persistentByReference(value: Json): Json {
  if (Array.isArray(value)) return value.map(persistentByReference);
  if (!isRecord(value)) return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'deprecated') out[k] = persistentByReference(v);
  const props = out.properties;
  if (isRecord(props) && isRecord(props.persistent) && isRecord(props.network)) out.properties = { ...props, persistent: { $ref: PERSISTENT_MOUNT_REF } };
  return out;
}

/**
 * The live description's form (the variant `description.deprecation-prose`, platform-notes): no
 * `deprecated` keyword anywhere; `Mounts.properties.persistent` is only a `$ref` to
 * `components.schemas.PersistentMount`, whose description ends with the deprecation in prose.
 */
function deprecationInProse(doc: Json): Json {
  const out = persistentByReference(doc) as Record<string, Json>;
  const { $schema: _schema, ...mount } = structuredClone(schemaOf('persistent-mount')) as Record<string, Json>;
  mount.description = `${typeof mount.description === 'string' ? `${mount.description} ` : ''}${DEPRECATION_PROSE}`;
  const components = isRecord(out.components) ? out.components : {};
  out.components = { ...components, schemas: { ...(isRecord(components.schemas) ? components.schemas : {}), PersistentMount: inline(mount) } };
  return out;
}

/** The fault `pods.persistent-not-deprecated`: neither the keyword nor a clause of prose says it. */
function deprecationDropped(value: Json): Json {
  if (Array.isArray(value)) return value.map(deprecationDropped);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'deprecated') continue;
    out[k] = k === 'description' && typeof v === 'string' ? v.replace(/[^.;"]*\bdeprecated\b[^.;"]*[.;]?/gi, '').trim() : deprecationDropped(v);
  }
  return out;
}

let document: Json | undefined;
let prose: Json | undefined;
let dropped: Json | undefined;

/**
 * The YAML parser, loaded with the first description built: most emulators (a load scenario's,
 * a test world's) never serve the description, and loading the parser costs CPU time they need not pay.
 */
const yaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml') as typeof import('yaml');

export function interfaceDescription(): Json {
  document ??= inline(yaml().parse(readFileSync(OPENAPI, 'utf8')) as Json);
  return document;
}

export const descriptionRoute: RouteDef = {
  method: 'GET', path: '/v2/openapi.json', operation: 'getInterfaceDescription', surface: 'rest-v2', auth: 'bearer', scope: 'read',
  handle: (ctx) => {
    if (ctx.world.fault('pods.persistent-not-deprecated')) return json(200, dropped ??= deprecationDropped(interfaceDescription()));
    return json(200, ctx.world.variant('description.deprecation-prose') ? (prose ??= deprecationInProse(interfaceDescription())) : interfaceDescription());
  },
};
