/**
 * Throughput baseline, not a conformance scenario: `CPC_LOAD_VUS` VUs send `GET /v2/pods` back
 * to back for `CPC_LOAD_DURATION` (default 10s). bench/load-node.ts runs it on the Node path
 * beside autocannon on the same route; with k6 it gives k6's own figure:
 *
 *   k6 run -e CPC_BASE_URL=http://127.0.0.1:8787 load/bench/throughput.ts
 *
 * It needs the emulator's control surface: its world's quotas are high enough that nothing is
 * refused (a real target's rate limit would refuse most requests). Self-contained on purpose.
 */
import http from 'k6/http';

const BASE = (__ENV.CPC_BASE_URL || 'http://127.0.0.1:8787').replace(/\/+$/, '');
const VUS = Number(__ENV.CPC_LOAD_VUS || '8');
const DURATION = __ENV.CPC_LOAD_DURATION || '10s';

export const options = {
  scenarios: { throughput: { executor: 'constant-vus', vus: VUS, duration: DURATION, gracefulStop: '5s' } },
  thresholds: { 'http_req_failed{scenario:throughput}': ['rate==0'] },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(99)'],
};

interface World { id: string; key: string }

export function setup(): World {
  const res = http.post(`${BASE}/__emulator/worlds`, JSON.stringify({ quotas: { minute: 1000000000, hour: 1000000000, day: 1000000000 } }), { headers: { 'Content-Type': 'application/json' } });
  if (res.status !== 201) throw new Error(`the throughput bench needs the emulator's control surface at ${BASE}/__emulator (got ${res.status})`);
  const world = res.json() as { id: string; keys: { main: string } };
  return { id: world.id, key: world.keys.main };
}

export default function (world: World): void {
  http.get(`${BASE}/v2/pods`, { headers: { Authorization: `Bearer ${world.key}` } });
}

export function teardown(world: World): void {
  http.del(`${BASE}/__emulator/worlds/${world.id}`);
}
