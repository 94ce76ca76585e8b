// A target's history: ten saved nights (reports/test/history-fixture.ts) turned into one
// self-contained page: verdict strips, the night a verdict changed, unstable rules, load
// figures over time, suite versions and seeds; another target's report, an unreadable one or
// an unsupported schema version refused with exit 2 naming the file; --keep prunes the folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildHistory } from '../reports/history/model.js';
import { costFigures } from '../reports/history/figures.js';
import { renderHistory } from '../reports/render/history-html.js';
import type { ConformanceReport } from '../reports/model.js';
import {
  ADDED_RULE, FIXED, FLIPS, INCOMPLETE_NIGHT, NIGHTS, SECOND_VERSION_NIGHT, STARTS_FAILING, STARTS_FAILING_NIGHT, THRESHOLD_MISSED_NIGHT,
  acceptanceP95, nightReport, nights, refusals,
} from '../reports/test/history-fixture.js';
import { tempDir } from './reports-support.js';
import { cpcHere } from './cpc-here.js';

const fileOf = (n: number): string => `night-${String(n).padStart(2, '0')}.json`;

/** The ten nights as saved files, written in an order other than their runs' so the reader sorts by start. */
function folder(dir: string, reports: readonly ConformanceReport[] = nights()): string {
  mkdirSync(dir, { recursive: true });
  [...reports.keys()].reverse().forEach((n) => writeFileSync(join(dir, fileOf(n)), JSON.stringify(reports[n])));
  return dir;
}

/** The `<tr>` of one rule on the page. */
const rowOf = (page: string, id: string): string => {
  const start = page.indexOf(`id="h-${id}"`);
  assert.ok(start >= 0, `a row for ${id}`);
  return page.slice(start, page.indexOf('</tr>', start));
};
/** The cells of a row's strip, oldest first: their verdict and whether the run changed it. */
const cells = (row: string): string[] => [...row.matchAll(/<span class="c v-([a-z]+)( chg)?( nc)?"/g)].map((m) => `${m[1]}${m[2] ? '*' : ''}`);

test('history: the model of ten nights — changes, the change night, unstable rules, catalog and figures', () => {
  const model = buildHistory(nights().map((report, n) => ({ file: fileOf(n), report })));
  assert.equal(model.target, 'embedded emulator', 'every embedded run is one target, whatever its port, with or without a name');
  assert.equal(model.runs.length, NIGHTS);
  assert.deepEqual(model.runs.map((r) => r.seed), Array.from({ length: NIGHTS }, (_, n) => 1000 + n));
  assert.deepEqual(model.runs.map((r) => r.comparable), Array.from({ length: NIGHTS }, (_, n) => n !== INCOMPLETE_NIGHT));
  const rule = (id: string) => model.rules.find((r) => r.id === id)!;
  assert.deepEqual(rule(STARTS_FAILING).changes, [STARTS_FAILING_NIGHT]);
  assert.equal(rule(STARTS_FAILING).unstable, false, 'one change is a regression, not instability');
  assert.deepEqual(rule(FLIPS).changes, [5, 6, 7, 8, 9]);
  assert.equal(rule(FLIPS).unstable, true);
  assert.deepEqual(rule(FIXED).changes, [NIGHTS - 1]);
  assert.deepEqual(rule('JOB.RUN.PAYLOAD_10MB').changes, [THRESHOLD_MISSED_NIGHT, THRESHOLD_MISSED_NIGHT + 1]);
  assert.equal(rule('JOB.RUN.PAYLOAD_10MB').unstable, false, 'two changes, but longer ago than the last seven runs');
  assert.equal(rule('GQL.TEMPLATE.DELETE_BY_NAME').verdicts[INCOMPLETE_NIGHT], 'skip');
  assert.deepEqual(rule('GQL.TEMPLATE.DELETE_BY_NAME').changes, [], 'an incomplete night is shown, not compared');
  assert.deepEqual(rule(ADDED_RULE).verdicts.slice(0, SECOND_VERSION_NIGHT), Array(SECOND_VERSION_NIGHT).fill('absent'));
  assert.deepEqual(rule(ADDED_RULE).changes, [], 'a rule a new suite version adds has not changed verdict');
  assert.deepEqual(model.catalog, [{ index: SECOND_VERSION_NIGHT, from: '0.1.0', to: '0.2.0', added: [ADDED_RULE], removed: [] }]);
  const acceptance = model.figures.find((f) => f.id === 'payload-limits/payload_acceptance_duration/p95')!;
  assert.deepEqual(acceptance.values, Array.from({ length: NIGHTS }, (_, n) => acceptanceP95(n)));
  assert.deepEqual(model.figures.find((f) => f.id === 'rate-limit-headers/ratelimit_refusals/count')!.values, Array.from({ length: NIGHTS }, (_, n) => refusals(n)));
  assert.equal(model.figures.some((f) => f.id.startsWith('wait-range/')), false, 'a figure no night measured is left out');
  assert.deepEqual(model.thresholds.find((t) => t.scenario === 'payload-limits')!.ok, Array.from({ length: NIGHTS }, (_, n) => n !== THRESHOLD_MISSED_NIGHT));
  assert.equal(model.cost, undefined);
});

test('history: a cost section, when reports have one, is charted number by number', () => {
  const [a, b] = [nightReport(2), nightReport(3)].map((r, i) => ({ ...r, cost: { totalUsd: 1.5 + i, byKind: { gpuPods: 1 + i, note: 'x' } } }) as unknown as ConformanceReport);
  assert.deepEqual(costFigures([a!, b!, nightReport(4)])!.map((f) => [f.label, f.values]), [['totalUsd', [1.5, 2.5, null]], ['byKind.gpuPods', [1, 2, null]]]);
  assert.equal(costFigures([nightReport(4)]), undefined);
});

test('history: cpc report --history writes one self-contained page with strips, change nights, unstable marks, charts, versions and seeds', () => {
  const { dir, done } = tempDir('history');
  try {
    const out = join(dir, 'out');
    const r = cpcHere(['report', '--history', folder(join(dir)), '--out', out]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /History of embedded emulator: 10 run\(s\) from 2025-03-01T03:23:00\.000Z to 2025-03-10T03:23:00\.000Z; 4 rule\(s\) changed verdict, 1 unstable \(ERR\.PROBLEM_JSON\.CONTENT_TYPE\)/);
    const page = readFileSync(join(out, 'history.html'), 'utf8');
    // Self-contained: a CSP that allows nothing from elsewhere, no script, no external reference.
    assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[^&]+&#39;; img-src data:/);
    assert.doesNotMatch(page, /<script|\b(src|href)="(https?:)?\/\//);
    // Strips, oldest to newest, with the night of each change marked.
    assert.deepEqual(cells(rowOf(page, STARTS_FAILING)), ['pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'fail*', 'fail', 'fail']);
    assert.deepEqual(cells(rowOf(page, FLIPS)), ['pass', 'pass', 'pass', 'pass', 'pass', 'fail*', 'pass*', 'fail*', 'pass*', 'fail*']);
    assert.deepEqual(cells(rowOf(page, ADDED_RULE)), ['absent', 'absent', 'absent', 'absent', 'absent', 'pass', 'pass', 'pass', 'pass', 'pass']);
    assert.match(rowOf(page, STARTS_FAILING), /title="2025-03-08 03:23 UTC · suite 0\.2\.0 · seed 1007: fail \(changed\)"/);
    assert.match(rowOf(page, 'GQL.TEMPLATE.DELETE_BY_NAME'), /<span class="c v-skip nc" title="2025-03-04 03:23 UTC · suite 0\.1\.0 · seed 1003 · incomplete or partial run: not compared: skip">/);
    // The unstable mark, on the rule that flips only.
    assert.match(rowOf(page, FLIPS), /<span class="badge unstable">unstable<\/span>/);
    assert.equal((page.match(/class="badge unstable"/g) ?? []).length, 1);
    // Since the night before: the new failure, the new pass, the unstable rule.
    assert.match(page, /<li id="since-failures"><strong>1 new failure\(s\)<\/strong>: <a href="#h-ERR\.PROBLEM_JSON\.CONTENT_TYPE">/);
    assert.match(page, /<li id="since-passes"><strong>1 new pass\(es\)<\/strong>: <a href="#h-V1\.ENDPOINT\.CREATE"><code>V1\.ENDPOINT\.CREATE<\/code><\/a> <span class="small muted">\(was fail\)/);
    assert.match(page, /<li id="since-unstable"><strong>1 unstable rule\(s\)<\/strong>/);
    // Load figures as charts: one point per night, the values as measured.
    const chart = page.slice(page.indexOf('aria-label="a body under the limit accepted, p95"'));
    const points = [...chart.slice(0, chart.indexOf('</svg>')).matchAll(/<circle class="point"[^>]*><title>([^<]+)<\/title>/g)].map((m) => m[1]);
    assert.deepEqual(points, Array.from({ length: NIGHTS }, (_, n) => `2025-03-${String(n + 1).padStart(2, '0')}: ${acceptanceP95(n)} ms`));
    assert.match(page, /aria-label="429 refusals"/);
    assert.match(page, /<span class="c v-fail" title="2025-03-02 03:23 UTC · suite 0\.1\.0 · seed 1001: thresholds NOT met">/);
    assert.match(page, /No report of this window has a cost section\./);
    // Suite versions, the rule the second one added, and every run's seed and report file.
    assert.match(page, /Suite versions in this window: <strong>0\.1\.0<\/strong> → <strong>0\.2\.0<\/strong>/);
    assert.match(page, /<strong>1 rule\(s\) added:<\/strong> <code class="added">SECRET\.LIST\.NAMES<\/code>/);
    assert.match(rowOf(page, ADDED_RULE), /<span class="badge added">added in 0\.2\.0<\/span>/);
    for (let n = 0; n < NIGHTS; n++) assert.match(page, new RegExp(`<td><code>${1000 + n}</code></td>[\\s\\S]*?${fileOf(n)}`));
  } finally {
    done();
  }
});

test('history: a report of another target, an unreadable file or an unsupported schema version exits 2 naming the file, deleting nothing', () => {
  const { dir, done } = tempDir('history-refused');
  try {
    const other = join(dir, 'other');
    folder(other);
    writeFileSync(join(other, 'staging.json'), JSON.stringify(nightReport(4, { baseUrl: 'https://staging.example.test' })));
    const r = cpcHere(['report', '--history', other, '--keep', '3', '--out', join(dir, 'out')]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /configuration error: .*\/other\/staging\.json: report\(s\) of another target \(https:\/\/staging\.example\.test\); this history is of "embedded emulator"/);
    assert.doesNotMatch(r.out, /\n\s+at /, 'no stack trace');
    assert.equal(readdirSync(other).length, NIGHTS + 1, '--keep deleted nothing');
    assert.equal(existsSync(join(dir, 'out', 'history.html')), false);

    const cases: [string, string, RegExp][] = [
      ['broken.json', '{"schemaVersion": "2.1.0", ', /broken\.json is not JSON/],
      ['future.json', JSON.stringify({ ...nightReport(5), schemaVersion: '2.99.0' }), /future\.json has report schema version 2\.99\.0; this suite reads 2\.0 to 2\.\d+\.\d+/],
      ['old.json', JSON.stringify({ ...nightReport(5), schemaVersion: '1.4.0' }), /old\.json has report schema version 1\.4\.0/],
      ['notareport.json', JSON.stringify({ hello: 'world' }), /notareport\.json has report schema version undefined/],
    ];
    for (const [name, text, message] of cases) {
      const d = join(dir, name);
      folder(d);
      writeFileSync(join(d, name), text);
      const bad = cpcHere(['report', '--history', d, '--keep', '2']);
      assert.equal(bad.code, 2, bad.out);
      assert.match(bad.out, message);
      assert.equal(readdirSync(d).length, NIGHTS + 1, `${name}: nothing deleted`);
    }
    assert.match(cpcHere(['report', '--history', join(dir, 'nowhere')]).out, /history folder not found/);
  } finally {
    done();
  }
});

test('history: --keep N deletes the report files older than the newest N runs and charts those', () => {
  const { dir, done } = tempDir('history-keep');
  try {
    writeFileSync(join(folder(dir), 'notes.txt'), 'not a report');
    const out = join(dir, 'out');
    const r = cpcHere(['report', '--history', dir, '--keep', '4', '--out', out]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /Deleted 6 report\(s\) older than the newest 4: night-00\.json, night-01\.json, night-02\.json, night-03\.json, night-04\.json, night-05\.json/);
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.json')).sort(), [6, 7, 8, 9].map(fileOf));
    assert.ok(existsSync(join(dir, 'notes.txt')), 'only report files are deleted');
    assert.deepEqual(cells(rowOf(readFileSync(join(out, 'history.html'), 'utf8'), FLIPS)), ['pass', 'fail*', 'pass*', 'fail*']);
    for (const [args, message] of [[['--keep', '0'], /--keep must be a positive integer, got "0"/], [['--keep', 'all'], /--keep must be a positive integer/]] as const) {
      const bad = cpcHere(['report', '--history', dir, ...args]);
      assert.equal(bad.code, 2, bad.out);
      assert.match(bad.out, message);
    }
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.json')).length, 4);
    const keepAlone = cpcHere(['report', '--keep', '3']);
    assert.equal(keepAlone.code, 2);
    assert.match(keepAlone.out, /--keep prunes a history folder/);
    assert.match(cpcHere(['report', '--history', dir, '--from', 'x.json']).out, /--history builds the history page from the folder alone; it takes no --from/);
  } finally {
    done();
  }
});

test('history: the page renders a single run, and a window of one suite version', () => {
  const page = renderHistory(buildHistory([{ file: 'a.json', report: nightReport(6) }]));
  assert.match(page, /One run so far: nothing to compare with\./);
  assert.match(page, /Every run used suite <strong>0\.2\.0<\/strong>\./);
  assert.match(page, /No rule changed its verdict in these 1 runs\./);
});
