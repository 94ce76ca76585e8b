// Provisioning's saves (run/provision/worker.ts `saved`): an answer lost on the way (a reset, a
// gateway's 502 page) is looked for by name and sent again only when the target does not list
// it; a refusal of the target's own is final, and a second loss fails provisioning with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiResult } from '../lib/client/api.js';
import { saved } from '../run/provision/worker.js';

const answer = (status: number, contentType: string, body: unknown): ApiResult =>
  ({ operation: 'graphql', status, headers: {}, contentType, text: typeof body === 'string' ? body : JSON.stringify(body), body: typeof body === 'string' ? undefined : body, bytes: 0, durationMs: 1, evidence: undefined as never });
const GATEWAY = answer(502, 'text/plain', 'upstream error: socket hang up');
const OK = answer(200, 'application/json', { data: { saveEndpoint: { id: 'ep1' } } });

function script(...steps: (ApiResult | Error)[]): { send: () => Promise<ApiResult>; sent: () => number } {
  let n = 0;
  return { send: async () => { const s = steps[Math.min(n++, steps.length - 1)]!; if (s instanceof Error) throw s; return s; }, sent: () => n };
}

test('a save lost to a gateway page, not listed afterwards, is sent once more', async () => {
  const s = script(GATEWAY, OK);
  let looked = 0;
  assert.equal(await saved('saveEndpoint', s.send, async () => { looked++; return undefined; }), 'ep1');
  assert.deepEqual([s.sent(), looked], [2, 1]);
});

test('a save lost to a reset that the target did make is found by name, not made twice', async () => {
  const s = script(new Error('read ECONNRESET'), OK);
  assert.equal(await saved('saveEndpoint', s.send, async () => 'ep0'), 'ep0');
  assert.equal(s.sent(), 1);
});

test("the target's own refusal is final; two losses fail with the last answer", async () => {
  const refused = script(answer(200, 'application/json', { errors: [{ message: 'no' }] }), OK);
  await assert.rejects(saved('saveEndpoint', refused.send, async () => undefined), /saveEndpoint answered 200: \{"errors"/);
  assert.equal(refused.sent(), 1);
  const lost = script(GATEWAY, GATEWAY, OK);
  await assert.rejects(saved('saveTemplate', lost.send), /saveTemplate answered 502: upstream error/);
  assert.equal(lost.sent(), 2);
});
