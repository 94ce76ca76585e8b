// The mutation run's own parts, without running Stryker (too slow for npm test): the
// configuration parses and names files that exist, the equivalent list points at real code,
// the ignore plugins ignore what they say and nothing else, and the report reader counts and
// matches survivors as Stryker reports them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { locate, playwrightArgs, readGroups, stages } from '../bin/commands/mutation-run.js';
import { scoreText } from '../bin/commands/mutation-score.js';
import { mergeRecheck, rangeOf } from '../bin/commands/mutation-recheck.js';
import { originalText, readEquivalentList, readMutationResults } from '../reports/mutation.js';
import { buildReport } from '../reports/build.js';
import { validateReport } from '../reports/validate.js';
import { htmlRenderer } from '../reports/render/html.js';
import { markdownRenderer } from '../reports/render/markdown.js';
import { fixtureRules } from '../reports/test/fixture.js';
import { ROOT, tempDir } from './reports-support.js';

interface StrykerConfig { mutate: string[]; testRunner: string; commandRunner: { command: string }; plugins: string[]; ignorers: string[]; jsonReporter: { fileName: string } }

/** A plain-JavaScript module of the project (the configuration, the ignore plugins). */
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(ROOT, file)).href)) as T;
const config = async (): Promise<StrykerConfig> => (await load<{ default: StrykerConfig }>('stryker.config.mjs')).default;
const ignorePlugins = async (): Promise<{ name: string; value: unknown }[]> => (await load<{ strykerPlugins: { name: string; value: unknown }[] }>('mutation/ignorers.mjs')).strykerPlugins;

test('mutation: stryker.config.mjs parses, runs the command runner and mutates files that exist', async () => {
  const c = await config();
  assert.equal(c.testRunner, 'command');
  assert.match(c.commandRunner.command, /bin\/commands\/mutation-run\.ts/);
  assert.equal(c.jsonReporter.fileName, 'reports/out/mutation/mutation.json');
  assert.ok(c.mutate.length >= 4);
  for (const file of c.mutate) assert.ok(existsSync(join(ROOT, file)), `${file} exists`);
  for (const plugin of c.plugins.filter((p) => p.startsWith('./'))) assert.ok(existsSync(join(ROOT, plugin)), `${plugin} exists`);
  assert.deepEqual(c.ignorers.toSorted(), (await ignorePlugins()).map((p) => p.name).toSorted(), 'every configured ignorer is declared');
});

test('mutation: every group names specs that exist; `only` names files of the groups', () => {
  const groups = readGroups(ROOT);
  for (const g of groups) {
    for (const spec of [...g.specs, ...Object.values(g.first ?? {}).flat()]) assert.ok(existsSync(join(ROOT, spec)), `${spec} exists`);
    for (const file of Object.keys(g.first ?? {})) assert.ok(g.mutate.includes(file), `first: ${file} is mutated by ${g.name}`);
  }
  const scope = JSON.parse(readFileSync(join(ROOT, 'mutation/scope.json'), 'utf8')) as { only: Record<string, string[]> };
  const files = groups.flatMap((g) => g.mutate);
  for (const [file, names] of Object.entries(scope.only)) {
    assert.ok(files.includes(file), `${file} is mutated`);
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const name of names.filter((n) => !n.startsWith('@'))) assert.ok(source.includes(name.startsWith('#') ? name : ` ${name}`), `${file} declares ${name}`);
  }
});

test('mutation: a mutant runs its file\'s first specs, then the rest of its group; the dry run runs every group', () => {
  const { dir, done } = tempDir('mutation-groups');
  try {
    writeFileSync(join(dir, 'a.ts'), 'const x = stryMutAct_9fa48("7") ? 1 : 2;');
    writeFileSync(join(dir, 'b.ts'), 'const y = stryMutAct_9fa48("12") ? 1 : 2;');
    mkdirSync(join(dir, 'specs/b'), { recursive: true });
    for (const f of ['one.spec.ts', 'two.spec.ts', 'helper.ts']) writeFileSync(join(dir, 'specs/b', f), '');
    const groups = [{ name: 'a', mutate: ['a.ts'], specs: ['specs/a'] }, { name: 'b', mutate: ['b.ts'], specs: ['specs/b'], first: { 'b.ts': ['specs/b/two.spec.ts'] } }];
    const b = locate(dir, groups, '12');
    assert.deepEqual([b?.group.name, b?.file], ['b', 'b.ts']);
    assert.equal(locate(dir, groups, '1'), undefined, 'mutant 1 is not mutant 12');
    assert.deepEqual(stages(dir, groups, b), [['specs/b/two.spec.ts'], ['specs/b/one.spec.ts']]);
    assert.deepEqual(stages(dir, groups, locate(dir, groups, '7')), [['specs/a']]);
    assert.deepEqual(stages(dir, groups, undefined), [['specs/a', 'specs/b']]);
    assert.ok(playwrightArgs(['specs/a'], true, 2).includes('--max-failures=1'));
    assert.ok(!playwrightArgs(['specs/a'], false, 2).includes('--max-failures=1'), 'the dry run runs everything');
  } finally {
    done();
  }
});

test('mutation: every equivalent entry points at code that exists, with a reason', () => {
  const entries = readEquivalentList(join(ROOT, 'mutation/equivalent.json'));
  const markdown = readFileSync(join(ROOT, 'mutation/EQUIVALENT.md'), 'utf8');
  for (const e of entries) {
    assert.ok(existsSync(join(ROOT, e.file)), `${e.file} exists`);
    const source = readFileSync(join(ROOT, e.file), 'utf8');
    assert.ok(source.includes(e.original), `${e.file}: "${e.original}" is in the file`);
    assert.ok(e.reason.length >= 20, `${e.file}:${e.line}: a reason, not a word`);
    assert.ok(markdown.includes(e.file), `EQUIVALENT.md explains ${e.file}`);
  }
});

/** Mutants of `code` with the project's ignore plugins: [line, mutator, ignore reason or ''] */
async function mutantsOf(code: string): Promise<[number, string, string][]> {
  const strykerPlugins = await ignorePlugins();
  const quiet = { isDebugEnabled: () => false, isTraceEnabled: () => false, debug() {}, trace() {}, info() {}, warn() {}, error() {}, isInfoEnabled: () => false, isWarnEnabled: () => false, isErrorEnabled: () => false, isFatalEnabled: () => false, fatal() {} };
  const res = await new Instrumenter(quiet as never).instrument([{ name: 'snippet.ts', content: code, mutate: true }],
    { plugins: null, excludedMutations: [], ignorers: strykerPlugins.map((p) => p.value) as never, noHeader: true });
  return res.mutants.map((m) => [m.location.start.line + 1, m.mutatorName, m.statusReason ?? '']); // 0-based lines inside Stryker
}

test('mutation: fault switches, what only a fault runs and problem wording are ignored; the rules are not', async () => {
  const mutants = await mutantsOf([
    'export function f(world: { fault(id: string): boolean }, n: number, old: { p: string } | undefined): string {',
    "  if (world.fault('pods.x')) return 'faulty';", // 2: switch and its branch
    "  const keep = old !== undefined && world.fault('pods.y');", // 3: conjunct beside a switch
    "  if (n < 2) throw conflict('/n', `too small: ${n}`);", // 4: the rule (mutated), its wording (ignored)
    '  return keep ? old!.p : String(n);',
    '}',
    'declare function conflict(path: string, message: string): Error;',
  ].join('\n'));
  const on = (line: number) => mutants.filter(([l]) => l === line);
  assert.ok(on(2).length > 0 && on(2).every(([, , why]) => why !== ''), `line 2 ignored: ${JSON.stringify(on(2))}`);
  assert.ok(on(3).length > 0 && on(3).every(([, , why]) => why !== ''), `line 3, a fault-gated condition, ignored: ${JSON.stringify(on(3))}`);
  assert.ok(on(4).some(([, m, why]) => m === 'EqualityOperator' && why === ''), 'the rule n < 2 is mutated');
  assert.ok(on(4).some(([, m, why]) => m === 'StringLiteral' && why !== ''), 'its wording is ignored');
});

/** A Stryker report of one file with the given statuses on lines 1..n of `source`. */
function strykerReport(source: string, mutants: [status: string, line: number, mutator: string, replacement: string][]): object {
  return {
    schemaVersion: '1.0', thresholds: { high: 80, low: 60 },
    files: { 'emulator/x.ts': { language: 'typescript', source, mutants: mutants.map(([status, line, mutatorName, replacement], i) => ({
      id: String(i), status, mutatorName, replacement, location: { start: { line, column: 1 }, end: { line, column: source.split('\n')[line - 1]!.length + 1 } },
    })) } },
  };
}

test('mutation: the reader counts like Stryker, matches listed survivors by their code, and the report shows it', () => {
  const { dir, done } = tempDir('mutation-report');
  try {
    const source = 'a < b\nc === d\ne && f\ng || h';
    writeFileSync(join(dir, 'mutation.json'), JSON.stringify(strykerReport(source, [
      ['Killed', 1, 'EqualityOperator', 'a <= b'], ['Timeout', 1, 'ConditionalExpression', 'true'], ['Survived', 2, 'EqualityOperator', 'c !== d'],
      ['Survived', 3, 'LogicalOperator', 'e || f'], ['NoCoverage', 4, 'LogicalOperator', 'g && h'], ['Ignored', 4, 'ConditionalExpression', 'false'],
    ])));
    writeFileSync(join(dir, 'equivalent.json'), JSON.stringify({ mutants: [
      { file: 'emulator/x.ts', line: 3, mutator: 'LogicalOperator', original: 'e && f', replacement: 'e || f', reason: 'e and f are always equal here, so either operator gives the same value' },
      { file: 'emulator/x.ts', line: 2, mutator: 'EqualityOperator', original: 'c === x', replacement: 'c !== d', reason: 'a stale entry whose code no longer matches must not count' },
    ] }));
    assert.equal(originalText(source, { start: { line: 3, column: 1 }, end: { line: 3, column: 7 } }), 'e && f');
    const m = readMutationResults(join(dir, 'mutation.json'), join(dir, 'equivalent.json'), dir)!;
    assert.deepEqual([m.killed, m.timeout, m.survived, m.noCoverage, m.total, m.ignored], [1, 1, 2, 1, 5, 1]);
    assert.equal(m.score, 40);
    assert.equal(m.scoreExcludingEquivalent, 50);
    assert.deepEqual(m.equivalent.map((e) => [e.line, e.mutator]), [[3, 'LogicalOperator']]);
    assert.deepEqual(m.unresolved.map((e) => [e.line, e.mutator]), [[2, 'EqualityOperator'], [4, 'LogicalOperator']]);
    assert.match(scoreText(m), /Mutation score: 40\.00%[\s\S]*2 unresolved survivor/);
    assert.equal(readMutationResults(join(dir, 'absent.json'), join(dir, 'equivalent.json'), dir), undefined);

    const report = buildReport({ rules: fixtureRules, raw: [], target: { kind: 'embedded', keys: { main: true, readonly: true, other: true }, emulator: true, faults: [] },
      startedAt: new Date(), finishedAt: new Date(), complete: true, suiteVersion: '0.1.0', mutation: m });
    assert.deepEqual(validateReport(report), { valid: true });
    assert.match(htmlRenderer.render(report), /<section id="mutation"><h2>Mutation testing \(score 40\.00%\)/);
    assert.match(markdownRenderer.render(report), /## Mutation testing\n\nScore \*\*40\.00%\*\*/);
  } finally {
    done();
  }
});

test('mutation: a malformed equivalent entry is an error, never skipped', () => {
  const { dir, done } = tempDir('mutation-bad');
  try {
    writeFileSync(join(dir, 'equivalent.json'), JSON.stringify({ mutants: [{ file: 'x.ts', line: 1, mutator: 'X', original: 'a', replacement: 'b' }] }));
    assert.throws(() => readEquivalentList(join(dir, 'equivalent.json')), /mutants\[0\]\.reason must be a non-empty string/);
  } finally {
    done();
  }
});

test('mutation: a re-check targets each survivor\'s exact location and replaces only those statuses', () => {
  const loc = { start: { line: 12, column: 7 }, end: { line: 12, column: 20 } };
  assert.equal(rangeOf('emulator/x.ts', loc), 'emulator/x.ts:12:6-12:19', 'report columns are 1-based, Stryker ranges 0-based');
  const mutant = (id: string, status: string, replacement: string) => ({ id, status, mutatorName: 'ConditionalExpression', replacement, location: loc });
  const full = { files: { 'emulator/x.ts': { mutants: [mutant('1', 'Survived', 'true'), mutant('2', 'Survived', 'false'), mutant('3', 'Killed', '!x')] } } };
  const again = { files: { 'emulator/x.ts': { mutants: [mutant('40', 'Killed', 'true'), mutant('41', 'Survived', 'false'), mutant('42', 'Survived', '!x')] } } };
  assert.deepEqual(mergeRecheck(full, again, new Set(['emulator/x.ts#1', 'emulator/x.ts#2'])), [2, 1]);
  assert.deepEqual(full.files['emulator/x.ts'].mutants.map((m) => [m.id, m.status]), [['1', 'Killed'], ['2', 'Survived'], ['3', 'Killed']],
    'ids stay, the re-run status wins, a mutant not re-checked keeps its status');
});
