// @own-process: reads every import of the project and runs ESLint and knip over it (seconds of CPU).
/**
 * The project's structure, checked: no import cycle in any TypeScript folder (test/import-graph.ts), every
 * layer boundary of eslint.config.js stops an import across it and lets the allowed ones
 * through, and no file, export or type is left unused (knip, configured by knip.jsonc).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { cyclesOf, importGraph } from './import-graph.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Every folder of the project that holds TypeScript. */
const FOLDERS = ['lib', 'bin', 'run', 'emulator', 'contract', 'property', 'reports', 'load', 'scripts', 'bench', 'test'];
/** The root's configuration files and the plain-JavaScript folders: they import project files too. */
const ROOT_FILES = ['playwright.config.ts', 'eslint.config.js', 'stryker.config.mjs'];
const SCRIPT_FOLDERS = ['mutation'];
/** Generated output, never imported. */
const GENERATED = /^reports\/out\//;
/**
 * The `import(expression)`s of the project, whose target the graph cannot follow, each with why
 * it is computed: a new one fails the no-cycle test until it is declared here.
 */
const KNOWN_DYNAMIC: Record<string, string> = {
  'test/in-process.ts: import(pathToFileURL(join(TEST_DIR, file)).href)': 'imports each unit test file the shared process runs (test/unit-files.ts)',
  'test/mutation-config.test.ts: import(pathToFileURL(join(ROOT, file)).href)': 'loads the plain-JavaScript mutation configuration and ignore plugins by name',
};

/** The import cycles among `files` (relative to `baseDir`) and the files they import, the imports that name no file, and the computed ones. */
const cyclesAmong = (baseDir: string, files: string[]): { cycles: string[]; files: string[]; unresolved: string[]; dynamic: string[] } => {
  const graph = importGraph(baseDir, files);
  return { cycles: cyclesOf(graph).map((c) => c.join(' → ')), files: Object.keys(graph.edges), unresolved: graph.unresolved, dynamic: graph.dynamic };
};

const filesUnder = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).map((f) => `${folder}/${f.split('\\').join('/')}`);

const projectFiles = (): string[] => [
  ...FOLDERS.flatMap(filesUnder).filter((f) => f.endsWith('.ts') && !GENERATED.test(f)),
  ...SCRIPT_FOLDERS.flatMap(filesUnder).filter((f) => /\.m?js$/.test(f)),
  ...ROOT_FILES,
].sort();

test('the import graph finds an import cycle where there is one, through type-only, dynamic and re-export imports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpc-cycle-'));
  try {
    const files: Record<string, string> = {
      'a.ts': "import { b } from './b.js';\nexport const a = (): number => b + 1;\n",
      'b.ts': "import type { a } from './a.js';\nexport const b = 1;\nexport type A = typeof a;\n",
      'c.ts': "import { b } from './b.js';\nexport const c = b;\n",
      'd.ts': "export const d = async (): Promise<unknown> => import('./e.js');\n",
      'e.ts': "export * from './d.ts';\nimport data from './f.json' with { type: 'json' };\nexport const e = data;\n",
      'f.json': '{}\n',
      'g.ts': "import { gone } from './missing.js';\nimport { readFileSync } from 'node:fs';\nexport const g = [gone, readFileSync];\n",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const found = cyclesAmong(dir, ['a.ts', 'c.ts', 'd.ts', 'g.ts']);
    assert.deepEqual(found.files.sort(), ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'g.ts'], 'the files reached through imports are read too');
    assert.deepEqual(found.cycles, ['a.ts → b.ts', 'd.ts → e.ts'], 'a type-only import closes a cycle, and so do a dynamic import and a re-export');
    assert.deepEqual(found.unresolved, ['g.ts: ./missing.js'], 'an import that names no file is reported; a package\'s is not the graph\'s');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the import graph reads the imports after a regex literal holding a backtick or a quote, and names a computed import()', () => {
  // A tokenizer that takes the regex's backtick for a template string loses every import after it.
  const dir = mkdtempSync(join(tmpdir(), 'cpc-cycle-'));
  try {
    const files: Record<string, string> = {
      'a.ts': "const q = /`/;\nconst r = /'/;\nexport const a = async (): Promise<unknown> => import('./b.js');\nexport const s = q.source + r.source;\n",
      'b.ts': "import type { a } from './a.js';\nexport type B = typeof a;\nexport type C = import('./c.js').C;\n",
      'c.ts': "export type C = number;\nexport const load = async (name: string): Promise<unknown> => import(name);\n",
      'm.mjs': "const q = /\"/;\nexport { q };\nexport { a } from './a.js';\n",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const found = cyclesAmong(dir, ['a.ts', 'm.mjs']);
    assert.deepEqual(found.files.sort(), ['a.ts', 'b.ts', 'c.ts', 'm.mjs'], 'the files reached through imports are read too');
    assert.deepEqual(found.cycles, ['a.ts → b.ts'], 'the dynamic import after the regex literals closes the cycle');
    assert.deepEqual(found.dynamic, ['c.ts: import(name)'], 'a computed import() is named as written');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`no import cycle in ${[...FOLDERS, ...SCRIPT_FOLDERS, ...ROOT_FILES].join(', ')}`, () => {
  // Every TypeScript file of the folders is read, whether or not another imports it; an import
  // the graph could not follow would hide the cycles through it.
  const { cycles, unresolved, dynamic } = cyclesAmong(ROOT, projectFiles());
  assert.deepEqual(unresolved, [], 'imports that name no file');
  assert.deepEqual(dynamic, Object.keys(KNOWN_DYNAMIC).sort(), 'computed import()s the graph cannot follow: each is declared in KNOWN_DYNAMIC with why');
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join('\n')}`);
});

/** [file, import, blocked]: for each layer an import across its boundary, and one it may make. */
const BOUNDARIES: readonly [string, string, boolean][] = [
  ['lib/x.ts', '../contract/support/fixtures.js', true],
  ['lib/x.ts', '../emulator/server.js', true],
  ['lib/x.ts', '../reports/model.js', true],
  ['lib/x.ts', '../bin/paths.js', true],
  ['lib/x.ts', '../run/paths.js', true],
  ['lib/x.ts', '../test/cli-support.js', true],
  ['lib/x.ts', '../run/embedded.js', true],
  ['lib/client/x.ts', '../../run/detection/plan.js', true],
  ['lib/client/x.ts', '../rules.js', false],
  ['lib/x.ts', '../schemas/pod.schema.json', false],
  ['lib/iso/x.ts', 'node:fs', true],
  ['lib/iso/x.ts', '../redact.js', true],
  ['lib/iso/x.ts', './structured-fields.ts', false],
  ['run/embedded.ts', '../emulator/server.js', false],
  ['run/detection/x.ts', '../../reports/raw.js', false],
  ['run/detection/x.ts', '../../contract/support/fixtures.js', true],
  ['run/k6node/x.ts', '../../bin/cpc.js', true],
  ['run/x.ts', '../test/cli-support.js', true],
  ['emulator/pods/x.ts', '../../lib/rules.js', false],
  ['emulator/pods/x.ts', '../../run/embedded.js', true],
  ['emulator/pods/x.ts', '../../reports/model.js', true],
  ['emulator/x.ts', '../contract/support/fixtures.js', true],
  ['reports/render/x.ts', '../../lib/rules.js', false],
  ['reports/render/x.ts', '../../contract/checks/x.js', true],
  ['reports/x.ts', '../emulator/app.js', true],
  ['reports/x.ts', '../run/variants/plan.js', true],
  ['contract/specs/pods/x.ts', '../../../lib/pod-catalog.js', false],
  ['run/global-setup.ts', './embedded.js', false],
  ['contract/support/x.ts', '../../run/embedded.js', true],
  ['contract/specs/x.ts', '../../emulator/server.js', true],
  ['contract/specs/x.ts', '../../property/support/run.js', true],
  ['contract/x.ts', '../reports/model.js', true],
  ['property/pods/x.ts', '../../contract/checks/x.js', false],
  ['property/pods/x.ts', '../../emulator/pods/store.js', true],
  ['property/x.ts', '../run/paths.js', true],
  ['property/x.ts', '../bin/cpc.js', true],
  ['load/x.ts', 'k6/http', false],
  ['load/x.ts', './lib/jobs.ts', false],
  ['load/lib/x.ts', '../../lib/iso/structured-fields.ts', false],
  ['load/lib/x.ts', '../../lib/config.js', true],
  ['load/x.ts', 'node:fs', true],
  ['load/x.ts', 'undici', true],
  ['bin/commands/x.ts', '../../emulator/faults.js', false],
  ['bin/commands/x.ts', '../../run/conformance.js', false],
  ['bin/commands/x.ts', '../../reports/build.js', false],
  ['bin/commands/x.ts', '../../test/cli-support.js', true],
  ['bin/x.ts', '../contract/support/fixtures.js', true],
  ['scripts/x.ts', '../test/cli-support.js', true],
  ['bench/x.ts', '../run/paths.js', false],
  ['mutation/x.mjs', '../stryker.config.mjs', false],
  ['mutation/x.mjs', './scope.json', false],
  ['mutation/x.mjs', '../lib/errors.js', true],
  ['bench/x.ts', '../test/cli-support.js', true],
  ['playwright.config.ts', './run/detection/projects.js', false],
  ['playwright.config.ts', './test/cli-support.js', true],
];

test('lint keeps every layer to the imports it may make', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const wrong: string[] = [];
  for (const [file, specifier, blocked] of BOUNDARIES) {
    const [result] = await eslint.lintText(`import '${specifier}';\n`, { filePath: join(ROOT, file) });
    const stopped = (result?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports');
    if (stopped !== blocked) wrong.push(`${file}: import '${specifier}' ${stopped ? 'refused' : 'allowed'}`);
  }
  assert.deepEqual(wrong, []);
});

interface KnipIssue { file: string; files: unknown[]; exports: { name: string; line: number }[]; types: { name: string; line: number }[]; duplicates: unknown[][] }

/** knip's findings in `cwd`, one line each. */
async function unused(cwd: string): Promise<string[]> {
  const bin = join(ROOT, 'node_modules', '.bin', 'knip');
  // knip exits 1 when it finds something: the JSON on stdout says what.
  const out = await promisify(execFile)(bin, ['--reporter', 'json', '--no-progress'], { cwd, maxBuffer: 16 * 1024 * 1024 })
    .catch((e: { stdout?: string; stderr?: string; code?: number }) => {
      if (e.code === 1 && e.stdout) return { stdout: e.stdout };
      throw new Error(`knip did not run: ${e.stderr ?? String(e)}`);
    });
  const { issues } = JSON.parse(out.stdout) as { issues: KnipIssue[] };
  return issues.flatMap((i) => [
    ...(i.files.length ? [`${i.file}: unused file`] : []),
    ...i.exports.map((e) => `${i.file}:${e.line}: unused export ${e.name}`),
    ...i.types.map((t) => `${i.file}:${t.line}: unused type ${t.name}`),
    ...i.duplicates.map((d) => `${i.file}: exported twice ${JSON.stringify(d)}`),
  ]).sort();
}

test('knip reports an unused file, export and type where there are some', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cpc-unused-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module' }));
    writeFileSync(join(dir, 'knip.json'), JSON.stringify({ entry: ['a.ts'], project: ['*.ts'], include: ['files', 'exports', 'types', 'duplicates'], ignoreExportsUsedInFile: true }));
    writeFileSync(join(dir, 'a.ts'), "import { used } from './b.js';\nexport const a = used;\n");
    writeFileSync(join(dir, 'b.ts'), 'export const used = 1;\nexport const unused = 2;\nexport type Unused = number;\nexport const usedHere = 3;\nexport const alsoUsed = usedHere * 2;\n');
    writeFileSync(join(dir, 'c.ts'), 'export const c = 3;\n');
    assert.deepEqual(await unused(dir), ['b.ts:2: unused export unused', 'b.ts:3: unused type Unused', 'b.ts:5: unused export alsoUsed', 'c.ts: unused file']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no unused file, export or type (knip, configured by knip.jsonc)', async () => {
  assert.deepEqual(await unused(ROOT), []);
});
