/**
 * `npm run emulator`: the emulator standalone, seeded with an account and a key.
 * Options: --port N (default 8787, env CPC_EMULATOR_PORT), --host H, --key K (fixed key),
 * --clock auto|manual, --scale N, --faults a,b (fault ids), --quotas minute,hour,day (the default
 * world's rate-limit quotas; default 100000,1000000,10000000, so that only a deployment-like run
 * asks for the live platform's 60,3000,50000).
 * --variants a,b (conforming variants or sets such as `live`, emulator/variants.ts; env CPC_EMULATOR_VARIANTS).
 * --chaos <seed>[,real-time][,latency=<ms>] (legal chaos in the default world and in every world the
 * control surface makes without its own, emulator/README.md "Chaos"; env CPC_EMULATOR_CHAOS).
 * --outside-workers: queue-based endpoints are served by worker processes outside the emulator that
 * speak the official worker library's protocol (emulator/README.md "Outside workers"); the RUNPOD_*
 * variables to start such a worker with are printed.
 * Prints the keys (main, read-only, another account's, an expired one) and the seeded ids as CPC_* lines.
 */
import { warmGraphql } from './graphql/routes.js';
import { parseArgs } from 'node:util';
import { startEmulator } from './server.js';
import { WORLD_SEEDERS } from './assembly.js';
import { isFaultId } from './faults.js';
import { expandVariants } from './variants.js';
import { userSettings, type UserSettings } from '../lib/run-config.js';
import { formatChaos, parseChaos, type ChaosOptions } from '../lib/chaos/options.js';
import { workerEnv } from './serverless/worker-env.js';

function usage(message: string): never {
  process.stderr.write(`emulator: ${message}\nusage: npm run emulator -- [--port N] [--host H] [--key K] [--clock auto|manual] [--scale N] [--faults id,id] [--variants id,id] [--chaos seed[,real-time][,latency=ms]] [--outside-workers]\n`);
  process.exit(2);
}

let values: Record<string, string | undefined>;
let outsideWorkers = false;
try {
  const { values: parsed } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, key: { type: 'string' }, clock: { type: 'string' }, scale: { type: 'string' }, faults: { type: 'string' }, variants: { type: 'string' }, quotas: { type: 'string' }, chaos: { type: 'string' }, 'outside-workers': { type: 'boolean' } },
    strict: true,
  });
  const { 'outside-workers': outside, ...strings } = parsed;
  values = strings;
  outsideWorkers = outside === true;
} catch (e) {
  usage((e as Error).message);
}

let settings: UserSettings;
try {
  settings = userSettings();
} catch (e) {
  usage((e as Error).message);
}
const port = Number(values.port ?? settings.emulatorPort ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be an integer from 0 to 65535, got ${values.port}`);
const mode = values.clock ?? 'auto';
if (mode !== 'auto' && mode !== 'manual') usage('--clock is auto or manual');
const scale = Number(values.scale ?? 1);
if (!(scale > 0)) usage('--scale must be a number > 0');
const faults = values.faults ? values.faults.split(',').map((f) => f.trim()).filter(Boolean) : [];
const unknown = faults.filter((f) => !isFaultId(f));
if (unknown.length) usage(`unknown fault(s): ${unknown.join(', ')}`);
const variants = values.variants !== undefined ? values.variants.split(',').map((v) => v.trim()).filter(Boolean) : settings.emulatorVariants;
const unknownVariants = expandVariants(variants).unknown;
if (unknownVariants.length) usage(`unknown variant(s): ${unknownVariants.join(', ')}`);
let chaos: ChaosOptions | undefined;
try {
  chaos = values.chaos !== undefined ? parseChaos(values.chaos, '--chaos') : settings.emulatorChaos;
} catch (e) {
  usage((e as Error).message);
}
const quotaValues = (values.quotas ?? '100000,1000000,10000000').split(',').map((q) => q.trim());
if (quotaValues.length !== 3 || !quotaValues.every((q) => /^\d+$/.test(q))) usage(`--quotas is three integers >= 0 for the minute, hour and day windows, got ${values.quotas}`);
const [minute, hour, day] = quotaValues.map(Number) as [number, number, number];

try {
  const running = await startEmulator({
    port, host: values.host ?? '127.0.0.1', ...(values.key ? { defaultKey: values.key } : {}), ...(chaos ? { chaos } : {}),
    defaultWorld: { clock: { mode, scale }, faults, variants, startAt: Date.now(), quotas: { minute, hour, day }, outsideWorkers },
  });
  warmGraphql();
  const world = running.emulator.defaultWorld;
  const main = running.emulator.defaultKey;
  // The keys a deployment's user would hold: a read-only key of the same account, a key of another account, and one that has expired.
  const readonly = world.mintKey(main.accountId, ['read'], 'readonly');
  const other = world.mintKey(world.createAccount('other').id, ['read', 'write'], 'other');
  const expired = world.mintKey(main.accountId, ['read', 'write'], 'expired', undefined, world.clock.now() - 1);
  const seeded: Record<string, unknown> = {};
  for (const seeder of WORLD_SEEDERS) Object.assign(seeded, seeder(world, running.emulator.defaultKey.accountId));
  const lines = [
    `Compute Platform emulator listening on ${running.url}`,
    `  CPC_BASE_URL=${running.url}`,
    `  CPC_SERVERLESS_URL=${running.url}`,
    `  CPC_REST_V1_URL=${running.url}`,
    `  CPC_API_KEY=${main.key}`,
    `  CPC_API_KEY_READONLY=${readonly.key}`,
    `  CPC_API_KEY_OTHER=${other.key}`,
    `  CPC_API_KEY_EXPIRED=${expired.key}`,
    ...Object.entries(seeded).map(([k, v]) => `  ${k}=${String(v)}`),
    ...(outsideWorkers ? outsideWorkerLines(running.url, String(seeded.CPC_ENDPOINT_ID), main.key) : []),
    `  control surface: ${running.url}/__emulator   (clock ${mode}${mode === 'auto' ? ` x${scale}` : ''}, quotas ${minute}/min ${hour}/h ${day}/day${faults.length ? `, faults ${faults.join(',')}` : ''}${variants.length ? `, variants ${variants.join(',')}` : ''}${chaos ? `, chaos ${formatChaos(chaos)}` : ''})`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const stop = () => { void running.close().then(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  const err = e as NodeJS.ErrnoException;
  process.stderr.write(`emulator: could not start: ${err.code === 'EADDRINUSE' ? `port ${port} is in use (try --port 0)` : err.message}\n`);
  process.exit(2);
}

/** What to start a worker of the seeded endpoint with (one `RUNPOD_POD_ID` per worker). */
function outsideWorkerLines(url: string, endpointId: string, key: string): string[] {
  const env = workerEnv(url, endpointId, key, 'AMPERE_16');
  return [
    `  outside workers serve endpoint ${endpointId}; start each with its own RUNPOD_POD_ID and:`,
    ...Object.entries(env).map(([k, v]) => `  ${k}=${v}`),
  ];
}
