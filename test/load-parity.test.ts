// @own-process: runs the load scripts on real k6 when it is there.
/**
 * Runner parity: every load scenario on the Node path and on real k6 (`K6`, or `k6` on PATH)
 * against one embedded emulator, fault-free and with each load-relevant fault switched on in
 * the scenario's world (every fault of the catalog whose rule the scenario lists among its
 * rules), must give the same verdicts. "The same" means:
 *
 * - the same exit code (0, or 99 when a threshold failed, or another k6 code);
 * - the same thresholds, each held on both or broken on both;
 * - the same checks by name, each held on both (no failure) or failed on both (one failure or
 *   more). The pass and fail counts may differ: how many requests a burst or a storm sends
 *   depends on timing and scale, and k6 and the Node path pace differently.
 *
 * Fault runs use one VU and one iteration on both runners (the scripts' smoke scale for the
 * fault-free runs). Both runners observe durations rather than judge them (CPC_LOAD_TIMING=
 * observe): the thresholds and checks left are those on what the spec states, and each must
 * hold or break on both alike whatever the machine's load. The two runners of a case run at
 * once, against worlds of their own (but payload-limits, whose two storms of oversized bodies
 * would slow each other down), and wait-range runs with the emulator's clock 150 times real time
 * on both (its default is 50), in a third of the time. Skipped with its reason when no k6 is
 * available.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runK6Script } from '../run/load.js';
import { scenarioNames } from '../run/paths.js';
import { PROJECT_ROOT } from '../run/paths.js';
import { startEmulator } from '../emulator/server.js';
import { faultCatalog } from '../emulator/faults.js';
import { findK6 } from '../run/k6node/k6-binary.js';
import { runK6ScriptOnNode } from '../run/k6node/runner.js';
import type { LoadSummary } from '../reports/load-model.js';

/** What parity compares of one run: its exit code and the verdict of each threshold and check. */
interface Verdicts { exitCode: number; thresholds: Record<string, 'held' | 'broken'>; checks: Record<string, 'held' | 'failed'> }

function verdictsOf(exitCode: number, summaryFile: string): Verdicts & { summary?: LoadSummary } {
  if (!existsSync(summaryFile)) return { exitCode, thresholds: {}, checks: {} };
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as LoadSummary;
  return {
    exitCode, summary,
    thresholds: Object.fromEntries(Object.entries(summary.thresholds).map(([n, t]) => [n, t.ok ? 'held' : 'broken'])),
    checks: Object.fromEntries(summary.checks.map((c) => [c.name, c.fails === 0 ? 'held' : 'failed'])),
  };
}

const k6 = findK6();
/** wait-range's clock scale here (see above). */
const WAIT_RANGE_SCALE = 150;

test('the Node path and real k6 give the same verdicts on every scenario, fault-free and with each load-relevant fault', { skip: k6.found ? false : k6.reason, timeout: 20 * 60_000 }, async (t) => {
  if (!k6.found) return;
  const emu = await startEmulator({ port: 0 });
  const outDir = mkdtempSync(join(tmpdir(), 'load-parity-'));
  let n = 0;
  /** One scenario on both runners; the verdicts of each and the Node path's summary. */
  const both = async (scenario: string, extra: Record<string, string>) => {
    const script = join(PROJECT_ROOT, 'load', `${scenario}.ts`);
    const dirs = { node: join(outDir, String(++n), 'node'), k6: join(outDir, String(n), 'k6') };
    mkdirSync(dirs.node, { recursive: true });
    mkdirSync(dirs.k6, { recursive: true });
    const env = { CPC_LOAD_TIMING: 'observe', CPC_BASE_URL: emu.url, CPC_SERVERLESS_URL: emu.url, CPC_REST_V1_URL: emu.url, ...(scenario === 'wait-range' ? { CPC_LOAD_SCALE: String(WAIT_RANGE_SCALE) } : {}), ...extra };
    const runNode = () => runK6ScriptOnNode({ script, cwd: PROJECT_ROOT, env: { ...env, CPC_LOAD_OUT_DIR: dirs.node }, out: () => undefined, err: () => undefined });
    const runK6 = () => runK6Script({ script, env: { ...env, CPC_LOAD_OUT_DIR: dirs.k6 }, quiet: true, k6: k6.path });
    // payload-limits' storms of 20 MB bodies, both on one emulator at once, would make each other's refusals late: one after the other.
    const [node, k6Code] = scenario === 'payload-limits' ? [await runNode(), await runK6()] : await Promise.all([runNode(), runK6()]);
    return { node: verdictsOf(node.exitCode, join(dirs.node, `${scenario}.json`)), k6: verdictsOf(k6Code, join(dirs.k6, `${scenario}.json`)) };
  };
  const same = (got: Awaited<ReturnType<typeof both>>, what: string): void => {
    const strip = ({ exitCode, thresholds, checks }: Verdicts) => ({ exitCode, thresholds, checks });
    assert.deepEqual(strip(got.node), strip(got.k6), `${what}: the Node path (actual) and k6 ${k6.version} (expected) differ`);
  };
  try {
    for (const scenario of scenarioNames()) {
      let rules: string[] = [];
      await t.test(`${scenario}, fault-free`, async () => {
        const got = await both(scenario, {});
        same(got, `${scenario}, fault-free`);
        assert.equal(got.k6.exitCode, 0, `${scenario} passes on k6`);
        rules = got.node.summary?.rules ?? [];
      });
      const faults = Object.entries(faultCatalog).filter(([, f]) => rules.includes(f.rule)).map(([id]) => id);
      for (const fault of faults) {
        await t.test(`${scenario} with ${fault}`, async () => {
          const got = await both(scenario, { CPC_LOAD_EMULATOR_FAULTS: fault, CPC_LOAD_VUS: '1', CPC_LOAD_ITERATIONS: '1' });
          same(got, `${scenario} with ${fault}`);
        });
      }
    }
  } finally {
    await emu.close();
    rmSync(outDir, { recursive: true, force: true });
  }
});
