// The error catalog (lib/errors.ts), table-driven over every entry, and a guard that keeps every
// error class of the product in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as errors from '../lib/errors.js';
import { ERROR_CATALOG, K6_SAFE_ERRORS, CpcError, ConfigError, errorLine, exitCodeForError, type ErrorCode } from '../lib/errors.js';
import { ControlSurfaceError, LoadConfigError, StructuredFieldError } from '../lib/iso/errors.js';
import { registerSecret, REDACTED } from '../lib/redact.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'cpk_ERRORS_TEST_SECRET_0123456789';
registerSecret(KEY);
/** A value embedding the key, as a configuration value, a URL or an answer's text might. */
const V = `Bearer ${KEY}`;

interface Sample {
  make: () => CpcError;
  /** Whether the sample's message embeds `V` (no string argument reaches some messages). */
  embeds: boolean;
}
const embedding = (make: () => CpcError): Sample => ({ make, embeds: true });

/** One instance of every catalogued error, each with a value that embeds an API key where its message can hold one. */
const SAMPLES: Record<ErrorCode, Sample> = {
  ERR_CPC_CONFIG: embedding(() => new errors.ConfigError(`CPC_BASE_URL must be an http or https URL, got "ftp://x/${V}"`, 'CPC_BASE_URL')),
  ERR_CPC_USAGE: embedding(() => new errors.UsageError(`Unknown option '--key=${V}'`, 'usage: cpc conformance [options]')),
  ERR_CPC_MISSING_KEY: { make: () => new errors.MissingKeyError('readonly', 'CPC_API_KEY_READONLY'), embeds: false },
  ERR_CPC_TARGET_UNREACHABLE: embedding(() => new errors.TargetUnreachableError(`http://127.0.0.1:1/?api_key=${KEY}`, `ECONNREFUSED (${V})`)),
  ERR_CPC_CONTROL: embedding(() => new errors.ControlError(`control POST /worlds answered 500: ${V}`, 500)),
  ERR_CPC_UNKNOWN_FAULT: embedding(() => new errors.UnknownFaultError([V])),
  ERR_CPC_UNKNOWN_VARIANT: embedding(() => new errors.UnknownVariantError([V], ['lists.bare', 'live'])),
  ERR_CPC_MUTATION_REPORT_INVALID: embedding(() => new errors.MutationReportError('reports/mutation/mutation.json', `not JSON: ${V}`)),
  ERR_CPC_NONCONFORMANT: embedding(() => new errors.NonConformanceError([{ rule: 'POD.CREATE.201_POD', message: `createPod answered 200: ${V}` }, { rule: 'POD.CREATE.201_POD', message: 'again' }])),
  ERR_CPC_PROPERTY_FAILED: embedding(() => new errors.PropertyFailure(`Counterexample: [{"key":"${V}"}]`, 'CPC_SEED=1 CPC_PATH=0 npx playwright test', [{ rule: 'POD.CREATE.201_POD', message: 'createPod answered 200' }])),
  ERR_CPC_SETUP: embedding(() => new errors.SetupError(`setup: POST /v1/endpoints answered 500 ${V}`, 500)),
  ERR_CPC_LOST_ANSWER: embedding(() => new errors.LostAnswerError(`the connection broke before POST /v2/pods was answered (${V})`)),
  ERR_CPC_VOLUME_UNAVAILABLE: embedding(() => new errors.VolumeUnavailableError(V, 503)),
  ERR_CPC_UNKNOWN_RULE: embedding(() => new errors.UnknownRuleError([V])),
  ERR_CPC_RULE_CATALOG_INVALID: embedding(() => new errors.RuleCatalogError('rest-v2.json', `rules[0].quote is ${V}`)),
  ERR_CPC_SCHEMA_REGISTRY: embedding(() => new errors.SchemaRegistryError('pod', `unknown schema "${V}"`)),
  ERR_CPC_SCHEMA_FACT_MISSING: embedding(() => new errors.SchemaFactError('pod', '/properties/gpu', V)),
  ERR_CPC_INTERNAL: embedding(() => new errors.InternalError(`unreachable: ${V}`)),
  ERR_CPC_BENCH: embedding(() => new errors.BenchError(`createPod server exited with 1: ${V}`)),
  ERR_CPC_K6_RUN: embedding(() => new errors.K6RunError(107, `setup() threw: ${V}`)),
  ERR_CPC_K6_SCRIPT: embedding(() => new errors.K6ScriptError(V)),
  ERR_CPC_K6_WORKER_DIED: embedding(() => new errors.WorkerDiedError(`the worker crashed: ${V}`, 'Error: boom\n    at x')),
  ERR_CPC_K6_TIMEOUT: { make: () => new errors.WorkerTimeoutError(5000), embeds: false },
  ERR_CPC_K6_ABORTED: embedding(() => new errors.AbortedError(`aborted: ${V}`)),
  ERR_CPC_EMU_PROBLEM: embedding(() => new errors.ProblemError({ status: 400, body: { type: 'about:blank', title: 'Bad Request', status: 400, detail: `refused ${V}` }, contentType: 'application/problem+json' })),
  ERR_CPC_EMU_GRAPHQL: embedding(() => new errors.GqlOpError('BAD_USER_INPUT', `a secret named ${V} exists`, ['/name'])),
};

/** Errors that are answers the emulator sends: the message word for word, no stack captured (lib/errors.ts says why). */
const VERBATIM = new Set<string>(['ERR_CPC_EMU_PROBLEM', 'ERR_CPC_EMU_GRAPHQL']);

const codes = Object.keys(ERROR_CATALOG) as ErrorCode[];

test('errors: the catalog and the samples name the same codes (a new error needs a row here)', () => {
  assert.deepEqual([...codes].sort(), Object.keys(SAMPLES).sort());
  assert.ok(codes.length >= 20, `${codes.length} entries`);
});

for (const code of codes) {
  const entry = ERROR_CATALOG[code];
  test(`errors: ${code} (${entry.error.name})`, () => {
    const e = SAMPLES[code].make();
    assert.match(code, /^ERR_CPC_[A-Z0-9_]+$/, 'prefixed ERR_CPC_, never CPC_ like an environment variable');
    assert.equal(e.code, code, 'the instance carries its catalog code');
    assert.ok(e instanceof entry.error, 'the catalog names its class');
    assert.equal(e.constructor, entry.error, 'exactly that class, not a subclass');
    assert.equal(e.name, entry.error.name, 'name is the class name');
    assert.ok(e instanceof CpcError && e instanceof Error);
    assert.ok(e.message.length > 0);
    for (const field of entry.fields) assert.notEqual((e as unknown as Record<string, unknown>)[field], undefined, `field ${field}`);
    if (VERBATIM.has(code)) {
      assert.equal(e.stack, `${e.name}: ${e.message}`, 'an emulator answer carries no stack frames');
    } else {
      assert.match(e.stack ?? '', /\n\s+at /, 'an error thrown on purpose keeps its stack');
    }
    if (SAMPLES[code].embeds && VERBATIM.has(code)) {
      assert.ok(e.message.includes(KEY), 'an emulator answer is kept word for word');
    } else if (SAMPLES[code].embeds) {
      assert.ok(!e.message.includes(KEY), `the key leaked: ${e.message}`);
      assert.ok(e.message.includes(REDACTED), e.message);
      assert.ok(!errorLine(e).includes(KEY));
    }
    const exit = e instanceof errors.K6RunError ? e.exitCode : entry.exit;
    assert.equal(exitCodeForError(e), exit, 'the CLI exit code comes from the catalog');
    if (e instanceof ConfigError) assert.equal(entry.exit, 2, 'configuration errors exit 2');
    assert.equal(errorLine(e), e instanceof ConfigError ? `configuration error: ${e.message}` : `${code}: ${e.message}`);
  });
}

test('errors: an emulator answer made without its stack leaves the stack limit as it found it, even when its making throws', () => {
  const before = Error.stackTraceLimit;
  new errors.ProblemError({ status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no pod' }, contentType: 'application/problem+json' });
  assert.equal(Error.stackTraceLimit, before);
  const unprintable = { toString(): string { throw new Error('unprintable'); } };
  assert.throws(() => new errors.GqlOpError('BAD_USER_INPUT', unprintable as unknown as string), /unprintable/);
  assert.equal(Error.stackTraceLimit, before);
  assert.match(new Error('after').stack ?? '', /\n\s+at /, 'errors made afterwards have their frames');
});

test('errors: codes and classes are unique; every class lib/errors.ts defines is in the catalog', () => {
  const classes = codes.map((c) => ERROR_CATALOG[c].error);
  assert.equal(new Set(classes).size, classes.length, 'one code per class');
  const source = readFileSync(join(ROOT, 'lib', 'errors.ts'), 'utf8');
  const defined = [...source.matchAll(/^export (?:abstract )?class (\w+) extends (\w+)/gm)].map((m) => m[1]!).filter((n) => n !== 'CpcError');
  assert.deepEqual(defined.sort(), classes.map((c) => c.name).sort());
});

test('errors: anything outside the catalog exits 1 as an unexpected error, its message redacted too', () => {
  assert.equal(exitCodeForError(new Error('boom')), 1);
  assert.equal(exitCodeForError('a string'), 1);
  assert.equal(errorLine(new TypeError(`x ${V}`)), `unexpected error: x Bearer ${REDACTED}`);
});

test('errors: findings become a NonConformanceError naming each rule once, through the one helper', () => {
  assert.doesNotThrow(() => errors.throwFindings([], []));
  const f = (rule: string) => ({ rule, message: `${rule} broke` });
  assert.throws(() => errors.throwFindings([f('A.B')], [f('C.D'), f('A.B')]), (e: unknown) =>
    e instanceof errors.NonConformanceError && e.findings.length === 3 && e.ruleIds.join() === 'A.B,C.D' && /\[C\.D\] C\.D broke/.test(e.message));
});

// ---- The guard: no error class, and no plain throw, outside the catalog ---------------------

/** The product's folders (what the package ships and runs), and the parts k6 runs, which cannot import lib/errors.ts. */
const PRODUCT = ['lib', 'bin', 'emulator', 'contract', 'property', 'reports', 'bench'];
const K6_RUNS = [
  // Isomorphic code the k6 scripts import: plain ECMAScript with no imports outside lib/iso;
  // its errors are lib/iso/errors.ts, listed in K6_SAFE_ERRORS and checked below.
  'lib/iso/',
];

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'out') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

const productFiles = (): { file: string; text: string }[] =>
  PRODUCT.flatMap((d) => tsFiles(join(ROOT, d)))
    .map((path) => ({ file: relative(ROOT, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }))
    .filter(({ file }) => file !== 'lib/errors.ts' && !K6_RUNS.some((p) => file.startsWith(p)));

const BUILTIN_ERRORS = 'Error|RangeError|TypeError|SyntaxError|ReferenceError|EvalError|URIError|AggregateError';

test('errors: guard: no product file outside lib/errors.ts defines an error class', () => {
  const catalogued = new Set(codes.map((c) => ERROR_CATALOG[c].error.name));
  const found: string[] = [];
  for (const { file, text } of productFiles()) {
    for (const m of text.matchAll(/class\s+(\w+)(?:<[^>]*>)?\s+extends\s+([\w.]+)/g)) {
      const base = m[2]!.split('.').pop()!;
      if (/Error$|Failure$|Divergence$|Violation$/.test(base) || catalogued.has(base) || base === 'CpcError') found.push(`${file}: class ${m[1]} extends ${m[2]}`);
    }
  }
  assert.deepEqual(found, [], 'move these into lib/errors.ts (a class, a code, a catalog entry, a row in this test)');
});

test('errors: guard: no product file throws or rejects with a built-in error', () => {
  const found: string[] = [];
  for (const { file, text } of productFiles()) {
    text.split('\n').forEach((line, i) => {
      if (new RegExp(`\\bnew (${BUILTIN_ERRORS})\\(`).test(line) || new RegExp(`\\bthrow\\s+(${BUILTIN_ERRORS})\\(`).test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, [], 'throw a class of the catalog (InternalError for what cannot happen)');
});

test('errors: guard: the guard sees what it looks for', () => {
  // A guard that cannot fail is no guard: its patterns match the shapes they are meant to catch.
  assert.match('export class X extends Error {', /class\s+(\w+)(?:<[^>]*>)?\s+extends\s+([\w.]+)/);
  assert.match('  if (!x) throw new RangeError(`no`);', new RegExp(`\\bnew (${BUILTIN_ERRORS})\\(`));
  assert.ok(productFiles().length > 100, 'the product files are found');
});

// ---- The errors of code k6 runs (lib/iso/errors.ts), listed in K6_SAFE_ERRORS -------------

const K6_SAMPLES: Record<keyof typeof K6_SAFE_ERRORS, () => Error & { code: string }> = {
  ERR_CPC_LOAD_CONFIG: () => new LoadConfigError('CPC_LOAD_VUS must be an integer from 1 to 1000, got "many"'),
  ERR_CPC_LOAD_CONTROL: () => new ControlSurfaceError('POST /__emulator… answered 404, expected 201'),
  ERR_CPC_SF_PARSE: () => new StructuredFieldError('expected a token', 3),
};

test('errors: the k6-side errors share the prefix, are unique across both tables, and name their class', () => {
  const all = [...Object.keys(ERROR_CATALOG), ...Object.keys(K6_SAFE_ERRORS)];
  assert.equal(new Set(all).size, all.length, 'one code per error across both tables');
  for (const [code, row] of Object.entries(K6_SAFE_ERRORS) as [keyof typeof K6_SAFE_ERRORS, (typeof K6_SAFE_ERRORS)[keyof typeof K6_SAFE_ERRORS]][]) {
    const e = K6_SAMPLES[code]();
    assert.match(code, /^ERR_CPC_[A-Z0-9_]+$/);
    assert.equal(e.code, code);
    assert.ok(e instanceof row.error, `${code} is a ${row.error.name}`);
    assert.equal(e.name, row.error.name);
    for (const f of row.fields) assert.ok(f in e, `${code} carries ${f}`);
    assert.equal(exitCodeForError(e), row.exit, `${code} exits ${row.exit}`);
  }
  const source = readFileSync(join(ROOT, 'lib', 'iso', 'errors.ts'), 'utf8');
  const defined = [...source.matchAll(/^export class (\w+) extends (\w+)/gm)].map((m) => m[1]!).sort();
  assert.deepEqual(defined, Object.values(K6_SAFE_ERRORS).map((r) => r.error.name).sort(), 'every class of lib/iso/errors.ts is listed');
});

test('errors: guard: the code k6 runs (load/, lib/iso) defines its errors only in lib/iso/errors.ts', () => {
  const files = [...tsFiles(join(ROOT, 'load')), ...tsFiles(join(ROOT, 'lib', 'iso'))]
    .map((path) => relative(ROOT, path).split('\\').join('/'))
    .filter((file) => file !== 'lib/iso/errors.ts');
  const found: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/class\s+(\w+)(?:<[^>]*>)?\s+extends\s+([\w.]+)/g)) {
      if (/Error$/.test(m[2]!)) found.push(`${file}: class ${m[1]} extends ${m[2]}`);
    }
  }
  assert.deepEqual(found, [], 'define these in lib/iso/errors.ts and list them in K6_SAFE_ERRORS');
});
