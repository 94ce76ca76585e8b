/**
 * `cpc preflight`: checks a configured target without creating anything and prints the run's
 * plan (from the tests' declarations) with its cost; `--json` for machines. Exit 0 when ready
 * and within every budget, 2 otherwise (run/preflight.ts makes the checks).
 */
import { ConfigError } from '../../lib/errors.js';
import { budgetBreaches } from '../../lib/plan.js';
import type { RunConfig } from '../../lib/protocol.js';
import { redactText } from '../../lib/redact.js';
import type { PlaywrightListing } from '../../run/detection/plan.js';
import { applyWorkerImageFlag, budgetFlags, budgetOptions, parse, targetFlags, targetOptions, workerImageOption } from '../args.js';

/**
 * What the command reads and where it writes: the process's own for `cpc preflight`. A test
 * that makes several preflights in one process passes its own variables, output and listing
 * (the suite's tests, the same for every target: `playwright test --list` once, not per call).
 */
interface PreflightIo {
  env: NodeJS.ProcessEnv;
  write: (text: string) => void;
  list: (run: RunConfig) => Promise<PlaywrightListing>;
}

export async function preflightCommand(rest: string[], given: Partial<PreflightIo> = {}): Promise<number> {
  const { values } = parse('preflight', rest, { ...targetOptions, ...budgetOptions, ...workerImageOption, json: { type: 'boolean' }, workers: { type: 'string' } });
  applyWorkerImageFlag(values);
  const { parseRunConfig } = await import('../../lib/run-config.js');
  const { listedTests, preflight, preflightText } = await import('../../run/preflight.js');
  const io: PreflightIo = { env: process.env, write: (text) => { process.stdout.write(text); }, list: async (run) => (await import('../../run/playwright.js')).listPlaywright(run), ...given };
  const parsed = parseRunConfig(io.env, targetFlags(values));
  const setting = parsed.target.kind === 'pending' ? parsed.target.setting : undefined;
  if (setting?.kind !== 'remote') {
    io.write('No target configured (CPC_BASE_URL unset): cpc conformance tests the embedded emulator, which has every key, id and capability. Ready.\n');
    return 0;
  }
  const { readRequestEstimates, budgetsOf } = await import('../../run/budgets.js');
  // The target resolved once (whether its control surface answers); preflight reports whether it answers at all.
  const run = { ...parsed, target: await (await import('../../run/target.js')).resolveDeployment(setting) };
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${String(values.workers)}"`, '--workers');
  const result = await preflight({ ...run, ...(workers ? { workers } : {}) }, { listTests: async () => listedTests(await io.list(run)), requestEstimates: readRequestEstimates() });
  const budgets = budgetsOf(run.profile, await budgetFlags(values as Record<string, unknown>));
  const breaches = result.creates ? budgetBreaches(result.creates, budgets) : [];
  if (values.json === true) {
    const { catalog: _catalog, ...creates } = result.creates ?? {};
    io.write(redactText(JSON.stringify({ ...result, ...(result.creates ? { creates } : {}), budgets, breaches }, null, 2)) + '\n');
  } else {
    io.write(preflightText(result) + '\n');
    for (const b of breaches) io.write(`Over budget: ${b}\n`);
  }
  return result.ready && breaches.length === 0 ? 0 : 2;
}
