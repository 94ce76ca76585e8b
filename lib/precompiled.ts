/**
 * JSON Schemas compiled ahead of time. Compiling with Ajv costs CPU time in every
 * process that validates (the emulator, each Playwright worker, each load process, and `cpc`
 * checking its report at the end of a run), so the schemas also come as Ajv's standalone code:
 * `lib/validators.gen.cjs` for schemas/ (lib/schema-registry.ts) and `reports/validators.gen.cjs`
 * for the report's own schemas (reports/validate.ts), both written by scripts/gen-validators.ts
 * (`npm run gen`). Each holds the digest of the schema files it was made from and is used only
 * while that digest matches the files on disk: after an edit to a schema, validation compiles
 * as before until `npm run gen` runs again (its `--check`, and the tests, fail meanwhile).
 *
 * CommonJS, required rather than imported: it loads synchronously on the first validation, and
 * Playwright's transform leaves it alone (playwright.config.ts `build.external`).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Ajv2020Import from 'ajv/dist/2020.js';
import type { Options, ValidateFunction } from 'ajv';
import type addFormatsImport from 'ajv-formats';

type Ajv2020Class = typeof Ajv2020Import.default;
export type Ajv2020Instance = InstanceType<Ajv2020Class>;
type AddFormats = typeof addFormatsImport.default;

/** Loads CommonJS when used: a process whose validators are all precompiled never loads Ajv's compiler. */
const requireHere = createRequire(import.meta.url);
// ajv and ajv-formats are CommonJS modules whose `module.exports` also carries a `default`.
const cjsDefault = <T>(mod: T & { default?: T }): T => mod.default ?? mod;

/** A draft 2020-12 Ajv with ajv-formats and `options` (the generator adds `code.source`). */
export function createAjv(options: Options): Ajv2020Instance {
  const Ajv2020 = cjsDefault(requireHere('ajv/dist/2020.js') as Ajv2020Class & { default?: Ajv2020Class });
  const addFormats = cjsDefault(requireHere('ajv-formats') as AddFormats & { default?: AddFormats });
  const ajv = new Ajv2020(options);
  addFormats(ajv);
  return ajv;
}

/** One schema file as read: its name and its text. */
export interface SchemaSource { file: string; text: string }

/** The digest of schema files (in the order given): what precompiled validators must have been made from. */
export function schemasDigest(files: readonly SchemaSource[]): string {
  const hash = createHash('sha256');
  for (const { file, text } of files) hash.update(`${file}\n${text.length}\n${text}`);
  return hash.digest('hex');
}

/** What a `validators.gen.cjs` exports. */
export interface PrecompiledValidators {
  digest: string;
  validators: Readonly<Record<string, ValidateFunction>>;
}

/** The validators of `loaded` when it was made from schema files of `digest`; none otherwise. */
export function precompiledFor(loaded: PrecompiledValidators | undefined, digest: string): ReadonlyMap<string, ValidateFunction> {
  return new Map(loaded && loaded.digest === digest ? Object.entries(loaded.validators) : []);
}

/** The precompiled validators at `file` (a `.cjs` file's URL) if it was made from schema files of `digest`; none when missing or stale. */
export function loadPrecompiled(file: URL, digest: string): ReadonlyMap<string, ValidateFunction> {
  let loaded: PrecompiledValidators | undefined;
  try {
    loaded = requireHere(fileURLToPath(file)) as PrecompiledValidators;
  } catch {
    loaded = undefined;
  }
  return precompiledFor(loaded, digest);
}
