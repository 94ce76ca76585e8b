// Which answers say an operation is missing (lib/client/absence.ts), and how conform() treats the
// findings read from them (contract/support/availability.ts): the operation's own rule is judged,
// every other rule is not, and the missing operation is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { absenceOf, answerLine, probePath, sameAsUnknownRoute } from '../lib/client/absence.js';
import { splitByAbsence } from '../contract/support/availability.js';
import type { Finding } from '../lib/errors.js';
import type { Evidence } from '../lib/evidence.js';

const never = async (): Promise<boolean> => { throw new Error('the unknown route is only asked about for a JSON 404'); };
const facts = (operation: string, status: number, contentType: string, text = '{}') => ({ operation, status, contentType, text });

test('absence: 405 and 501 always, a 404 that is not JSON, a page where JSON is due', async () => {
  assert.equal(await absenceOf(facts('getJobStatus', 405, 'application/json'), never), 'GET /v2/{endpointId}/status/{jobId} answered 405');
  assert.equal(await absenceOf(facts('getHealth', 501, 'text/plain', 'no'), never), 'GET /v2/{endpointId}/health answered 501 (text/plain)');
  assert.equal(await absenceOf(facts('streamJob', 404, 'text/html', '<html>'), never), 'GET /v2/{endpointId}/stream/{jobId} answered 404 (text/html)');
  assert.equal(await absenceOf(facts('streamJob', 200, 'text/html', '<html>'), never), 'GET /v2/{endpointId}/stream/{jobId} answered 200 (text/html)');
  // Answers about the request are not absence: a refusal, an error, an empty success.
  for (const [status, type, text] of [[401, 'application/json', '{}'], [400, 'text/plain', 'bad'], [500, 'text/html', '<html>'], [204, '', '']] as const) {
    assert.equal(await absenceOf(facts('cancelJob', status, type, text), never), undefined, `${status} ${type}`);
  }
  // A path a test calls itself (a wrong method on purpose) is never judged.
  assert.equal(await absenceOf(facts('GET /v2/pods/x/nope', 405, 'application/json'), never), undefined);
});

test('absence: a JSON 404 is missing only when it reads as the target\'s answer to an unknown route', async () => {
  assert.equal(await absenceOf(facts('getJobStatus', 404, 'application/json', '{"detail":"Not Found"}'), async () => true), 'GET /v2/{endpointId}/status/{jobId} answered 404');
  assert.equal(await absenceOf(facts('getJobStatus', 404, 'application/json', '{"detail":"job not found"}'), async () => false), undefined);
  assert.equal(probePath('getJobStatus', '/v2/ep1/status/j1'), '/v2/ep1/cpc-no-such-operation/j1');
  assert.equal(probePath('createPod', '/v2/pods'), '/v2/cpc-no-such-operation');
  assert.equal(probePath('graphql', '/graphql'), '/cpc-no-such-operation');
  const probe = (text: string, status = 404, contentType = 'application/json') =>
    ({ status, headers: {}, bytes: Buffer.from(text), durationMs: 1, path: '/v2/ep1/cpc-no-such-operation/j1', contentType });
  const answer = (text: string) => ({ status: 404, contentType: 'application/json', text, path: '/v2/ep1/status/j2' });
  assert.equal(sameAsUnknownRoute(answer('{"detail":"Not Found"}'), probe('{"detail":"Not Found"}')), true);
  // A body that names its own path is compared with each path read alike.
  assert.equal(sameAsUnknownRoute(answer('{"detail":"No operation at GET /v2/ep1/status/j2."}'), probe('{"detail":"No operation at GET /v2/ep1/cpc-no-such-operation/j1."}')), true);
  assert.equal(sameAsUnknownRoute(answer('{"detail":"No job j2"}'), probe('{"detail":"Not Found"}')), false);
  assert.equal(sameAsUnknownRoute(answer('{"detail":"Not Found"}'), probe('{"detail":"Not Found"}', 404, 'application/problem+json')), false);
  assert.equal(answerLine({ operation: 'run', status: 404, contentType: '' }), 'POST /v2/{endpointId}/run answered 404 (no content type)');
});

test('absence: findings read from a missing operation are judged only for its own rule; the rest name it', () => {
  const evidence = {} as Evidence;
  const missing = { operation: 'getJobStatus', absent: 'GET /v2/{endpointId}/status/{jobId} answered 405', evidence };
  const present = { operation: 'run', evidence };
  const findings: Finding[] = [
    { rule: 'JOB.STATUS.SERVED', message: 'own', exchange: missing },
    { rule: 'AUTH.SERVERLESS.MISSING_401', message: 'getJobStatus: expected 401, got 405', exchange: missing },
    { rule: 'AUTH.SERVERLESS.MISSING_401', message: 'run: expected 401, got 200', exchange: present },
  ];
  const { kept, absent } = splitByAbsence(findings, []);
  assert.deepEqual(kept.map((f) => f.message), ['own', 'run: expected 401, got 200']);
  assert.deepEqual(absent, [missing.absent]);
  // A finding read from no answer in particular, in a test that met a missing operation, is not judged either.
  const loose = splitByAbsence([{ rule: 'JOB.STATE.RUN_IN_QUEUE', message: 'the job is not IN_QUEUE' }], [missing.absent]);
  assert.deepEqual(loose, { kept: [], absent: [missing.absent] });
  // Without a missing operation every finding is judged.
  assert.equal(splitByAbsence([{ rule: 'JOB.STATE.RUN_IN_QUEUE', message: 'x' }], []).kept.length, 1);
});
