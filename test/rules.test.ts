// Checks the rule catalog (schemas/rules/*.json) against its schema and against the spec it comes from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  RULE_CATALOG_SCHEMA_PATH,
  RULE_FILES,
  assertRuleIds,
  loadRules,
  ruleById,
  ruleFilePath,
  type Rule,
  type Surface,
} from '../lib/rules.js';
import { UnknownRuleError } from '../lib/errors.js';

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

test('assertRuleIds accepts known ids and throws ERR_CPC_UNKNOWN_RULE naming the unknown ones', () => {
  const known = rules.slice(0, 3).map((r) => r.id);
  assert.doesNotThrow(() => assertRuleIds(known));
  assert.doesNotThrow(() => assertRuleIds([]));
  assert.throws(
    () => assertRuleIds([...known, 'POD.NO_SUCH_RULE', 'GQL.ALSO_MISSING', 'POD.NO_SUCH_RULE']),
    (err: unknown) => {
      assert.ok(err instanceof UnknownRuleError);
      assert.ok(err instanceof Error);
      assert.equal(err.code, 'ERR_CPC_UNKNOWN_RULE');
      assert.deepEqual(err.ids, ['POD.NO_SUCH_RULE', 'GQL.ALSO_MISSING']);
      assert.match(err.message, /POD\.NO_SUCH_RULE/);
      return true;
    },
  );
});

// ---- A MUST rule is stated by the spec, and some check can fail it ----

/** Markdown emphasis and code marks removed, whitespace normalised: the words as a reader sees them. */
const plain = (s: string): string => normalise(s.replace(/`|\*\*/g, ''));
const plainSpec = plain(spec);
const NOTES_PATH = fileURLToPath(new URL('../spec/platform-notes.md', import.meta.url));
const plainNotes = plain(readFileSync(NOTES_PATH, 'utf8'));

/** The sentences of the spec that say "not shown": each table cell and each line split at sentence ends. */
function notShownSentences(markdown: string): string[] {
  const out: string[] = [];
  for (const line of markdown.split(/\r?\n/)) {
    for (const cell of line.split('|')) {
      for (const sentence of cell.split(/(?<=\.)\s+/)) {
        const s = plain(sentence);
        if (/not shown/i.test(s)) out.push(s);
      }
    }
  }
  return out;
}

/** Start offsets of every occurrence of `needle` in `haystack`. */
function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) at.push(i);
  return at;
}

const mustRules = rules.filter((r) => r.level === 'MUST');

test('every MUST quote is spec text outside any sentence that says "not shown"', () => {
  const spans = notShownSentences(spec).flatMap((s) => occurrences(plainSpec, s).map((start) => [start, start + s.length] as const));
  assert.ok(spans.length >= 10, `only ${spans.length} "not shown" sentences found: the splitter is broken`);
  const problems: string[] = [];
  for (const rule of mustRules) {
    const quote = plain(rule.quote);
    const at = occurrences(plainSpec, quote);
    if (at.length === 0) {
      problems.push(`${rule.id}: quote is not spec text: ${quote}`);
      continue;
    }
    // One occurrence of the quote that overlaps no "not shown" sentence is enough.
    const free = at.some((start) => spans.every(([a, b]) => start + quote.length <= a || start >= b));
    if (!free) problems.push(`${rule.id}: quote lies in a "not shown" sentence: ${quote}`);
  }
  assert.deepEqual(problems, []);
});

test('no MUST rule rests on the platform notes', () => {
  const problems: string[] = [];
  for (const rule of mustRules) {
    if (/platform notes|live platform|platform-notes/i.test(`${rule.statement} ${rule.quote}`)) problems.push(`${rule.id}: cites the platform notes`);
    const quote = plain(rule.quote);
    // A quote found in the notes but not in the spec would be a notes quote; the spec test above
    // already requires spec text, this names the source when it is the notes.
    if (plainNotes.includes(quote) && !plainSpec.includes(quote)) problems.push(`${rule.id}: quote comes from the platform notes`);
  }
  assert.deepEqual(problems, []);
});

/** Source files of the checks: contract specs and checks, property tests, load scripts. */
function checkSources(): { file: string; text: string }[] {
  const roots = ['../contract/', '../property/', '../load/'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const out: { file: string; text: string }[] = [];
  for (const root of roots) {
    for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts') || name.includes('node_modules')) continue;
      out.push({ file: `${root}${name}`, text: readFileSync(`${root}${name}`, 'utf8') });
    }
  }
  return out;
}

/**
 * Removes what only declares rules: `rules(...)` calls, and array literals holding nothing but
 * rule-id strings and spreads. What remains names a rule where a check can fail it (`must(`,
 * `{ rule: ... }`, a check's rule argument, a model command's rule).
 */
function withoutDeclarations(text: string): string {
  let out = text;
  for (let at = out.search(/\brules\(/); at !== -1; at = out.search(/\brules\(/)) {
    let depth = 0;
    let end = at + 'rules'.length;
    for (; end < out.length; end++) {
      if (out[end] === '(') depth++;
      else if (out[end] === ')' && --depth === 0) break;
    }
    out = `${out.slice(0, at)}${out.slice(end + 1)}`;
  }
  return out.replace(/\[(?:\s*(?:'[A-Z0-9_.]+'|\.\.\.[A-Za-z_.]+)\s*,?)*\s*\](?:\s*as const)?/g, '[]');
}

test('every MUST rule is named by some check that can fail it, not only declared', () => {
  const named = checkSources().map((s) => withoutDeclarations(s.text)).join('\n');
  const unnamed = mustRules.filter((r) => !named.includes(`'${r.id}'`) && !named.includes(`"${r.id}"`)).map((r) => r.id);
  assert.deepEqual(unnamed, []);
});
