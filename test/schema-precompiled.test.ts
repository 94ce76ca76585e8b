/**
 * The validators compiled ahead of time (lib/validators.gen.cjs, reports/validators.gen.cjs) are
 * the schemas' own: made from the files on disk (`npm run gen` is current), used only while their
 * digest matches them, and answering every document exactly as Ajv compiling the schemas now
 * does, errors included.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { schemaAjv, schemaNames, schemaOf, usesPrecompiledValidators } from '../lib/schema-registry.js';
import { precompiledFor, type PrecompiledValidators } from '../lib/precompiled.js';
import { reportAjv, usesPrecompiledReportValidators } from '../reports/validate.js';
import { updatedBaseline } from '../reports/baseline.js';
import { fixtureReport } from '../reports/test/fixture.js';
import { checkReportValidators, checkValidators } from '../scripts/gen-types.js';
import { cases } from './schema-cases.js';

const SEED = 20261124;
const RUNS = 300;

const generated = createRequire(import.meta.url)('../lib/validators.gen.cjs') as PrecompiledValidators;
const generatedReport = createRequire(import.meta.url)('../reports/validators.gen.cjs') as PrecompiledValidators;

/** Both validators answer `doc` alike: the same verdict and the same errors. Returns the verdict. */
function agree(name: string, ahead: ValidateFunction, compiled: ValidateFunction, doc: unknown): boolean {
  const valid = ahead(doc);
  assert.equal(valid, compiled(doc), `${name}: the same verdict`);
  assert.deepEqual(ahead.errors ?? null, compiled.errors ?? null, `${name}: the same errors`);
  return valid;
}

/** Every property name, `const`/`enum` value and `pattern`-free string constant the schemas mention, for documents shaped like theirs. */
function vocabulary(): { keys: string[]; values: unknown[] } {
  const keys = new Set<string>();
  const values: unknown[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    for (const field of ['properties', 'patternProperties', 'dependentSchemas', 'dependentRequired']) {
      const props = o[field];
      if (typeof props === 'object' && props !== null) Object.keys(props).forEach((k) => keys.add(k));
    }
    if (Array.isArray(o.required)) o.required.forEach((k) => typeof k === 'string' && keys.add(k));
    if ('const' in o) values.push(o.const);
    if (Array.isArray(o.enum)) values.push(...(o.enum as unknown[]));
    for (const bound of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']) {
      if (typeof o[bound] === 'number') values.push(o[bound], (o[bound] as number) - 1, (o[bound] as number) + 1);
    }
    Object.values(o).forEach(walk);
  };
  for (const name of schemaNames()) walk(schemaOf(name));
  return { keys: [...keys].sort(), values };
}

type Path = (string | number)[];

/** Every place in a document: the paths of its objects' properties and its arrays' items. */
function pathsOf(doc: unknown, at: Path = []): Path[] {
  if (Array.isArray(doc)) return doc.flatMap((item, i) => [[...at, i], ...pathsOf(item, [...at, i])]);
  if (typeof doc === 'object' && doc !== null) return Object.entries(doc).flatMap(([k, v]) => [[...at, k], ...pathsOf(v, [...at, k])]);
  return [];
}

/** `doc` changed in one place: a value deleted, replaced, or a property added beside it. */
function changedOnce(doc: unknown, path: Path, change: 'delete' | 'replace' | 'add', value: unknown, key: string): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (change === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (change === 'replace') parent[last] = value;
  else if (!Array.isArray(parent)) parent[key] = value;
  return copy;
}

/**
 * JSON documents built from the schemas' own words: random shapes (most invalid in some way),
 * and the hand-written documents of test/schema-cases.ts for `name`, as they are and changed in
 * one place (valid ones and ones broken in a single rule, deep inside the larger schemas).
 */
function documents(name: string, leaf: fc.Arbitrary<unknown>, keys: readonly string[], bases: readonly unknown[] = cases.filter((c) => c.schema === name).map((c) => c.data)): fc.Arbitrary<unknown> {
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array')),
    object: fc.dictionary(fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...keys) }, fc.string({ maxLength: 4 })), tie('value'), { maxKeys: 10 }),
    array: fc.array(tie('value'), { maxLength: 3 }),
  }));
  if (bases.length === 0) return value;
  const near = fc.constantFrom(...bases).chain((base) => {
    const paths = pathsOf(base);
    if (paths.length === 0) return fc.constant(base);
    return fc.tuple(fc.constantFrom(...paths), fc.constantFrom('delete', 'replace', 'add') as fc.Arbitrary<'delete' | 'replace' | 'add'>, leaf, fc.constantFrom(...keys))
      .map(([path, change, v, key]) => changedOnce(base, path, change, v, key));
  });
  return fc.oneof(value, { weight: 2, arbitrary: near }, fc.constantFrom(...bases));
}

function leaves(values: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...values) },
    fc.integer({ min: -2, max: 200 }), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }),
    fc.uuid(), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom('/workspace', '/p', 'relative', 'https://x.test/a', 'x@y.test'),
  );
}

describe('validators compiled ahead of time', () => {
  it('are what `npm run gen` makes from the schema files on disk, and the registry uses them', () => {
    const check = checkValidators();
    assert.ok(check.actual !== null, 'lib/validators.gen.cjs exists');
    assert.ok(check.upToDate, 'lib/validators.gen.cjs is stale: run `npm run gen`');
    assert.ok(usesPrecompiledValidators(), 'the registry uses the precompiled validators');
    assert.deepEqual(Object.keys(generated.validators).sort(), [...schemaNames()].sort());
  });

  it('are not used when made from other schema files (the registry compiles instead)', () => {
    assert.equal(precompiledFor(generated, generated.digest).size, schemaNames().length);
    assert.equal(precompiledFor(generated, '0'.repeat(64)).size, 0);
    assert.equal(precompiledFor(undefined, generated.digest).size, 0);
  });

  it(`answer as Ajv compiling the schemas now: validity and every error (seed ${SEED}, ${RUNS} documents per schema)`, () => {
    const { ajv, refs } = schemaAjv();
    const { keys, values } = vocabulary();
    const leaf = leaves(values);
    let invalid = 0;
    const validBy = new Map<string, number>();
    for (const name of schemaNames()) {
      const compiled = ajv.getSchema(refs[name])!;
      const ahead = generated.validators[name]!;
      fc.assert(fc.property(documents(name, leaf, keys), (doc) => {
        const valid = agree(name, ahead, compiled, doc);
        if (!valid) invalid++;
        else validBy.set(name, (validBy.get(name) ?? 0) + 1);
      }), { seed: SEED, numRuns: RUNS });
    }
    // The documents reach the error paths (a comparison of two `true`s would say little).
    assert.ok(invalid > schemaNames().length * RUNS * 0.5, `${invalid} invalid documents`);
    console.log(`valid documents by schema: ${[...validBy].map(([n, c]) => `${n} ${c}`).join(', ')}`);
  });
});

describe('report validators compiled ahead of time', () => {
  it('are what `npm run gen` makes from the report\'s schema files, and reports/validate.ts uses them', () => {
    const check = checkReportValidators();
    assert.ok(check.actual !== null, 'reports/validators.gen.cjs exists');
    assert.ok(check.upToDate, 'reports/validators.gen.cjs is stale: run `npm run gen`');
    assert.ok(usesPrecompiledReportValidators(), 'reports/validate.ts uses the precompiled validators');
    assert.deepEqual(Object.keys(generatedReport.validators).sort(), ['baseline', 'load', 'report']);
  });

  it(`answer as Ajv compiling the report's schemas now (seed ${SEED}, ${RUNS} documents each)`, () => {
    const { ajv, refs } = reportAjv();
    const report = fixtureReport();
    const bases: Record<string, unknown[]> = {
      report: [report],
      load: (report.load?.scenarios ?? []).flatMap((sc) => (sc.summary ? [sc.summary] : [])),
      baseline: [updatedBaseline(report, { rules: {} })],
    };
    const keys = ['id', 'status', 'verdict', 'rules', 'summary', 'tests', 'name', 'reason', 'durationMs', 'passed', 'failed'];
    const leaf = leaves(['pass', 'fail', 'blocked', 'skipped', 'untested', 'observed', 'MUST', 'SHOULD', 0, 1, -1, true, '', null]);
    for (const [name, id] of Object.entries(refs)) {
      assert.ok((bases[name] ?? []).length > 0, `a ${name} to start from`);
      const compiled = ajv.getSchema(id)!;
      const ahead = generatedReport.validators[name]!;
      let valid = 0;
      fc.assert(fc.property(documents(name, leaf, keys, bases[name]), (doc) => { if (agree(name, ahead, compiled, doc)) valid++; }), { seed: SEED, numRuns: RUNS });
      assert.ok(valid > 0 && valid < RUNS, `${name}: valid and invalid documents both reached (${valid} valid of ${RUNS})`);
    }
  });
});
