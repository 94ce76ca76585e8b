import { testKey, type DetectionPlan } from '../../lib/protocol.js';

export type { DetectionPlan };
import { suiteOfFile } from '../../lib/suites.js';

interface ListedTest { projectName: string }
interface ListedSpec { title: string; tags: string[]; file: string; line: number; tests: ListedTest[] }
interface ListedSuite { title: string; specs?: ListedSpec[]; suites?: ListedSuite[] }
export interface PlaywrightListing { suites: ListedSuite[] }

function* walk(suite: ListedSuite, titles: string[]): Generator<{ spec: ListedSpec; titles: string[] }> {
  for (const spec of suite.specs ?? []) yield { spec, titles };
  for (const child of suite.suites ?? []) yield* walk(child, [...titles, child.title]);
}

/** A test runs with at most this many faults (each its own repetition) unless it is a fault's only test. */
export const DEFAULT_MAX_FAULTS_PER_TEST = 5;

/**
 * For each fault, at most `perFault` of the tests that declare the rule it breaks, most specific
 * first (fewest declared rules), then in file order. (Spreading faults evenly over tests was
 * tried: it picked tests a fault cannot reach, e.g. GraphQL validation refusals for a fault in
 * execution errors; the most specific tests are the ones written for the rule.) A test takes at
 * most `maxPerTest` faults, unless it is the first test a fault gets: every repetition is a
 * Playwright worker of its own, and the job and pod model tests, among the few tests of many
 * rules, were given 15 and 12 faults (15 repetitions) where their other faults had 1 to 5
 * specific tests anyway. Faults with the fewest candidate tests choose first.
 * Returns the plan and the `--test-list` lines.
 */
export function buildPlan(listing: PlaywrightListing, catalog: Record<string, { rule: string }>, perFault: number, project: string,
  maxPerTest = DEFAULT_MAX_FAULTS_PER_TEST): { plan: DetectionPlan; lines: string[] } {
  const specs: { key: string; tags: string[]; file: string; line: number }[] = [];
  const seen = new Set<string>();
  for (const fileSuite of listing.suites) {
    for (const { spec, titles } of walk(fileSuite, [])) {
      const key = testKey(spec.file, [...titles, spec.title]);
      if (seen.has(key)) continue; // listed once per project that holds it
      seen.add(key);
      specs.push({ key, tags: spec.tags.map((t) => t.replace(/^@/, '')), file: spec.file, line: spec.line });
    }
  }
  specs.sort((a, b) => a.tags.length - b.tags.length || a.file.localeCompare(b.file) || a.line - b.line);
  const candidates = Object.entries(catalog).map(([fault, def]) => ({ fault, specs: specs.filter((x) => x.tags.includes(def.rule)) }));
  const chosen = new Map<string, string[]>();
  for (const { fault, specs: mine } of [...candidates].sort((a, b) => a.specs.length - b.specs.length)) {
    const picked: string[] = [];
    for (const s of mine) {
      if (picked.length >= perFault) break;
      if (picked.length > 0 && (chosen.get(s.key)?.length ?? 0) >= maxPerTest) continue;
      picked.push(s.key);
      chosen.set(s.key, [...(chosen.get(s.key) ?? []), fault]);
    }
  }
  // Each test's faults in catalog order (its repetition i runs its i-th fault); tests in listing order.
  const order = new Map(Object.keys(catalog).map((f, i) => [f, i]));
  const tests: Record<string, string[]> = {};
  for (const s of specs) {
    const faults = chosen.get(s.key);
    if (faults) tests[s.key] = [...faults].sort((a, b) => order.get(a)! - order.get(b)!);
  }
  const repeat = Math.max(1, ...Object.values(tests).map((f) => f.length));
  const lines = Object.keys(tests).map((key) => `[${project}] › ${key}`);
  return { plan: { repeat, tests }, lines };
}


/**
 * `cpc detect --full`: the whole contract and property suite once per fault, in one
 * Playwright project repeated once per fault (repetition i: fault i).
 */
export function buildFullPlan(listing: PlaywrightListing, faults: readonly string[], project: string): { plan: DetectionPlan; lines: string[] } {
  const keys = new Set<string>();
  for (const fileSuite of listing.suites) {
    for (const { spec, titles } of walk(fileSuite, [])) if (suiteOfFile(spec.file) !== undefined) keys.add(testKey(spec.file, [...titles, spec.title]));
  }
  return { plan: { repeat: Math.max(1, faults.length), tests: {}, all: [...faults] }, lines: [...keys].map((key) => `[${project}] › ${key}`) };
}

