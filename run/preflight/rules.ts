/**
 * The tests of a preflight: the suite's tests as Playwright lists them, each with its rules and
 * its declaration (what it creates and needs, lib/needs.ts). Which rules will run is forecast
 * from those declarations (run/provision/forecast.ts), never from the tests' source.
 */
import { ANNOTATION } from '../../lib/protocol.js';
import { LONG_WAIT_TAG } from '../../lib/lanes.js';
import type { Creates } from '../../lib/plan.js';
import type { ListedTest } from './types.js';

/** Playwright's `--list --reporter=json` output as tests with their rules and declarations. */
export function listedTests(json: unknown): ListedTest[] {
  interface Spec { title: string; file: string; line: number; tags?: string[]; tests?: { projectName?: string; annotations?: { type: string; description?: string }[] }[] }
  interface Suite { specs?: Spec[]; suites?: Suite[] }
  const specs: Spec[] = [];
  const walk = (s: Suite) => { specs.push(...(s.specs ?? [])); for (const c of s.suites ?? []) walk(c); };
  for (const s of (json as { suites?: Suite[] }).suites ?? []) walk(s);
  return specs.flatMap((s) => (s.tests ?? [{}]).map((t) => ({
    project: t.projectName ?? '', file: s.file, title: s.title,
    // A rule's tag is `@` and its id; the long-wait lane's tag is no rule (lib/lanes.ts).
    rules: [...new Set([...(s.tags ?? []).map((tag) => tag.replace(/^@/, '')).filter((tag) => `@${tag}` !== LONG_WAIT_TAG), ...(t.annotations ?? []).filter((a) => a.type === ANNOTATION.rule).map((a) => a.description ?? '')])].filter(Boolean),
    creates: declared(t.annotations ?? []),
  })));
}

const declared = (annotations: readonly { type: string; description?: string }[]): Creates => {
  const a = annotations.find((x) => x.type === ANNOTATION.creates);
  return a?.description ? JSON.parse(a.description) as Creates : {};
};
