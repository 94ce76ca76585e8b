/**
 * `cpc preflight`: checks a configured target without creating anything and prints the run's
 * plan (from the tests' declarations) with its cost; `--json` for machines. Exit 0 when ready
 * and within every budget, 2 otherwise (run/preflight.ts makes the checks).
 */
import { ConfigError } from '../../lib/errors.js';
import { budgetBreaches } from '../../lib/plan.js';
import { redactText } from '../../lib/redact.js';
import { applyWorkerImageFlag, budgetFlags, budgetOptions, parse, targetFlags, targetOptions, workerImageOption } from '../args.js';

export async function preflightCommand(rest: string[]): Promise<number> {
  const { values } = parse('preflight', rest, { ...targetOptions, ...budgetOptions, ...workerImageOption, json: { type: 'boolean' }, workers: { type: 'string' } });
  applyWorkerImageFlag(values);
  const { parseRunConfig } = await import('../../lib/run-config.js');
  const { listedTests, preflight, preflightText } = await import('../../run/preflight.js');
  const { listPlaywright } = await import('../../run/playwright.js');
  const parsed = parseRunConfig(process.env, targetFlags(values));
  const setting = parsed.target.kind === 'pending' ? parsed.target.setting : undefined;
  if (setting?.kind !== 'remote') {
    process.stdout.write('No target configured (CPC_BASE_URL unset): cpc conformance tests the embedded emulator, which has every key, id and capability. Ready.\n');
    return 0;
  }
  const { readRequestEstimates, budgetsOf } = await import('../../run/budgets.js');
  // The target resolved once (whether its control surface answers); preflight reports whether it answers at all.
  const run = { ...parsed, target: await (await import('../../run/target.js')).resolveDeployment(setting) };
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) throw new ConfigError(`--workers must be a positive integer, got "${String(values.workers)}"`, '--workers');
  const result = await preflight({ ...run, ...(workers ? { workers } : {}) }, { listTests: async () => listedTests(await listPlaywright(run)), requestEstimates: readRequestEstimates() });
  const budgets = budgetsOf(run.profile, await budgetFlags(values as Record<string, unknown>));
  const breaches = result.creates ? budgetBreaches(result.creates, budgets) : [];
  if (values.json === true) {
    const { catalog: _catalog, ...creates } = result.creates ?? {};
    process.stdout.write(redactText(JSON.stringify({ ...result, ...(result.creates ? { creates } : {}), budgets, breaches }, null, 2)) + '\n');
  } else {
    process.stdout.write(preflightText(result) + '\n');
    for (const b of breaches) process.stdout.write(`Over budget: ${b}\n`);
  }
  return result.ready && breaches.length === 0 ? 0 : 2;
}
