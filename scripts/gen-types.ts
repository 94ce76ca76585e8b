/**
 * Generates lib/types.gen.ts from schemas/*.schema.json with json-schema-to-typescript,
 * lib/operations.gen.ts from schemas/openapi.yaml and schema.graphql (scripts/gen-operations.ts),
 * and lib/validators.gen.cjs and reports/validators.gen.cjs, the schemas compiled ahead of time
 * (scripts/gen-validators.ts).
 *
 *   npx tsx scripts/gen-types.ts           write the four files
 *   npx tsx scripts/gen-types.ts --check   exit 1 when one is not what would be generated
 *
 * One exported type per schema file, named by the schema's `title`. Cross-file `$ref`s are
 * turned into references to the other generated type (json-schema-to-typescript's `tsType`)
 * before compiling, so no structure is ever inlined twice. Keywords that only validate and have
 * no TypeScript counterpart (`if`/`then`/`else`, `not`, `dependentSchemas`, `oneOf`/`anyOf`
 * branches that only list required properties) are dropped from the copy given to the compiler;
 * the schemas themselves stay the authority at runtime (lib/schema-registry.ts).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { generateOperations, OPERATIONS_FILE } from './gen-operations.js';
import { generateReportValidators, generateValidators, REPORT_VALIDATORS_FILE, VALIDATORS_FILE } from './gen-validators.js';

export const SCHEMAS_DIR = fileURLToPath(new URL('../schemas/', import.meta.url));
export const TYPES_FILE = fileURLToPath(new URL('../lib/types.gen.ts', import.meta.url));

const SUFFIX = '.schema.json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface SchemaFile {
  /** kebab name, the file name without `.schema.json` */
  name: string;
  /** the TypeScript type name: the `title` (made an identifier if it is not one) */
  title: string;
  schema: JsonObject;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readSchemaFiles(dir: string = SCHEMAS_DIR): SchemaFile[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(SUFFIX))
    .sort()
    .map((file) => {
      const schema = JSON.parse(readFileSync(new URL(file, pathToFileURL(dir + '/')), 'utf8')) as Json;
      if (!isObject(schema) || typeof schema.title !== 'string') {
        throw new TypeError(`${file}: a schema file must be an object with a string "title"`);
      }
      return { name: file.slice(0, -SUFFIX.length), title: typeName(schema.title), schema };
    });
}

/** The TypeScript name for a schema title: the title itself when it is already an identifier, else PascalCase. */
export function typeName(title: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(title)) return title;
  const words = title.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0);
  const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return /^[A-Za-z_]/.test(name) ? name : `T${name}`;
}

/** A subschema that only says "this property is present" (`{required: [...], properties: {x: true}}`). */
function isRequiredOnly(branch: Json): boolean {
  if (!isObject(branch)) return false;
  return Object.entries(branch).every(([key, value]) => {
    if (key === 'required') return true;
    if (key === 'properties') return isObject(value) && Object.values(value).every((v) => v === true);
    return false;
  });
}

function isConditionalOnly(branch: Json): boolean {
  return isObject(branch) && Object.keys(branch).every((key) => ['if', 'then', 'else', 'description'].includes(key));
}

const VALIDATION_ONLY = new Set(['if', 'then', 'else', 'not', 'dependentSchemas']);
/** Keywords that give json-schema-to-typescript something to type; a subschema without any is "any JSON value". */
const TYPED = new Set(['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'properties', 'items', 'additionalProperties', 'tsType']);

/** The copy of a schema handed to json-schema-to-typescript. */
function toTypeSchema(node: Json, titles: ReadonlyMap<string, string>, file: string, atRoot: boolean): Json {
  if (Array.isArray(node)) return node.map((item) => toTypeSchema(item, titles, file, false));
  if (!isObject(node)) return node;

  const ref = node.$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) {
    const target = ref.split('#')[0] ?? '';
    if (ref.includes('#')) {
      throw new TypeError(`${file}: only whole-file cross-file $refs are supported by gen-types, found "${ref}"`);
    }
    const title = titles.get(target);
    if (title === undefined) throw new TypeError(`${file}: $ref "${ref}" names no schema file`);
    const replaced: JsonObject = { tsType: title };
    for (const key of ['description', 'deprecated', 'default'] as const) {
      const value = node[key];
      if (value !== undefined) replaced[key] = value;
    }
    return replaced;
  }

  const out: JsonObject = {};
  if (!atRoot && !Object.keys(node).some((key) => TYPED.has(key))) out.tsType = 'unknown';
  for (const [key, value] of Object.entries(node)) {
    if (VALIDATION_ONLY.has(key)) continue;
    if ((key === 'oneOf' || key === 'anyOf') && Array.isArray(value) && value.every(isRequiredOnly)) continue;
    if (key === 'allOf' && Array.isArray(value) && value.every(isConditionalOnly)) continue;
    if (!atRoot && key === 'title') continue;
    if (atRoot && key === 'title') {
      out[key] = typeName(String(value));
      continue;
    }
    if (key === 'properties' && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([prop, sub]) => [prop, toTypeSchema(sub, titles, file, false)]),
      );
      continue;
    }
    if (['$schema', '$id', 'enum', 'const', 'default', 'required', 'description', 'title', 'examples'].includes(key)) {
      out[key] = value;
      continue;
    }
    out[key] = toTypeSchema(value, titles, file, false);
  }
  return out;
}

const HEADER = `/*
 * GENERATED FILE, DO NOT EDIT.
 * Generated by scripts/gen-types.ts (npm run gen) from schemas/*.schema.json with
 * json-schema-to-typescript. Edit the schemas, then regenerate; \`npx tsx scripts/gen-types.ts --check\`
 * fails when this file is stale.
 */
`;

/** The text lib/types.gen.ts must have for the schemas currently on disk. */
export async function generateTypes(dir: string = SCHEMAS_DIR): Promise<string> {
  const files = readSchemaFiles(dir);
  const titles = new Map(files.map((f) => [`${f.name}${SUFFIX}`, f.title]));
  const seen = new Set<string>();
  const parts: string[] = [HEADER];
  for (const file of files) {
    if (seen.has(file.title)) throw new TypeError(`${file.name}: title "${file.title}" is used twice`);
    seen.add(file.title);
    const typeSchema = toTypeSchema(file.schema, titles, file.name, true) as JSONSchema;
    const code = await compile(typeSchema as Parameters<typeof compile>[0], file.title, {
      bannerComment: '',
      additionalProperties: true,
      declareExternallyReferenced: true,
      ignoreMinAndMaxItems: true,
      strictIndexSignatures: false,
      unknownAny: true,
      format: true,
      style: { bracketSpacing: true, printWidth: 120, semi: true, singleQuote: true, tabWidth: 2, trailingComma: 'all', useTabs: false },
      cwd: dir,
    });
    parts.push(`// ${file.name}${SUFFIX}\n${code.trim()}\n`);
  }
  const declared: string[] = parts.join('\n').match(/^export (?:interface|type|enum|const enum) ([A-Za-z0-9_$]+)/gm) ?? [];
  const duplicates = declared.filter((line, index) => declared.indexOf(line) !== index);
  if (duplicates.length > 0) throw new TypeError(`generated types declared twice: ${duplicates.join('; ')}`);
  parts.push(
    '/** Kebab name of every schema file (`schemas/<name>.schema.json`). */\n' +
      `export type SchemaName =\n${files.map((f) => `  | '${f.name}'`).join('\n')};\n`,
  );
  parts.push(
    '/** The generated type of each schema, by schema name. */\n' +
      `export interface SchemaTypeMap {\n${files.map((f) => `  '${f.name}': ${f.title};`).join('\n')}\n}\n`,
  );
  return parts.join('\n');
}

export interface TypesCheck {
  upToDate: boolean;
  expected: string;
  actual: string | null;
}

/** Compares a generated file on disk with the text it should have. */
function compareWith(file: string, expected: string): TypesCheck {
  let actual: string | null;
  try {
    actual = readFileSync(file, 'utf8');
  } catch {
    actual = null;
  }
  return { upToDate: actual === expected, expected, actual };
}

/** Compares lib/types.gen.ts with what would be generated now. */
export async function checkTypes(dir: string = SCHEMAS_DIR, typesFile: string = TYPES_FILE): Promise<TypesCheck> {
  return compareWith(typesFile, await generateTypes(dir));
}

/** Compares lib/operations.gen.ts with what would be generated now. */
export function checkOperations(operationsFile: string = OPERATIONS_FILE): TypesCheck {
  return compareWith(operationsFile, generateOperations());
}

/** Compares lib/validators.gen.cjs with what would be generated now. */
export function checkValidators(validatorsFile: string = VALIDATORS_FILE): TypesCheck {
  return compareWith(validatorsFile, generateValidators());
}

/** Compares reports/validators.gen.cjs with what would be generated now. */
export function checkReportValidators(validatorsFile: string = REPORT_VALIDATORS_FILE): TypesCheck {
  return compareWith(validatorsFile, generateReportValidators());
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--check')) {
    const stale = [['lib/types.gen.ts', (await checkTypes()).upToDate], ['lib/operations.gen.ts', checkOperations().upToDate],
      ['lib/validators.gen.cjs', checkValidators().upToDate], ['reports/validators.gen.cjs', checkReportValidators().upToDate]].filter(([, ok]) => !ok);
    for (const [file] of stale) process.stderr.write(`${file} is out of date: run \`npm run gen\`.\n`);
    if (stale.length === 0) process.stdout.write('lib/types.gen.ts, lib/operations.gen.ts, lib/validators.gen.cjs and reports/validators.gen.cjs are up to date.\n');
    return stale.length === 0 ? 0 : 1;
  }
  writeFileSync(TYPES_FILE, await generateTypes());
  process.stdout.write(`wrote ${TYPES_FILE}\n`);
  writeFileSync(OPERATIONS_FILE, generateOperations());
  process.stdout.write(`wrote ${OPERATIONS_FILE}\n`);
  writeFileSync(VALIDATORS_FILE, generateValidators());
  process.stdout.write(`wrote ${VALIDATORS_FILE}\n`);
  writeFileSync(REPORT_VALIDATORS_FILE, generateReportValidators());
  process.stdout.write(`wrote ${REPORT_VALIDATORS_FILE}\n`);
  return 0;
}

const invokedPath = process.argv[1];
if (invokedPath !== undefined && import.meta.url === pathToFileURL(invokedPath).href) {
  process.exitCode = await main(process.argv.slice(2));
}
