// Checks the rule catalog (schemas/rules/*.json) against its schema and against the spec it comes from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  RULE_CATALOG_SCHEMA_PATH,
  RULE_FILES,
  UnknownRuleError,
  assertRuleIds,
  loadRules,
  ruleById,
  ruleFilePath,
  type Rule,
  type Surface,
} from '../lib/rules.js';

const SPEC_PATH = fileURLToPath(new URL('../spec/compute-platform-api.md', import.meta.url));
const spec = readFileSync(SPEC_PATH, 'utf8');

const normalise = (s: string): string => s.replace(/\s+/g, ' ').trim();

interface Heading {
  level: number;
  text: string; // backticks removed
  /** Text between this heading and the next heading of any level, whitespace-normalised. */
  body: string;
  /** Headings nested under this one. */
  children: Heading[];
}

function parseHeadings(markdown: string): Heading[] {
  const lines = markdown.split(/\r?\n/);
  const headings: Heading[] = [];
  const bodies: string[][] = [];
  const stack: Heading[] = [];
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const m = inFence ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (m && m[1] && m[2]) {
      const heading: Heading = { level: m[1].length, text: m[2].replace(/`/g, '').trim(), body: '', children: [] };
      while (stack.length > 0 && (stack[stack.length - 1] as Heading).level >= heading.level) stack.pop();
      stack[stack.length - 1]?.children.push(heading);
      stack.push(heading);
      headings.push(heading);
      bodies.push([]);
    } else {
      bodies[bodies.length - 1]?.push(line);
    }
  }
  headings.forEach((h, i) => {
    h.body = normalise((bodies[i] ?? []).join('\n'));
  });
  return headings;
}

const headings = parseHeadings(spec);
const headingByText = new Map(headings.map((h) => [h.text, h]));
const normalisedSpec = normalise(spec);

const readRuleFile = (file: string): { rules: Rule[] } => JSON.parse(readFileSync(ruleFilePath(file), 'utf8')) as { rules: Rule[] };
const rules = loadRules();

const SURFACE_OF_FILE: Record<string, Surface> = {
  'common.json': 'all',
  'rest-v2.json': 'rest-v2',
  'serverless.json': 'serverless',
  'rest-v1.json': 'rest-v1',
  'graphql.json': 'graphql',
};

test('the spec has the headings the catalog relies on', () => {
  assert.ok(headings.length >= 20, `only ${headings.length} headings parsed`);
  assert.equal(new Set(headings.map((h) => h.text)).size, headings.length, 'spec heading texts are not unique');
  assert.ok(headingByText.has('createPod: POST {base_url}/v2/pods'), 'backticks are not stripped from headings');
});

test('every rule file validates against rule-catalog.schema.json (ajv strict)', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(JSON.parse(readFileSync(RULE_CATALOG_SCHEMA_PATH, 'utf8')) as object);
  for (const file of RULE_FILES) {
    const ok = validate(readRuleFile(file));
    assert.ok(ok, `${file}: ${ajv.errorsText(validate.errors, { separator: '\n' })}`);
  }
});

test('every rule file holds the rules of its surface, and the loader returns them all in file order', () => {
  assert.deepEqual(Object.keys(SURFACE_OF_FILE).sort(), [...RULE_FILES].sort());
  const fromFiles: string[] = [];
  for (const file of RULE_FILES) {
    for (const rule of readRuleFile(file).rules) {
      assert.equal(rule.surface, SURFACE_OF_FILE[file], `${rule.id} (surface ${rule.surface}) is in ${file}`);
      fromFiles.push(rule.id);
    }
  }
  assert.deepEqual(rules.map((r) => r.id), fromFiles);
  assert.equal(loadRules(), rules, 'loadRules is not cached');
});

test('rule ids are unique and there are more than 100 rules', () => {
  const seen = new Set<string>();
  const duplicates = rules.filter((r) => (seen.has(r.id) ? true : (seen.add(r.id), false))).map((r) => r.id);
  assert.deepEqual(duplicates, []);
  assert.ok(rules.length > 100, `only ${rules.length} rules`);
});

test('both levels are present, and levels are used consistently', () => {
  assert.ok(rules.some((r) => r.level === 'MUST'), 'no MUST rule');
  assert.ok(rules.some((r) => r.level === 'OBSERVED'), 'no OBSERVED rule');
  for (const rule of rules) {
    if (rule.level === 'OBSERVED') {
      assert.ok(
        /not shown/i.test(rule.quote) || rule.observedExpectation !== undefined,
        `${rule.id}: an OBSERVED rule must quote a "not shown" statement or carry an observedExpectation`,
      );
    } else {
      assert.equal(rule.observedExpectation, undefined, `${rule.id}: a MUST rule carries an observedExpectation`);
    }
  }
});

test('every rule section is a heading of the spec', () => {
  const unknown = rules.filter((r) => !headingByText.has(r.section)).map((r) => `${r.id}: ${r.section}`);
  assert.deepEqual(unknown, []);
});

test('every quote occurs in the spec, under the rule section heading', () => {
  const problems: string[] = [];
  for (const rule of rules) {
    const quote = normalise(rule.quote);
    if (!normalisedSpec.includes(quote)) {
      problems.push(`${rule.id}: quote not in the spec: ${quote}`);
      continue;
    }
    const heading = headingByText.get(rule.section);
    if (heading && !heading.body.includes(quote)) problems.push(`${rule.id}: quote not under heading "${rule.section}"`);
  }
  assert.deepEqual(problems, []);
});

test('every heading of the spec is represented by at least one rule', () => {
  const sections = new Set(rules.map((r) => r.section));
  const represented = (h: Heading): boolean => sections.has(h.text) || h.children.some(represented);
  const missing: string[] = [];
  for (const h of headings) {
    // A heading with text of its own needs a rule of its own; a heading that only groups
    // sub-headings (no text between it and its first sub-heading) is represented by them.
    const ok = h.body.length > 0 ? sections.has(h.text) : h.children.length > 0 && h.children.every(represented);
    if (!ok) missing.push(h.text);
  }
  assert.deepEqual(missing, []);
});

test('every "not shown" statement of the spec is recorded by an OBSERVED rule', () => {
  const observedQuotes = rules.filter((r) => r.level === 'OBSERVED').map((r) => normalise(r.quote));
  const missing: string[] = [];
  for (const h of headings) {
    for (const sentence of h.body.split(/(?<=\.)\s+/)) {
      const fragment = normalise(sentence.replace(/^\|\s*/, '').replace(/\s*\|$/, ''));
      if (!/not shown/i.test(fragment)) continue;
      const covered = observedQuotes.some((q) => q.includes(fragment) || (fragment.includes(q) && /not shown/i.test(q)));
      if (!covered) missing.push(`${h.text}: ${fragment}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('ruleById finds catalog rules and nothing else', () => {
  const first = rules[0];
  assert.ok(first);
  assert.equal(ruleById(first.id), first);
  assert.equal(ruleById('POD.NO_SUCH_RULE'), undefined);
});

test('assertRuleIds accepts known ids and throws CPC_UNKNOWN_RULE naming the unknown ones', () => {
  const known = rules.slice(0, 3).map((r) => r.id);
  assert.doesNotThrow(() => assertRuleIds(known));
  assert.doesNotThrow(() => assertRuleIds([]));
  assert.throws(
    () => assertRuleIds([...known, 'POD.NO_SUCH_RULE', 'GQL.ALSO_MISSING', 'POD.NO_SUCH_RULE']),
    (err: unknown) => {
      assert.ok(err instanceof UnknownRuleError);
      assert.ok(err instanceof Error);
      assert.equal(err.code, 'CPC_UNKNOWN_RULE');
      assert.deepEqual(err.ids, ['POD.NO_SUCH_RULE', 'GQL.ALSO_MISSING']);
      assert.match(err.message, /POD\.NO_SUCH_RULE/);
      return true;
    },
  );
});
