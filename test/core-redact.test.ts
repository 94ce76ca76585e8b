import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerSecret, redactText, redactHeaders, redactValue, REDACTED } from '../lib/redact.js';
import { buildEvidence, toCurl } from '../lib/evidence.js';

const KEY = 'cpk_PLANTED_SECRET_abcdef123456';
registerSecret(KEY);

test('registered keys vanish from text, headers and nested values', () => {
  assert.equal(redactText(`key=${KEY} again ${KEY}`), `key=${REDACTED} again ${REDACTED}`);
  assert.deepEqual(redactHeaders({ Authorization: `Bearer ${KEY}`, 'x-other': KEY }), { Authorization: `Bearer ${REDACTED}`, 'x-other': REDACTED });
  assert.deepEqual(redactValue({ a: [{ b: `x${KEY}y` }], apiKey: 'whatever' }), { a: [{ b: `x${REDACTED}y` }], apiKey: REDACTED });
});

test('unregistered credentials in well-known places are masked too', () => {
  assert.equal(redactText('GET /graphql?api_key=unknown-key-999&x=1'), `GET /graphql?api_key=${REDACTED}&x=1`);
  assert.equal(redactText('Authorization: Bearer some.unknown-token_42'), `Authorization: Bearer ${REDACTED}`);
  assert.deepEqual(redactHeaders({ authorization: 'raw-serverless-key-xyz' }), { authorization: REDACTED });
});

test('curl lines name the key by its environment variable', () => {
  const curl = toCurl({ method: 'POST', url: `http://127.0.0.1:1/graphql?api_key=${KEY}`, headers: { authorization: `Bearer ${KEY}` }, body: '{"a":1}', bodyBytes: 7, key: KEY, keyVariable: 'CPC_API_KEY' });
  assert.ok(!curl.includes(KEY));
  assert.ok(curl.includes('"Authorization: Bearer ${CPC_API_KEY}"') || curl.includes('"authorization: Bearer ${CPC_API_KEY}"'), curl);
  assert.ok(curl.includes('api_key=${CPC_API_KEY}'), curl);
});

test('evidence never carries the key, even in bodies and errors', () => {
  const e = buildEvidence({ method: 'GET', url: 'http://h/x', headers: { authorization: KEY }, body: `{"k":"${KEY}"}`, bodyBytes: 10 },
    { status: 401, headers: { 'www-authenticate': KEY }, text: `bad key ${KEY}`, bytes: 20, durationMs: 1 }, `failed with ${KEY}`);
  assert.ok(!JSON.stringify(e).includes(KEY));
});

test('one set of patterns: a key revealed in one place is removed everywhere, prose stays readable', () => {
  const learnt = 'unregistered-key-0123456789';
  const value = { request: { headers: { 'x-api-key': learnt } }, error: `the target echoed ${learnt}`, note: 'HTTP bearer scheme: header `Authorization: Bearer <API_KEY>`' };
  const out = redactValue(value);
  assert.ok(!JSON.stringify(out).includes(learnt), JSON.stringify(out));
  assert.equal(out.error, `the target echoed ${REDACTED}`);
  assert.equal(redactText('use the Bearer scheme'), 'use the Bearer scheme');
  assert.equal(redactText('{"apiKey": "abc123def456"}'), `{"apiKey": "${REDACTED}"}`);
  assert.equal(redactText(`GET /v2/pods ${'cpk_' + 'A'.repeat(20)}`), `GET /v2/pods ${REDACTED}`);
  assert.deepEqual(redactHeaders({ cookie: 'session=abc', Authorization: 'Basic dXNlcjpwYXNz' }), { cookie: REDACTED, Authorization: `Basic ${REDACTED}` });
});

test('the client\'s evidence, built when read: redacted with the keys known then, the last exchanges only, a large body referred to', async () => {
  const { ApiClient } = await import('../lib/client/api.js');
  const sent: string[] = [];
  const transport = {
    send: async (r: { url: string }) => {
      sent.push(r.url);
      return { status: 200, headers: { 'content-type': 'application/json' }, bytes: new TextEncoder().encode(`{"echo":"${r.url}"}`), durationMs: 1 };
    },
  };
  const minted = 'cpk_MINTED_AFTER_THE_CALL_0123456789';
  const client = new ApiClient({ baseUrl: 'http://h', serverlessUrl: 'http://h', restV1Url: 'http://h' }, { main: KEY }, transport);
  const big = { blob: 'x'.repeat(70 * 1024), token: minted };
  for (let i = 0; i < 25; i++) await client.call('rest-v2', 'POST', `/pods/${i}`, { body: i === 24 ? big : { i, token: minted } });
  assert.equal(sent.length, 25);
  // A key registered after the calls (a world's key, minted later) is still removed when the evidence is read.
  registerSecret(minted);
  const all = client.recentEvidence(100);
  assert.equal(all.length, 20, 'the latest 20 exchanges');
  assert.deepEqual(client.recentEvidence(2).map((e) => e.request.url), ['http://h/pods/23', 'http://h/pods/24']);
  const text = JSON.stringify(all);
  assert.ok(!text.includes(KEY) && !text.includes(minted), 'no key in the evidence');
  const last = client.recentEvidence(1)[0]!;
  assert.equal(last.request.bodyBytes, Buffer.byteLength(JSON.stringify(big)));
  assert.match(last.curl, /--data-binary @body\.json {2}# \d+ bytes/);
  const bigText = JSON.stringify(big);
  assert.equal(last.request.body, `${bigText.slice(0, 4096)}… (${bigText.length - 4096} more characters)`, 'the body is clipped once, with the count of what was left out');
});

test('a <placeholder> after a scheme is the spec\'s notation, not a key: rule statements stay readable', () => {
  const statement = 'A REST v2 request with Authorization: Bearer <valid key> is authenticated (never answered 401).';
  assert.equal(redactText(statement), statement);
  assert.equal(redactText('Header `Authorization: Bearer <API_KEY>`'), 'Header `Authorization: Bearer <API_KEY>`');
  assert.equal(redactText("-H 'authorization: Bearer cpk_live0123456789'"), `-H 'authorization: Bearer ${REDACTED}'`);
});
