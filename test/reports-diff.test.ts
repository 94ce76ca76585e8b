// Differential mode: every rule whose verdict or observed value differs, and the CLI's exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, diffReports } from '../reports/diff.js';
import { diffMarkdown } from '../reports/render/diff-markdown.js';
import { diffHtml } from '../reports/render/diff-html.js';
import { writeReports } from '../reports/write.js';
import { fixtureReport } from '../reports/test/fixture.js';
import type { ConformanceReport } from '../reports/model.js';
import { tempDir } from './reports-support.js';
import { cpcHere } from './cpc-here.js';

const edit = (r: ConformanceReport, id: string, change: Partial<ConformanceReport['rules'][number]>): ConformanceReport =>
  ({ ...r, rules: r.rules.map((x) => (x.id === id ? { ...x, ...change } : x)) });

test('diff: a report compared with itself is identical', () => {
  const r = fixtureReport();
  const d = diffReports(r, structuredClone(r));
  assert.equal(d.identical, true);
  assert.equal(d.compared, r.rules.length);
  assert.deepEqual(d.rules, []);
});

test('diff: observation order, repeats and key order do not matter', () => {
  assert.equal(canonicalJson({ b: 1, a: [2, { d: 1, c: 2 }] }), canonicalJson({ a: [2, { c: 2, d: 1 }], b: 1 }));
  const a = fixtureReport();
  const id = 'POD.CREATE.GPU_AND_CPU_STATUS';
  const b = edit(a, id, { observed: [{ test: 'other', value: { status: 400, note: '' } }] });
  assert.equal(diffReports(a, b).identical, true);
});

test('diff: a verdict change, an observed change and a rule on one side only', () => {
  const a = fixtureReport();
  let b = edit(a, 'JOB.RUN.PAYLOAD_10MB', { verdict: 'fail' });
  b = edit(b, 'POD.CREATE.GPU_AND_CPU_STATUS', { observed: [{ test: 'x', value: { status: 422 } }] });
  b = { ...b, rules: [...b.rules.filter((x) => x.id !== 'SECRET.DELETE.BY_ID'), { ...b.rules[0]!, id: 'POD.NEW.RULE' }] };
  const d = diffReports(a, b, ['emulator', 'staging']);
  assert.equal(d.identical, false);
  const byId = new Map(d.rules.map((r) => [r.id, r]));
  assert.deepEqual([...byId.keys()], ['POD.CREATE.GPU_AND_CPU_STATUS', 'JOB.RUN.PAYLOAD_10MB', 'SECRET.DELETE.BY_ID', 'POD.NEW.RULE']);
  assert.equal(byId.get('JOB.RUN.PAYLOAD_10MB')!.verdictChanged, true);
  assert.deepEqual([byId.get('JOB.RUN.PAYLOAD_10MB')!.a!.verdict, byId.get('JOB.RUN.PAYLOAD_10MB')!.b!.verdict], ['pass', 'fail']);
  assert.equal(byId.get('POD.CREATE.GPU_AND_CPU_STATUS')!.observedChanged, true);
  assert.equal(byId.get('POD.CREATE.GPU_AND_CPU_STATUS')!.verdictChanged, false);
  assert.equal(byId.get('SECRET.DELETE.BY_ID')!.b, undefined);
  assert.equal(byId.get('POD.NEW.RULE')!.a, undefined);
  const md = diffMarkdown(d);
  assert.match(md, /^# Conformance diff: 4 rule\(s\) differ/);
  assert.match(md, /\| `JOB\.RUN\.PAYLOAD_10MB` \| MUST \| verdict \| pass \| fail \|/);
  assert.match(md, /`\{"status":422\}`/);
  const html = diffHtml(d);
  assert.match(html, /4 RULE\(S\) DIFFER/);
  assert.match(html, /<code>POD\.NEW\.RULE<\/code>/);
});

test('diff: through the CLI, exit 0 when identical, 1 when different, 2 for a bad report', () => {
  const { dir, done } = tempDir('diff-cli');
  try {
    const a = fixtureReport({ complete: true });
    writeReports(a, join(dir, 'a'));
    writeReports(a, join(dir, 'same'));
    writeReports(edit(a, 'JOB.RUN.PAYLOAD_10MB', { verdict: 'skip', skipReasons: ['x'] }), join(dir, 'b'));
    const out = join(dir, 'diff');
    const same = cpcHere(['diff', join(dir, 'a', 'conformance.json'), join(dir, 'same', 'conformance.json'), '--out', out]);
    assert.equal(same.code, 0, same.out);
    assert.match(same.out, /agree on every rule/);
    const different = cpcHere(['report', 'diff', join(dir, 'a', 'conformance.json'), join(dir, 'b', 'conformance.json'), '--out', out]);
    assert.equal(different.code, 1, different.out);
    assert.match(different.out, /1 rule\(s\) differ/);
    assert.ok(existsSync(join(out, 'diff.html')));
    assert.match(readFileSync(join(out, 'diff.md'), 'utf8'), /JOB\.RUN\.PAYLOAD_10MB/);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ schemaVersion: '2.0.0', rules: [] }));
    const bad = cpcHere(['diff', join(dir, 'a', 'conformance.json'), join(dir, 'bad.json')]);
    assert.equal(bad.code, 2, bad.out);
    assert.match(bad.out, /not a valid report/);
    assert.equal(cpcHere(['diff', join(dir, 'a', 'conformance.json')]).code, 2, 'two reports are needed');
  } finally {
    done();
  }
});
