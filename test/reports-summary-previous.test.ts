// @own-process: runs cpc report and cpc conformance with --previous.
// summary.md for a pull request or a chat message: the verdict first, then what changed since
// the previous report of the same target (new failures, new passes, unstable rules, with each
// rule's last runs), then how many MUST rules the run could not decide and why, by cause.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../reports/build.js';
import { changesSince, withChanges } from '../reports/changes.js';
import { mergeReports } from '../reports/merge.js';
import { diffReports } from '../reports/diff.js';
import { markdownRenderer } from '../reports/render/markdown.js';
import { htmlRenderer } from '../reports/render/html.js';
import { textSummary } from '../reports/summary.js';
import { validateReport } from '../reports/validate.js';
import type { ConformanceReport } from '../reports/model.js';
import type { RawTestResult } from '../reports/raw.js';
import { fixtureRules } from '../reports/test/fixture.js';
import { FIXED, FLIPS, NIGHTS, STARTS_FAILING, nightReport, nights } from '../reports/test/history-fixture.js';
import { cpcSync, tempDir } from './reports-support.js';
import { cpcHere } from './cpc-here.js';

/** The nights as a nightly job writes them: each compared with the one before (so each carries its trail). */
function chained(): ConformanceReport[] {
  const all = nights();
  for (let n = 1; n < all.length; n++) all[n] = withChanges(all[n]!, all[n - 1]!, `night-${n - 1}.json`);
  return all;
}

test('summary-previous: the trail each report carries finds an unstable rule from the previous report alone', () => {
  const all = chained();
  const last = all[NIGHTS - 1]!;
  assert.deepEqual(validateReport(last), { valid: true });
  const c = last.changes!;
  assert.equal(c.runs.length, 7, 'the last seven runs');
  assert.deepEqual(c.changed, [{ rule: FLIPS, from: 'pass', to: 'fail' }, { rule: FIXED, from: 'fail', to: 'pass' }]);
  assert.deepEqual(c.unstable, [FLIPS]);
  assert.deepEqual(c.trail[FLIPS], ['pass', 'pass', 'fail', 'pass', 'fail', 'pass', 'fail']);
  assert.deepEqual(c.trail[STARTS_FAILING], ['pass', 'pass', 'pass', 'pass', 'fail', 'fail', 'fail']);
  assert.equal(c.trail['POD.CREATE.VALID_201'], undefined, 'a rule with one verdict throughout is not listed');
  // Without the previous report's own trail there is one comparison: no rule has changed twice.
  assert.deepEqual(changesSince(nightReport(9), nightReport(8)).unstable, []);
});

test('summary-previous: summary.md leads with the verdict, then a new failure, a new pass and an unstable rule', () => {
  const md = markdownRenderer.render(chained()[NIGHTS - 1]!);
  const lines = md.split('\n').filter((l) => l.trim());
  assert.equal(lines[0], '# ❌ Compute Platform API conformance: NOT CONFORMANT');
  assert.equal(lines[1], '**Verdict: NOT CONFORMANT on 8 of 9 MUST rules; 1 not decided (1 no test checks them).** Of 9 MUST rules: 2 fail, 0 blocked (not decided), 6 pass, 1 untested.');
  assert.equal(lines[2], '## Since the previous run');
  assert.match(lines[3]!, /^Compared with `night-8\.json`, run of 2025-03-09T03:23:00\.000Z, suite 0\.2\.0, seed 1008: \*\*1 new failure\*\*, \*\*1 new pass\*\*, \*\*1 unstable rule\*\* \(its verdict changed at least 2 times within the last 7 runs\); 2 rules changed verdict\.$/);
  assert.match(md, /\| ❌ new failure · 🔀 unstable \| `ERR\.PROBLEM_JSON\.CONTENT_TYPE` \| MUST \| pass \| fail \| ✅✅❌✅❌✅❌ \|/);
  assert.match(md, /\| ✅ new pass \| `V1\.ENDPOINT\.CREATE` \| MUST \| fail \| pass \| ❌❌❌❌❌❌✅ \|/);
  assert.ok(md.indexOf('## Since the previous run') < md.indexOf('## Totals'), 'the changes come before the rest');
  // The same news in the terminal and at the top of report.html.
  assert.match(textSummary(chained()[NIGHTS - 1]!), /Since the previous run \(night-8\.json\): 1 new failure\(s\) \(ERR\.PROBLEM_JSON\.CONTENT_TYPE\), 1 new pass\(es\) \(V1\.ENDPOINT\.CREATE\), 1 unstable \(ERR\.PROBLEM_JSON\.CONTENT_TYPE\)/);
  const page = htmlRenderer.render(chained()[NIGHTS - 1]!);
  assert.match(page, /<li id="changes-failures"><strong>1 new failure\(s\)<\/strong>: <a href="#rule-ERR\.PROBLEM_JSON\.CONTENT_TYPE">/);
  assert.match(page, /id="rule-ERR\.PROBLEM_JSON\.CONTENT_TYPE"[^]*?<span class="badge unstable"/);
  // Without a previous report there is no such section.
  assert.doesNotMatch(markdownRenderer.render(nightReport(9)), /Since the previous run/);
});

const raw = (id: string, rules: string[], extra: Partial<RawTestResult>): RawTestResult => ({
  id, project: 'contract', file: 'contract/specs/x.spec.ts', title: `test ${id}`, titlePath: ['x', `test ${id}`], status: 'failed', expectedStatus: 'passed',
  durationMs: 1, rules, failedRules: [], observed: [], ...extra,
});

test('summary-previous: blocked MUST rules are counted and grouped by what stopped them', () => {
  const r = buildReport({
    rules: fixtureRules, target: { kind: 'embedded', keys: { main: false, readonly: false, other: false }, emulator: true, faults: [] },
    startedAt: new Date('2025-03-01T00:00:00Z'), finishedAt: new Date('2025-03-01T00:01:00Z'), complete: true, suiteVersion: '0.2.0',
    raw: [
      raw('a', [STARTS_FAILING, 'POD.CREATE.VALID_201'], { failedRules: [STARTS_FAILING], error: `[${STARTS_FAILING}] expected 401` }),
      raw('b', [STARTS_FAILING, 'RATE.HEADERS.ON_SUCCESS'], { failedRules: [STARTS_FAILING], error: `[${STARTS_FAILING}] expected 401` }),
      raw('c', ['V1.ENDPOINT.CREATE'], { error: 'TypeError: cannot read the pod id\n    at setup' }),
    ],
  });
  const md = markdownRenderer.render(r);
  assert.match(md, /\*\*Verdict: NOT CONFORMANT on 1 of 8 MUST rules; 7 not decided \(4 no test checks them, 3 blocked before their check\)\.\*\* Of 8 MUST rules: 1 fail, 3 blocked \(not decided\), 0 pass, 4 untested\./);
  assert.match(md, /\*\*3 MUST rules could not be decided \(blocked\): not a pass\.\*\* What stopped them:\n\n- \*\*2\*\* stopped when AUTH\.REST\\_V2\.MISSING\\_401 failed first: `POD\.CREATE\.VALID_201`, `RATE\.HEADERS\.ON_SUCCESS`\n/);
  assert.match(md, /- \*\*1\*\* setup or helper error: TypeError: cannot read the pod id: `V1\.ENDPOINT\.CREATE`/);
  assert.ok(md.indexOf('could not be decided') < md.indexOf('## Totals'));
});

test('summary-previous: an older report (schema 2.0.0, no target name) still validates, renders, merges and diffs', () => {
  const old = nightReport(0);
  assert.equal(old.schemaVersion, '2.0.0');
  assert.equal(old.target.name, undefined);
  assert.deepEqual(validateReport(old), { valid: true });
  assert.match(markdownRenderer.render(old), /^# ❌/);
  assert.match(htmlRenderer.render(old), /<table class="matrix">/);
  const half = (i: 1 | 2): ConformanceReport => ({ ...old, run: { ...old.run, configuration: { ...old.run.configuration, shard: `${i}/2`, partial: true } }, tests: old.tests.filter((_, k) => k % 2 === i - 1) });
  const merged = mergeReports([half(1), half(2)]);
  assert.deepEqual(merged.rules.map((x) => x.verdict), old.rules.map((x) => x.verdict));
  assert.equal(diffReports(old, nightReport(9)).identical, false);
});

test('summary-previous: cpc report --previous FILE|DIR writes the changes; another target or a newer report exits 2 naming the file', () => {
  const { dir, done } = tempDir('previous');
  try {
    const all = chained();
    all.forEach((r, n) => writeFileSync(join(dir, `night-${n}.json`), JSON.stringify(n === NIGHTS - 1 ? { ...r, changes: undefined } : r)));
    const out = join(dir, 'out');
    const r = cpcHere(['report', '--from', join(dir, `night-${NIGHTS - 1}.json`), '--previous', join(dir, `night-${NIGHTS - 2}.json`), '--out', out]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /Since the previous run \(night-8\.json\): 1 new failure\(s\) \(ERR\.PROBLEM_JSON\.CONTENT_TYPE\), 1 new pass\(es\) \(V1\.ENDPOINT\.CREATE\), 1 unstable/);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    assert.match(md, /❌ new failure · 🔀 unstable \| `ERR\.PROBLEM_JSON\.CONTENT_TYPE`/);
    const saved = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.deepEqual(saved.changes!.unstable, [FLIPS]);

    // A history folder: its newest report is the previous one; one of another target in it is refused, naming the file.
    const history = join(dir, 'history');
    mkdirSync(history);
    all.slice(0, NIGHTS - 1).forEach((x, n) => writeFileSync(join(history, `night-${n}.json`), JSON.stringify(x)));
    const fromFolder = cpcHere(['report', '--from', join(dir, `night-${NIGHTS - 1}.json`), '--previous', history, '--out', out]);
    assert.equal(fromFolder.code, 0, fromFolder.out);
    assert.equal((JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport).changes!.previous.file, 'night-8.json');
    writeFileSync(join(history, 'zz-staging.json'), JSON.stringify(nightReport(2, { baseUrl: 'https://staging.example.test' })));
    const mixed = cpcHere(['report', '--from', join(dir, `night-${NIGHTS - 1}.json`), '--previous', history, '--out', out]);
    assert.equal(mixed.code, 2, mixed.out);
    assert.match(mixed.out, /history\/zz-staging\.json: report\(s\) of another target/);
  } finally {
    done();
  }
});

test("summary-previous: cpc conformance --target-name records the label; --previous compares with that target's report, and refuses another before the run", () => {
  const { dir, done } = tempDir('previous-run');
  try {
    writeFileSync(join(dir, 'nightly.json'), JSON.stringify(nightReport(9, { name: 'nightly' })));
    writeFileSync(join(dir, 'staging.json'), JSON.stringify(nightReport(9, { baseUrl: 'https://staging.example.test' })));
    const common = ['conformance', '--project', 'contract', '--grep', 'no Authorization header', '--skip-load', '--quiet-summary', '--workers', '1', '--artifacts', join(dir, 'artifacts')];
    const refused = cpcSync([...common, '--out', join(dir, 'refused'), '--previous', join(dir, 'staging.json')]);
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.out, /configuration error: .*staging\.json is a report of "https:\/\/staging\.example\.test", not of "embedded emulator"/);
    assert.doesNotMatch(refused.out, /^Seed:/m, 'refused before the run started');
    const blank = cpcSync([...common, '--target-name', ' ']);
    assert.equal(blank.code, 2, blank.out);
    assert.match(blank.out, /--target-name must be a non-empty label of one line/);

    const out = join(dir, 'out');
    const run = cpcSync([...common, '--out', out, '--target-name', 'nightly', '--previous', join(dir, 'nightly.json')]);
    assert.equal(run.code, 0, run.out);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
    assert.deepEqual(validateReport(report), { valid: true });
    assert.equal(report.target.name, 'nightly');
    assert.equal(report.changes!.previous.file, 'nightly.json');
    assert.equal(report.changes!.previous.seed, 1009);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    assert.match(md, /^# ✅ Compute Platform API conformance: CONFORMANT\n\n\*\*Verdict: CONFORMANT on \d+ of \d+ MUST rules; \d+ not decided \(\d+ not selected by this run/);
    assert.match(md, /## Since the previous run\n\nCompared with `nightly\.json`/);
    assert.match(md, /This run did not run the whole suite/);
  } finally {
    done();
  }
});
