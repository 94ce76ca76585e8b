/**
 * Picks, for each fault's project, at most `perFault` of the tests that declare the rule the
 * fault breaks, most specific first (fewest declared rules), so the matrix proves detection
 * without rerunning every test that happens to mention a cross-cutting rule.
 */
interface ListedTest { projectName: string }
interface ListedSpec { title: string; tags: string[]; file: string; line: number; tests: ListedTest[] }
interface ListedSuite { title: string; file?: string; specs?: ListedSpec[]; suites?: ListedSuite[] }

interface Candidate { project: string; file: string; titles: string[]; tags: number; line: number }

function* walk(suite: ListedSuite, titles: string[]): Generator<{ spec: ListedSpec; titles: string[] }> {
  for (const spec of suite.specs ?? []) yield { spec, titles };
  for (const child of suite.suites ?? []) yield* walk(child, [...titles, child.title]);
}

/** Builds a Playwright `--test-list` file body from `playwright test --list --reporter=json` output. */
export function selectTests(listJson: { suites: ListedSuite[] }, perFault: number): { lines: string[]; byProject: Map<string, number> } {
  const candidates: Candidate[] = [];
  for (const fileSuite of listJson.suites) {
    for (const { spec, titles } of walk(fileSuite, [])) {
      for (const t of spec.tests) {
        candidates.push({ project: t.projectName, file: spec.file, titles: [...titles, spec.title], tags: spec.tags.length, line: spec.line });
      }
    }
  }
  const byProject = new Map<string, Candidate[]>();
  for (const c of candidates) {
    let list = byProject.get(c.project);
    if (!list) byProject.set(c.project, (list = []));
    list.push(c);
  }
  const lines: string[] = [];
  const counts = new Map<string, number>();
  for (const [project, list] of byProject) {
    list.sort((a, b) => a.tags - b.tags || a.file.localeCompare(b.file) || a.line - b.line);
    const chosen = list.slice(0, perFault);
    counts.set(project, chosen.length);
    for (const c of chosen) lines.push(`[${c.project}] › ${c.file} › ${c.titles.join(' › ')}`);
  }
  return { lines, byProject: counts };
}
