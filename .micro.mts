import { Emulator } from './emulator/app.js';
import { seedServerless } from './emulator/serverless/seed.js';
import { jobsSlice } from './emulator/serverless/store.js';
import { endpointsSlice } from './emulator/state/endpoints.js';
import { validate } from './lib/schema-registry.js';
const e = new Emulator();
const w = e.createWorld({});
const acct = w.createAccount('a');
const seeded = seedServerless(w, acct.id);
const store = w.get(jobsSlice);
const ep = w.get(endpointsSlice).get(seeded.CPC_ENDPOINT_ID as string)!;
const rt = store.runtimeOf(ep)!;
await new Promise(r => setTimeout(r, 10));
for (const n of [100000, 100000, 200000]) {
  let t = performance.now();
  for (let i = 0; i < n; i++) store.submit(rt, { n: i }, { sync: false, waitGiven: false });
  await new Promise(r => setTimeout(r, 0));
  const dt = performance.now() - t;
  console.log(n, 'submits', dt.toFixed(0), 'ms =>', (n / dt * 1000).toFixed(0), '/s', 'size', store.size, 'rss', (process.memoryUsage().rss/1e6).toFixed(0));
}
let t = performance.now();
for (let i = 0; i < 100000; i++) validate('job-request', { input: { n: i } });
console.log('validate', (performance.now() - t).toFixed(0), 'ms/100k');
t = performance.now();
w.clock.advance(31 * 60_000);
console.log('advance', (performance.now() - t).toFixed(0), 'ms', store.size, 'rss', (process.memoryUsage().rss/1e6).toFixed(0));
