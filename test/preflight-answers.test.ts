// @own-process: lists the suite with Playwright (`playwright test --list`), as cpc preflight does.
// Preflight judges answers by the spec: a surface "answers" with the status class, content type
// and body shape the spec gives the call. A 404 on the spec's path or an HTML page is not an
// answer: a required surface that gives one exits 2, naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { preflightHere } from './cli-support.js';
import { FAR_ENDPOINT, startFarTarget } from './far-target.js';
import { GRAPHQL_MYSELF, notTheAnswer, REST_V2_LIST, SERVERLESS_HEALTH } from '../run/preflight/answers.js';
import type { ApiResult } from '../lib/client/api.js';

const answer = (operation: string, status: number, contentType: string, text: string, absent?: string): ApiResult => {
  let body: unknown;
  try { body = JSON.parse(text); } catch { body = undefined; }
  return { operation, status, headers: {}, contentType, text, body, bytes: text.length, durationMs: 1, ...(absent ? { absent } : {}), evidence: undefined as never };
};

test('preflight answers: the spec\'s status class, content type and body shape, or a reason naming the answer', () => {
  assert.equal(notTheAnswer(answer('listPods', 200, 'application/json', '[]'), REST_V2_LIST), undefined);
  assert.equal(notTheAnswer(answer('listPods', 401, 'application/problem+json', '{"title":"Unauthorized"}'), REST_V2_LIST), undefined);
  assert.match(notTheAnswer(answer('listPods', 404, 'application/json', '{"detail":"Not Found"}', 'GET /v2/pods answered 404'), REST_V2_LIST) ?? '', /GET \/v2\/pods answered 404: the operation is not served/);
  assert.match(notTheAnswer(answer('listPods', 404, 'application/json', '{"detail":"Not Found"}'), REST_V2_LIST) ?? '', /answered 404: the spec gives a 2xx/);
  assert.match(notTheAnswer(answer('listPods', 200, 'text/html', '<html></html>'), REST_V2_LIST) ?? '', /an HTML page/);
  assert.match(notTheAnswer(answer('graphql', 200, 'application/json', '{"ok":true}'), GRAPHQL_MYSELF) ?? '', /not a JSON body \{data: \{myself\}\} or \{errors\}/);
  assert.equal(notTheAnswer(answer('graphql', 200, 'application/json', '{"errors":[{"message":"no"}]}'), GRAPHQL_MYSELF), undefined);
  assert.match(notTheAnswer(answer('getHealth', 200, 'text/plain', 'ok'), SERVERLESS_HEALTH) ?? '', /not JSON/);
});

/** `cpc preflight` of the target at `url`, in this process (the suite listed once for the file): its exit code and output. */
const preflight = async (url: string): Promise<{ code: number; out: string }> => {
  const { code, stdout } = await preflightHere([], { CPC_BASE_URL: url, CPC_API_KEY: 'cpk_preflight_answers_0123456789', CPC_ENDPOINT_ID: FAR_ENDPOINT });
  return { code, out: stdout };
};

test('preflight answers: REST v2 and GraphQL answering 404, /health on the wrong method: exit 2 naming each', { timeout: 120_000 }, async () => {
  const target = await startFarTarget();
  try {
    const r = await preflight(target.url);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /REST v2 answers.*GET \/v2\/pods answered 404/, r.out);
    assert.match(r.out, /GraphQL answers.*POST \/graphql answered 404/, r.out);
    assert.match(r.out, /serverless answers.*GET \/v2\/\{endpointId\}\/health answered 405/, r.out);
    assert.doesNotMatch(r.out, /cpk_preflight_answers/, 'no key printed');
  } finally {
    await target.close();
  }
});

test('preflight answers: an HTML page on every path is not an answer: exit 2 naming it', { timeout: 120_000 }, async () => {
  const page = '<!doctype html><html><body>Welcome</body></html>';
  const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(page); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const r = await preflight(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /REST v2 answers.*answered 200 \(text\/html\)/, r.out);
    assert.doesNotMatch(r.out, /ok\s+REST v2 answers/, r.out);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
