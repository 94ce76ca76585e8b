import { startEmulator } from './emulator/server.js';
import { runScript } from './lib/k6node/runner.js';
const emu = await startEmulator({ port: 0 });
const t = Date.now();
const r = await runScript({ script: process.argv[2]!, env: { BASE: emu.url, CPC_BASE_URL: emu.url } });
console.log('exit', r.exitCode, 'breached', r.breached, 'ms', Date.now() - t, r.error ?? '');
if (process.argv[3]) console.log(JSON.stringify(r.summaryData, null, 1).slice(0, 3000));
await emu.close();
