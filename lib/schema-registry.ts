/**
 * One place to validate data against the suite's JSON Schemas (schemas/*.schema.json, draft 2020-12).
 *
 * Every schema file is added to a single Ajv2020 instance (strict mode, all errors, ajv-formats),
 * so relative cross-file `$ref`s resolve against `SCHEMA_BASE`. Each schema is compiled once, on
 * first use. Ajv's errors are turned into `ValidationIssue`s: a JSON pointer to the offending
 * value, the keyword that failed and a readable English message.
 *
 * The schemas also come compiled ahead of time (`lib/validators.gen.cjs`, lib/precompiled.ts):
 * those validators are used while they match the schema files on disk.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, loadPrecompiled, schemasDigest, type Ajv2020Instance, type SchemaSource } from './precompiled.js';
import type { SchemaName } from './types.gen.js';
import { SchemaRegistryError } from './errors.js';

export type { SchemaName } from './types.gen.js';

export interface ValidationIssue {
  /** JSON pointer of the offending value ("" is the document itself); for a missing or unknown property, the property's own pointer. */
  path: string;
  /** The JSON Schema keyword that failed (`required`, `minimum`, `additionalProperties`, `oneOf`, ...). */
  keyword: string;
  /** Readable English, e.g. `must be >= 1`. */
  message: string;
}

export type ValidationResult = { valid: true } | { valid: false; issues: ValidationIssue[] };

export const SCHEMA_BASE = 'https://schemas.compute-platform.test/';

const SCHEMAS_DIR = new URL('../schemas/', import.meta.url);
const SUFFIX = '.schema.json';

type JsonObject = Record<string, unknown>;

interface Schemas {
  names: readonly SchemaName[];
  /** The files as read, and their digest: what precompiled validators must have been made from. */
  sources: readonly SchemaSource[];
  digest: string;
  raw: ReadonlyMap<SchemaName, Readonly<JsonObject>>;
  /** The parsed files as read, for Ajv (which annotates what it is given). */
  parsed: readonly JsonObject[];
}

interface Validators {
  /** Built only when a schema has no precompiled validator that matches the files on disk. */
  ajv?: Ajv2020Instance;
  compiled: Map<SchemaName, ValidateFunction>;
}

/** The options every schema is compiled with, here and ahead of time (scripts/gen-validators.ts). */
export const AJV_OPTIONS = { strict: true, allErrors: true, verbose: true } as const;

/** The id every schema is added to Ajv under (relative `$ref`s resolve against it). */
const idOf = (name: SchemaName): string => `${SCHEMA_BASE}${name}${SUFFIX}`;

/**
 * An Ajv holding every schema, with {@link AJV_OPTIONS} and `extra` (the generator adds
 * `code.source`), and each schema's id by name. `parsed` are the schema objects to add: fresh
 * copies of the files by default (Ajv keeps what it is given).
 */
export function schemaAjv(extra: Parameters<typeof createAjv>[0] = {}, parsed: readonly object[] = load().sources.map((s) => JSON.parse(s.text) as object)): { ajv: Ajv2020Instance; refs: Record<SchemaName, string> } {
  const ajv = createAjv({ ...AJV_OPTIONS, ...extra });
  for (const schema of parsed) ajv.addSchema(schema);
  return { ajv, refs: Object.fromEntries(load().names.map((name) => [name, idOf(name)])) as Record<SchemaName, string> };
}

export const PRECOMPILED_FILE = new URL('./validators.gen.cjs', import.meta.url);

let precompiled: ReadonlyMap<string, ValidateFunction> | undefined;

/** The precompiled validators, loaded on the first validation (a process that only lists tests never loads them); none when stale. */
const precompiledValidators = (): ReadonlyMap<string, ValidateFunction> => (precompiled ??= loadPrecompiled(PRECOMPILED_FILE, load().digest));

/** Whether validation uses the validators compiled ahead of time (they match the schema files on disk). */
export function usesPrecompiledValidators(): boolean {
  return precompiledValidators().size > 0;
}

/** The schema files as read (name and text, in name order), for the generator. */
export function schemaSources(): readonly SchemaSource[] {
  return load().sources;
}

let schemas: Schemas | undefined;
let validators: Validators | undefined;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The schema files, read and checked once. Reading needs no Ajv: a process that only reads schemas (Playwright's runner listing tests) never builds one. */
function load(): Schemas {
  if (schemas) return schemas;
  const names: SchemaName[] = [];
  const raw = new Map<SchemaName, Readonly<JsonObject>>();
  const parsed: JsonObject[] = [];
  const texts: SchemaSource[] = [];
  const files = readdirSync(SCHEMAS_DIR)
    .filter((file) => file.endsWith(SUFFIX))
    .sort();
  for (const file of files) {
    const name = file.slice(0, -SUFFIX.length) as SchemaName;
    const text = readFileSync(new URL(file, SCHEMAS_DIR), 'utf8');
    texts.push({ file, text });
    const schema: unknown = JSON.parse(text);
    if (!isObject(schema)) throw new SchemaRegistryError(file, `schemas/${file}: not a JSON object`);
    const id = `${SCHEMA_BASE}${file}`;
    if (schema.$id !== id) {
      throw new SchemaRegistryError(file, `schemas/${file}: $id must be "${id}", found ${JSON.stringify(schema.$id)}`);
    }
    names.push(name);
    raw.set(name, deepFreeze(structuredClone(schema)));
    parsed.push(schema);
  }
  schemas = { names, sources: texts, digest: schemasDigest(texts), raw, parsed };
  return schemas;
}

/** An Ajv instance holding every schema, built the first time a schema has no precompiled validator. */
function ajvOf(reg: Validators): Ajv2020Instance {
  return (reg.ajv ??= schemaAjv({}, load().parsed).ajv);
}

function validatorFor(name: SchemaName): ValidateFunction {
  if (!load().raw.has(name)) throw new SchemaRegistryError(String(name), `unknown schema "${String(name)}"`);
  const reg = (validators ??= { compiled: new Map() });
  const cached = reg.compiled.get(name);
  if (cached) return cached;
  const compiled = precompiledValidators().get(name) ?? ajvOf(reg).getSchema(idOf(name));
  if (!compiled) throw new SchemaRegistryError(name, `schema "${name}" could not be compiled`);
  reg.compiled.set(name, compiled);
  return compiled;
}

/** Validates `data` against the schema `schemas/<name>.schema.json`. */
export function validate(name: SchemaName, data: unknown): ValidationResult {
  const check = validatorFor(name);
  if (check(data)) return { valid: true };
  return { valid: false, issues: toIssues(check.errors ?? [], data) };
}

/** One line per issue: `/gpu/count: must be >= 1`; the document itself is written `(root)`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`).join('\n');
}

/** The schema object as it is on disk (deeply frozen). */
export function schemaOf(name: SchemaName): Readonly<Record<string, unknown>> {
  const schema = load().raw.get(name);
  if (!schema) throw new SchemaRegistryError(String(name), `unknown schema "${String(name)}"`);
  return schema;
}

/** Every schema name (kebab file name without `.schema.json`), sorted. */
export function schemaNames(): readonly SchemaName[] {
  return load().names;
}

// ---------------------------------------------------------------------------------------------
// Ajv errors -> issues

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function childPointer(base: string, property: string): string {
  return `${base}/${escapePointer(property)}`;
}

function lastSegment(pointer: string): string | undefined {
  if (pointer === '') return undefined;
  const segment = pointer.slice(pointer.lastIndexOf('/') + 1);
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function quoted(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let current: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

/** `{required: [...]}`, optionally with `properties: {x: true}` (the shim strictRequired needs). */
function requiredOnly(branch: unknown): readonly string[] | undefined {
  if (!isObject(branch) || !Array.isArray(branch.required)) return undefined;
  for (const [key, value] of Object.entries(branch)) {
    if (key === 'required') continue;
    if (key === 'properties' && isObject(value) && Object.values(value).every((v) => v === true)) continue;
    return undefined;
  }
  return branch.required.filter((item): item is string => typeof item === 'string');
}

function isNullBranch(branch: unknown): boolean {
  return isObject(branch) && branch.type === 'null' && Object.keys(branch).length === 1;
}

/** Words for the `if` part of an if/then, e.g. `"status" is not "RUNNING"`, `"cpu" is present`. */
function describeCondition(condition: unknown): string {
  if (!isObject(condition)) return 'the "if" condition holds';
  const parts: string[] = [];
  const described = new Set<string>();
  if (isObject(condition.properties)) {
    for (const [prop, sub] of Object.entries(condition.properties)) {
      if (sub === true || !isObject(sub)) continue;
      described.add(prop);
      if ('const' in sub) parts.push(`"${prop}" is ${JSON.stringify(sub.const)}`);
      else if (Array.isArray(sub.enum)) parts.push(`"${prop}" is one of ${quoted(sub.enum)}`);
      else if (isObject(sub.not) && 'const' in sub.not) parts.push(`"${prop}" is not ${JSON.stringify(sub.not.const)}`);
      else parts.push(`"${prop}" matches its condition`);
    }
  }
  if (Array.isArray(condition.required)) {
    for (const prop of condition.required) {
      if (typeof prop === 'string' && !described.has(prop)) parts.push(`"${prop}" is present`);
    }
  }
  return parts.length > 0 ? parts.join(' and ') : 'the "if" condition holds';
}

function plainMessage(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum':
      return `must be equal to one of the allowed values: ${quoted(Array.isArray(params.allowedValues) ? params.allowedValues : [])}`;
    case 'const':
      return `must be equal to ${JSON.stringify(params.allowedValue)}`;
    case 'type': {
      const types = String(params.type).split(',');
      return types.length > 1 ? `must be ${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}` : `must be ${types[0]}`;
    }
    case 'false schema': {
      const prop = lastSegment(error.instancePath);
      return prop === undefined ? 'no value is allowed here' : `property "${prop}" is not allowed here`;
    }
    case 'not': {
      const names = requiredOnly(error.schema);
      if (names && names.length > 1) {
        return `properties ${names.map((n) => `"${n}"`).join(' and ')} are mutually exclusive`;
      }
      if (names && names.length === 1) return `property "${names[0]}" is not allowed here`;
      return error.message ?? 'must NOT be valid';
    }
    default:
      return error.message ?? `fails "${error.keyword}"`;
  }
}

function issueFor(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const prop = String(params.missingProperty);
      return { path: childPointer(error.instancePath, prop), keyword: 'required', message: `must have required property "${prop}"` };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const prop = String(error.keyword === 'additionalProperties' ? params.additionalProperty : params.unevaluatedProperty);
      return { path: childPointer(error.instancePath, prop), keyword: error.keyword, message: `unknown property "${prop}" is not allowed` };
    }
    default:
      return { path: error.instancePath, keyword: error.keyword, message: plainMessage(error) };
  }
}

/**
 * Turns Ajv's errors into issues. Wrapper errors that only repeat what a more specific error says
 * (an `if` whose `then` failed, an `anyOf` whose non-null branch failed) are folded into it; a
 * `oneOf`/`anyOf` made only of `required` branches becomes one "exactly one of" / "at least one of"
 * issue. Nothing is dropped without a more specific issue standing for it.
 */
function toIssues(errors: readonly ErrorObject[], data: unknown): ValidationIssue[] {
  const dropped = new Set<number>();
  const context = new Map<number, string>();
  const replaced = new Map<number, ValidationIssue>();

  const isUnder = (child: ErrorObject, parent: ErrorObject): boolean =>
    child.instancePath === parent.instancePath || child.instancePath.startsWith(`${parent.instancePath}/`);

  errors.forEach((error, index) => {
    const params = error.params as Record<string, unknown>;

    if (error.keyword === 'if') {
      const branch = String(params.failingKeyword);
      const prefix = `${error.schemaPath.slice(0, -'if'.length)}${branch}/`;
      const children = errors
        .map((child, childIndex) => ({ child, childIndex }))
        .filter(({ child, childIndex }) => childIndex !== index && child.schemaPath.startsWith(prefix) && isUnder(child, error));
      if (children.length === 0) return;
      const parent = isObject(error.parentSchema) ? error.parentSchema : {};
      const condition = describeCondition(parent.if);
      const words = branch === 'else' ? `when not (${condition})` : `when ${condition}`;
      for (const { childIndex } of children) if (!context.has(childIndex)) context.set(childIndex, words);
      dropped.add(index);
      return;
    }

    if ((error.keyword === 'oneOf' || error.keyword === 'anyOf') && Array.isArray(error.schema)) {
      const branches = error.schema as unknown[];
      const lists = branches.map(requiredOnly);
      if (lists.every((list) => list !== undefined)) {
        const names = lists.flatMap((list) => list ?? []);
        const target = valueAt(data, error.instancePath);
        const prefix = `${error.schemaPath}/`;
        errors.forEach((child, childIndex) => {
          if (childIndex !== index && child.schemaPath.startsWith(prefix) && child.instancePath === error.instancePath) {
            dropped.add(childIndex);
          }
        });
        // Property rules say nothing about a non-object; the type error at the same place stands for it.
        if (!isObject(target) && errors.some((other) => other.keyword === 'type' && other.instancePath === error.instancePath)) {
          dropped.add(index);
          return;
        }
        const present = isObject(target) ? names.filter((name) => name in target) : [];
        const list = names.map((name) => `"${name}"`).join(', ');
        let message: string;
        if (error.keyword === 'anyOf') message = `must have at least one of the properties ${list}`;
        else if (present.length === 0) message = `must have exactly one of the properties ${list}; none is present`;
        else message = `must have exactly one of the properties ${list}; ${present.map((n) => `"${n}"`).join(' and ')} are present`;
        replaced.set(index, { path: error.instancePath, keyword: error.keyword, message });
        return;
      }
      const nullIndex = branches.findIndex(isNullBranch);
      if (nullIndex >= 0 && valueAt(data, error.instancePath) !== null) {
        const nullPath = `${error.schemaPath}/${nullIndex}/type`;
        let specific = false;
        errors.forEach((child, childIndex) => {
          if (childIndex === index) return;
          if (child.schemaPath === nullPath && child.instancePath === error.instancePath) dropped.add(childIndex);
          else if (childIndex < index && isUnder(child, error)) specific = true;
        });
        if (specific) dropped.add(index);
      }
    }
  });

  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  errors.forEach((error, index) => {
    if (dropped.has(index)) return;
    const issue = replaced.get(index) ?? issueFor(error);
    const words = context.get(index);
    const final = words ? { ...issue, message: `${issue.message} (${words})` } : issue;
    const key = `${final.path}\u0000${final.keyword}\u0000${final.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    issues.push(final);
  });
  return issues;
}
