// @own-process: packs, installs and runs the package.
// The suite as a user installs it: `npm pack`, `npm install <tarball>` in an empty project
// (from the local npm cache where it can), then `npx cpc conformance` there against the
// embedded emulator: exit 0, the four report files under the project's reports/out, nothing
// written inside node_modules, none of the project's own tests, benchmarks or mutation setup
// shipped. Then a missing runtime module (@playwright/test removed) must make `cpc conformance`
// exit 1 with its message within seconds, leaving no process behind.
//
// The installed run selects a test of each surface's folder and a property (SELECTION) beside
// the whole load smoke: what the package must ship is read when Playwright lists every test
// file, when a test of each kind runs and when the load scenarios run; the whole suite's
// verdicts are `npm test`'s own conformance gate, from the same sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { envWith, leftAfter, runTimed } from './cli-support.js';
import { filesUnder, ROOT, tempDir } from './reports-support.js';

const FORMATS = ['conformance.json', 'junit.xml', 'report.html', 'summary.md'];
/** One test each of core, pods, serverless, REST v1 and GraphQL specs, and the valid-pod property. */
const SELECTION = '@AUTH\\.REST_V2\\.BEARER_ACCEPTED|@AUTH\\.GRAPHQL\\.BEARER_ACCEPTED|@V1\\.CREATE\\.GPU_PRIORITY|@AUTH\\.SERVERLESS\\.FORBIDDEN_403|@POD\\.CREATE\\.201_POD|@CATALOG\\.GPUS_AND_BY_ID';
const npm = (args: string[], cwd: string) => {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' }, timeout: 300_000 });
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

test('package-install: npm pack, install in an empty project, npx cpc conformance writes its reports there', { timeout: 600_000 }, async () => {
  const { dir, done } = tempDir('install');
  try {
    const packed = npm(['pack', '--pack-destination', dir, '--silent'], ROOT).trim().split('\n').at(-1)!;
    const project = join(dir, 'project');
    spawnSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-platform-team', version: '1.0.0', private: true }));
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed)], project);

    const installed = join(project, 'node_modules', 'compute-platform-conformance');
    const shipped = filesUnder(installed).map((f) => f.slice(installed.length + 1));
    assert.ok(shipped.includes('bin/cpc.js') && shipped.includes('playwright.config.ts'), 'the entry and the Playwright config are shipped');
    const own = shipped.filter((f) => /^(test\/[^/]+\.test\.ts|bench\/|mutation\/|stryker|reports\/test\/|reports\/out\/|\.github\/|\.ci\/|bin\/commands\/mutation-)/.test(f));
    assert.deepEqual(own, [], 'none of the project\'s own tests, benchmarks, mutation setup or CI files');

    const env = envWith({ CPC_SEED: '31337' });
    const help = spawnSync('npx', ['--no', 'cpc', 'conformance', '--help'], { cwd: project, env, encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage: cpc conformance/);

    const run = await runTimed(['npx', '--no', 'cpc', 'conformance', '--quiet-summary', '--grep', SELECTION], env, 420_000, { cwd: project });
    assert.equal(run.timedOut, false, `hung: ${run.out.slice(-3000)}`);
    assert.equal(run.code, 0, run.out.slice(-3000));
    for (const f of FORMATS) assert.ok(existsSync(join(project, 'reports', 'out', f)), `reports/out/${f} in the project`);
    assert.ok(!existsSync(join(installed, 'reports', 'out')) && !existsSync(join(installed, 'test-results')), 'nothing written inside node_modules');
    assert.match(run.out, /Result: CONFORMANT/);
    const tests = /^tests: (\d+) passed, 0 failed, 0 skipped$/m.exec(run.out);
    assert.ok(tests && Number(tests[1]) >= 9, `the selected tests (8 today) and the 3 load scenarios passed: ${tests?.[0]}`);
    assert.ok(run.out.includes(`Seed: 31337 (replay: CPC_SEED=31337 npx cpc conformance --grep '${SELECTION}')`), 'the replay hint is the installed command');

    // A runtime module missing: a clear error and an exit, never a hang.
    rmSync(join(project, 'node_modules', '@playwright', 'test'), { recursive: true, force: true });
    const marker = `cpc-missing-${randomUUID()}`;
    const broken = await runTimed(['npx', '--no', 'cpc', 'conformance', '--skip-load'], { ...env, CPC_NOHANG_TEST_MARK: marker }, 60_000, { cwd: project });
    assert.equal(broken.timedOut, false, `hung: ${broken.out.slice(-2000)}`);
    assert.equal(broken.code, 1, broken.out);
    assert.match(broken.out, /cpc: unexpected error: .*@playwright\/test/);
    assert.deepEqual(await leftAfter(marker), [], 'no process left');
    assert.deepEqual(readdirSync(project).sort(), ['node_modules', 'package-lock.json', 'package.json', 'reports', 'test-results'].sort());
  } finally {
    done();
  }
});
