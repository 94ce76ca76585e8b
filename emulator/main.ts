/**
 * `npm run emulator`: the emulator standalone, seeded with an account and a key.
 * Options: --port N (default 8787, env CPC_EMULATOR_PORT), --host H, --key K (fixed key),
 * --clock auto|manual, --scale N, --faults a,b (fault ids).
 */
import { parseArgs } from 'node:util';
import { startEmulator } from './server.js';
import { worldSeeders } from './routes/index.js';
import { faultCatalog } from './faults.js';

function usage(message: string): never {
  process.stderr.write(`emulator: ${message}\nusage: npm run emulator -- [--port N] [--host H] [--key K] [--clock auto|manual] [--scale N] [--faults id,id]\n`);
  process.exit(2);
}

let values: Record<string, string | undefined>;
try {
  ({ values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, key: { type: 'string' }, clock: { type: 'string' }, scale: { type: 'string' }, faults: { type: 'string' } },
    strict: true,
  }));
} catch (e) {
  usage((e as Error).message);
}

const port = Number(values.port ?? process.env.CPC_EMULATOR_PORT ?? 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be an integer from 0 to 65535, got ${values.port}`);
const mode = values.clock ?? 'auto';
if (mode !== 'auto' && mode !== 'manual') usage('--clock is auto or manual');
const scale = Number(values.scale ?? 1);
if (!(scale > 0)) usage('--scale must be a number > 0');
const faults = values.faults ? values.faults.split(',').map((f) => f.trim()).filter(Boolean) : [];
const unknown = faults.filter((f) => !Object.hasOwn(faultCatalog, f));
if (unknown.length) usage(`unknown fault(s): ${unknown.join(', ')}`);

try {
  const running = await startEmulator({
    port, host: values.host ?? '127.0.0.1', ...(values.key ? { defaultKey: values.key } : {}),
    defaultWorld: { clock: { mode, scale }, faults, startAt: Date.now() },
  });
  const world = running.emulator.defaultWorld;
  const seeded: Record<string, unknown> = {};
  for (const seeder of worldSeeders) Object.assign(seeded, seeder(world, running.emulator.defaultKey.accountId));
  const lines = [
    `Compute Platform emulator listening on ${running.url}`,
    `  CPC_BASE_URL=${running.url}`,
    `  CPC_SERVERLESS_URL=${running.url}`,
    `  CPC_REST_V1_URL=${running.url}`,
    `  CPC_API_KEY=${running.emulator.defaultKey.key}`,
    ...Object.entries(seeded).map(([k, v]) => `  ${k}=${String(v)}`),
    `  control surface: ${running.url}/__emulator   (clock ${mode}${mode === 'auto' ? ` x${scale}` : ''}${faults.length ? `, faults ${faults.join(',')}` : ''})`,
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
