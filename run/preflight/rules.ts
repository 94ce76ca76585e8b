/**
 * The rule plan of a preflight: the suite's tests as Playwright lists them, and which rules
 * will run on a target with the found capabilities (and why the others are skipped).
 */
import { readFileSync } from 'node:fs';
import { ENV_VARS } from '../../lib/config.js';
import { ANNOTATION } from '../../lib/protocol.js';
import type { Creates } from '../../lib/plan.js';
import type { Capabilities, ListedTest, RulePlan } from './types.js';

/** The capabilities a test's body shows it needs; each with the reason a run without it gives. */
const NEEDS: { capability: keyof Capabilities; marker: RegExp; reason: string }[] = [
  { capability: 'control', marker: /\bemu\.(require|advance|setQuotas)\(|\bemu\.world!|\bemu\.control!/, reason: "needs the emulator's control surface (/__emulator)" },
  { capability: 'readonlyKey', marker: /['"]readonly['"]/, reason: `needs a read-only key (${ENV_VARS.apiKeyReadonly})` },
  { capability: 'otherKey', marker: /['"]other['"]/, reason: `needs another account's key (${ENV_VARS.apiKeyOther})` },
  { capability: 'endpointId', marker: /\bjobs\.|\bjobs\b\s*[,}]/, reason: `needs a queue-based endpoint running the conformance handler (${ENV_VARS.endpointId})` },
  { capability: 'templateId', marker: /\btemplateId\(emu\)/, reason: 'needs a serverless template to create endpoints from (CPC_TEMPLATE_ID)' },
  { capability: 'modelEndpointId', marker: /\bmodelId\(|CPC_MODEL_ENDPOINT_ID/, reason: 'needs a public model endpoint id (CPC_MODEL_ENDPOINT_ID)' },
];

const missingFor = (t: ListedTest, c: Capabilities): string[] => NEEDS.filter((n) => !c[n.capability] && n.marker.test(t.source)).map((n) => n.reason);

/** A rule runs when one test that declares it has what it needs; otherwise it is skipped with every reason. */
export function planRules(tests: readonly ListedTest[], capabilities: Capabilities): RulePlan {
  const byRule = new Map<string, string[][]>();
  for (const t of tests) for (const rule of t.rules) {
    const list = byRule.get(rule) ?? [];
    list.push(missingFor(t, capabilities));
    byRule.set(rule, list);
  }
  const runs: string[] = [];
  const skipped: RulePlan['skipped'] = [];
  for (const [rule, needs] of [...byRule].sort(([a], [b]) => a.localeCompare(b))) {
    if (needs.some((n) => n.length === 0)) runs.push(rule);
    else skipped.push({ rule, reasons: [...new Set(needs.flat())] });
  }
  return { runs, skipped };
}

/** Playwright's `--list --reporter=json` output as tests with their rules and the text of their bodies. */
export function listedTests(json: unknown): ListedTest[] {
  interface Spec { title: string; file: string; line: number; tags?: string[]; tests?: { projectName?: string; annotations?: { type: string; description?: string }[] }[] }
  interface Suite { specs?: Spec[]; suites?: Suite[] }
  const specs: Spec[] = [];
  const walk = (s: Suite) => { specs.push(...(s.specs ?? [])); for (const c of s.suites ?? []) walk(c); };
  for (const s of (json as { suites?: Suite[] }).suites ?? []) walk(s);
  const root = (json as { config?: { rootDir?: string } }).config?.rootDir ?? '';
  const lines = new Map<string, string[]>();
  const starts = new Map<string, number[]>();
  for (const s of specs) starts.set(s.file, [...(starts.get(s.file) ?? []), s.line]);
  const sourceOf = (file: string, line: number): string => {
    let text = lines.get(file);
    if (!text) {
      try { text = readFileSync(root ? `${root}/${file}` : file, 'utf8').split('\n'); } catch { text = []; }
      lines.set(file, text);
    }
    const next = (starts.get(file) ?? []).filter((l) => l > line).sort((a, b) => a - b)[0] ?? text.length + 1;
    return text.slice(line - 1, next - 1).join('\n');
  };
  return specs.flatMap((s) => (s.tests ?? [{}]).map((t) => ({
    project: t.projectName ?? '', file: s.file, title: s.title,
    rules: [...new Set([...(s.tags ?? []).map((tag) => tag.replace(/^@/, '')), ...(t.annotations ?? []).filter((a) => a.type === ANNOTATION.rule).map((a) => a.description ?? '')])].filter(Boolean),
    source: sourceOf(s.file, s.line),
    creates: declared(t.annotations ?? []),
  })));
}

const declared = (annotations: readonly { type: string; description?: string }[]): Creates => {
  const a = annotations.find((x) => x.type === ANNOTATION.creates);
  return a?.description ? JSON.parse(a.description) as Creates : {};
};
