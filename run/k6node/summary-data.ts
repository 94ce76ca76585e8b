/**
 * k6's end-of-test summary data (what `handleSummary(data)` receives): `root_group` with its
 * groups and checks, built from the `checks` samples, plus `metrics`, `options`, `state` and
 * `setup_data`. Group and check ids are md5 of their paths, as k6 makes them.
 */
import { createHash } from 'node:crypto';
import type { Sample } from './metrics-engine.js';

interface CheckNode { name: string; path: string; id: string; passes: number; fails: number }
interface GroupNode { name: string; path: string; id: string; groups: GroupNode[]; checks: CheckNode[] }

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');
const group = (name: string, path: string): GroupNode => ({ name, path, id: md5(path), groups: [], checks: [] });

/** Collects check results into k6's group tree. */
export class CheckTree {
  readonly root = group('', '');
  readonly #groups = new Map<string, GroupNode>([['', this.root]]);

  #group(path: string): GroupNode {
    const found = this.#groups.get(path);
    if (found) return found;
    const cut = path.lastIndexOf('::');
    const parent = this.#group(path.slice(0, cut));
    const node = group(path.slice(cut + 2), path);
    parent.groups.push(node);
    this.#groups.set(path, node);
    return node;
  }

  ingest(samples: readonly Sample[]): void {
    for (const s of samples) {
      if (s.metric !== 'checks') continue;
      const g = this.#group(s.tags.group ?? '');
      const name = s.tags.check ?? '';
      let c = g.checks.find((x) => x.name === name);
      if (!c) { c = { name, path: `${g.path}::${name}`, id: md5(`${g.path}::${name}`), passes: 0, fails: 0 }; g.checks.push(c); }
      if (s.value !== 0) c.passes++;
      else c.fails++;
    }
  }
}

export interface SummaryDataInput {
  metrics: Record<string, unknown>;
  checks: CheckTree;
  trendStats: readonly string[];
  durationMs: number;
  setupData: string | undefined;
}

export function summaryData(input: SummaryDataInput): Record<string, unknown> {
  return {
    root_group: input.checks.root,
    options: { summaryTrendStats: [...input.trendStats], summaryTimeUnit: '', noColor: false },
    state: { isStdOutTTY: Boolean(process.stdout.isTTY), isStdErrTTY: Boolean(process.stderr.isTTY), testRunDurationMs: input.durationMs },
    metrics: input.metrics,
    ...(input.setupData !== undefined ? { setup_data: JSON.parse(input.setupData) as unknown } : {}),
  };
}
