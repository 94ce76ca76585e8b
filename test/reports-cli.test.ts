// @own-process: starts and interrupts whole cpc conformance runs.
// The report end to end through the CLI: an interrupted run (Ctrl-C, SIGTERM through npm, a
// target that stops answering) still writes every format, marked incomplete; the seed is
// chosen once, passed on and recorded; `cpc report` re-renders; bad options exit 2.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../emulator/server.js';
import { validateReport } from '../reports/validate.js';
import { writeReports } from '../reports/write.js';
import { fixtureReport } from '../reports/test/fixture.js';
import type { ConformanceReport } from '../reports/model.js';
import { cleanEnv, cpcAsync, tempDir, until } from './reports-support.js';
import { cpcHere } from './cpc-here.js';
import { leftAfter } from './cli-support.js';
import { randomUUID } from 'node:crypto';

const FORMATS = ['conformance.json', 'junit.xml', 'report.html', 'summary.md'];
const resultsIn = (out: string): number => {
  const path = join(out, 'raw', 'playwright.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length : 0;
};
const readReport = (out: string): ConformanceReport => JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;

function assertIncomplete(out: string, interruption: RegExp): ConformanceReport {
  for (const f of FORMATS) assert.ok(existsSync(join(out, f)), `${f} written`);
  const report = readReport(out);
  assert.deepEqual(validateReport(report), { valid: true });
  assert.equal(report.run.complete, false);
  assert.match(report.run.interruption ?? '', interruption);
  assert.equal(report.summary.conformant, false);
  assert.ok(report.summary.tests.total > report.summary.tests.passed, 'some tests did not run');
  assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /id="incomplete"/);
  assert.match(readFileSync(join(out, 'summary.md'), 'utf8'), /Incomplete run/);
  return report;
}

test('cli: Ctrl-C (SIGINT to the process group) still writes a report marked incomplete; exit 130', { timeout: 180_000 }, async () => {
  const { dir, done } = tempDir('sigint');
  let run: ReturnType<typeof cpcAsync> | undefined;
  try {
    run = cpcAsync(['conformance', '--out', dir, '--quiet-summary', '--artifacts', join(dir, 'artifacts')], cleanEnv({ CPC_SEED: '4242' }));
    await until(() => resultsIn(dir) >= 2, 120_000, 'the first results', run.output);
    run.interrupt('SIGINT');
    const { code, out } = await run.done;
    assert.equal(code, 130, out);
    assert.match(out, /^Seed: 4242 \(replay: CPC_SEED=4242 npm run conformance\)$/m);
    const report = assertIncomplete(dir, /^interrupted by SIGINT$/);
    assert.ok(report.summary.tests.passed + report.summary.tests.failed >= 2, 'results reached before the interrupt are kept');
    assert.equal(report.run.seed, 4242);
    assert.equal(report.run.replay, 'CPC_SEED=4242 npm run conformance');
  } finally {
    run?.kill();
    done();
  }
});

/**
 * One `npm run conformance` of the property suite without CPC_SEED, stopped by SIGTERM once a
 * property result is recorded, read by the two tests below (the signal through npm; the seed
 * chosen): one worker, no load scenarios (the Ctrl-C test above interrupts both workers and the load).
 */
const npmFolder = tempDir('sigterm');
after(() => npmFolder.done());
let npmRun: Promise<string> | undefined;
function sigtermThroughNpm(): Promise<string> {
  return npmRun ??= (async () => {
    const dir = npmFolder.dir;
    const run = cpcAsync(['--', '--out', dir, '--quiet-summary', '--project', 'property', '--skip-load', '--workers', '1', '--artifacts', join(dir, 'artifacts')],
      cleanEnv({ CPC_PROPERTY_RUNS: '3' }), ['npm', 'run', '--silent', 'conformance']);
    try {
      // Every property test names its seed in its title, "(seed N)"; the first one recorded is enough.
      const raw = join(dir, 'raw', 'playwright.jsonl');
      await until(() => existsSync(raw) && readFileSync(raw, 'utf8').includes('"property":{"seed"'), 120_000, 'a property result', run.output);
      run.interrupt('SIGTERM');
      return (await run.done).out;
    } finally {
      run.kill();
    }
  })();
}

test('cli: SIGTERM to `npm run conformance` still writes a report marked incomplete', { timeout: 180_000 }, async () => {
  await sigtermThroughNpm();
  assertIncomplete(npmFolder.dir, /^interrupted by SIGTERM$/);
});

test('cli: a target that stops answering ends the run with a report marked incomplete, leaving no process; exit 1', { timeout: 180_000 }, async () => {
  const { dir, done } = tempDir('lost');
  const marker = `cpc-lost-${randomUUID()}`;
  const emulator = await startEmulator({ port: 0, host: '127.0.0.1' });
  let closed = false;
  let run: ReturnType<typeof cpcAsync> | undefined;
  try {
    // Every process of the run inherits the marker; none may be left once it ended. One worker and
    // no preflight (its listing of the suite is a Playwright run of its own): the watchdog is what is tested.
    run = cpcAsync(['conformance', '--out', dir, '--quiet-summary', '--probe-every', '200', '--workers', '1', '--skip-preflight', '--artifacts', join(dir, 'artifacts')], cleanEnv({ CPC_BASE_URL: emulator.url, CPC_NOHANG_TEST_MARK: marker }));
    await until(() => resultsIn(dir) >= 2, 120_000, 'the first results', run.output);
    await emulator.close();
    closed = true;
    const { code, out } = await run.done;
    assert.equal(code, 1, out);
    const report = assertIncomplete(dir, /^the target stopped answering http:\/\/127\.0\.0\.1:\d+ \(/);
    assert.equal(report.target.kind, 'remote');
    assert.equal(report.target.emulator, true, 'a remote emulator is recognised by its control surface');
    assert.deepEqual(await leftAfter(marker), [], 'no process left');
  } finally {
    run?.kill();
    if (!closed) await emulator.close();
    done();
  }
});

test('cli: without CPC_SEED a seed is chosen, passed to Playwright, printed and recorded', { timeout: 180_000 }, async () => {
  const out = await sigtermThroughNpm();
  const report = readReport(npmFolder.dir);
  assert.deepEqual(validateReport(report), { valid: true });
  const seed = report.run.seed!;
  assert.ok(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31, `seed ${seed}`);
  assert.ok(out.includes(`Seed: ${seed} (replay: CPC_SEED=${seed} npm run conformance -- --project property)\n`), out.slice(0, 300));
  assert.equal(report.run.replay, `CPC_SEED=${seed} npm run conformance -- --project property`);
  const props = report.tests.filter((t) => t.property);
  assert.ok(props.length >= 1, 'a property test was recorded');
  for (const t of props) {
    assert.equal(t.property!.seed, seed, 'the property ran with the run\'s seed');
    assert.ok(t.title.includes(`(seed ${seed})`), t.title);
  }
});

test('cli: bad options and seeds are configuration errors (exit 2) before anything runs', async () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['conformance'], { CPC_SEED: 'abc' }, /CPC_SEED must be an integer/],
    [['conformance'], { CPC_SEED: String(2 ** 31) }, /CPC_SEED must be an integer/],
    [['conformance', '--faults', 'no.such-fault'], {}, /unknown fault/],
    [['conformance', '--update-baseline'], {}, /--update-baseline needs --baseline/],
    [['conformance', '--baseline', '/nonexistent/expectations.json'], {}, /baseline file not found/],
    [['report', '--from', '/nonexistent/conformance.json'], {}, /report not found/],
  ];
  const runs = await Promise.all(cases.map(([args, env]) => cpcAsync(args, cleanEnv(env)).done));
  cases.forEach(([args, , message], i) => {
    assert.equal(runs[i]!.code, 2, `${args.join(' ')}: ${runs[i]!.out}`);
    assert.match(runs[i]!.out, message);
  });
});

test('cli: cpc report re-renders every format from a saved JSON report, unchanged', () => {
  const { dir, done } = tempDir('rerender');
  try {
    const report = fixtureReport();
    writeReports(report, join(dir, 'first'));
    const from = join(dir, 'first', 'conformance.json');
    const r = cpcHere(['report', '--from', from, '--out', join(dir, 'again')]);
    assert.equal(r.code, 0, r.out);
    for (const f of FORMATS) assert.equal(readFileSync(join(dir, 'again', f), 'utf8'), readFileSync(join(dir, 'first', f), 'utf8'), `${f} is the same`);
  } finally {
    done();
  }
});
