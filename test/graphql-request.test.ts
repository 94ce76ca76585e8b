// The GraphQL request pipeline: body shapes, malformed documents, limits, authentication.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '../emulator/server.js';
import { startHarness, testWorld, type GqlAnswer } from './graphql-harness.js';

let emu: RunningEmulator;
before(async () => { emu = await startHarness(); });
after(() => emu.close());

/** A GraphQL error answer: JSON `{errors: [{message}, ...]}`, no result, never a 5xx or a stack. */
function assertGraphqlError(res: GqlAnswer, status: number, message: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.contentType, 'application/json');
  assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0, res.text);
  for (const e of res.body.errors) assert.equal(typeof e.message, 'string');
  assert.ok(res.body.errors.some((e) => message.test(e.message)), res.text);
  assert.equal(res.body.data, undefined, 'no data for a request that did not run');
  assert.doesNotMatch(res.text, /\n\s+at |\.ts:\d+/);
}

const bad: [string, string | undefined, number, RegExp][] = [
  ['no body', undefined, 400, /JSON object with a "query"/],
  ['a JSON array', '[1,2]', 400, /not a GraphQL request/],
  ['no query', '{"variables":{}}', 400, /must have required property "query"/],
  ['a non-string query', '{"query":42}', 400, /\/query: must be string/],
  ['an empty query', '{"query":""}', 400, /\/query/],
  ['variables not an object', '{"query":"{ myself { id } }","variables":[1]}', 400, /\/variables/],
  ['a syntax error', '{"query":"{ myself { id "}', 400, /Syntax Error/],
  ['an unknown field', '{"query":"{ myself { id nope } }"}', 400, /Cannot query field "nope"/],
  ['an unknown root field', '{"query":"{ endpoints { id } }"}', 400, /Cannot query field "endpoints" on type "Query"/],
  ['a missing required argument', '{"query":"mutation { deleteEndpoint { } }"}', 400, /Syntax Error|required/],
  ['a wrong literal type', '{"query":"mutation { deleteEndpoint(id: 5) }"}', 400, /String cannot represent/],
  ['a wrong variable type', '{"query":"mutation($id: String!) { deleteEndpoint(id: $id) }","variables":{"id":5}}', 400, /Variable "\$id" got invalid value/],
  ['a missing variable', '{"query":"mutation($id: String!) { deleteEndpoint(id: $id) }"}', 400, /Variable "\$id" of required type/],
  ['a quoted enum', '{"query":"mutation { saveEndpoint(input: {name: \\"e\\", gpuIds: \\"AMPERE_16\\", templateId: \\"t\\", flashBootType: \\"FLASHBOOT\\"}) { id } }"}', 400, /Enum "FlashBootType" cannot represent non-enum value/],
  ['a value field on Secret', '{"query":"mutation { secretCreate(input: {name: \\"n\\", value: \\"v\\"}) { id value } }"}', 400, /Cannot query field "value" on type "Secret"/],
  ['two anonymous operations', '{"query":"{ myself { id } } { myself { id } }"}', 400, /anonymous operation/],
  ['an unknown operationName', '{"query":"query A { myself { id } }","operationName":"B"}', 400, /no operation named "B"/],
  ['only a fragment', '{"query":"fragment F on User { id }"}', 400, /Fragment "F" is never used|no operation/],
  ['a subscription', '{"query":"subscription { myself { id } }"}', 400, /subscription|Subscriptions/i],
  ['a fragment cycle', '{"query":"{ myself { ...A } } fragment A on User { ...B } fragment B on User { ...A }"}', 400, /Cannot spread fragment/],
];
for (const [name, body, status, message] of bad) {
  test(`malformed GraphQL gets a GraphQL error response: ${name}`, async () => {
    assertGraphqlError(await testWorld(emu).raw(body), status, message);
  });
}

test('a field bomb built from fragments is refused by its field count, before validation', async () => {
  const t = testWorld(emu);
  const level = (n: number) => `fragment F${n} on User { ${Array.from({ length: 10 }, (_, i) => `a${i}: endpoints { ...E${n} }`).join(' ')} }`;
  const endpointFragment = (n: number) => `fragment E${n} on Endpoint { ${Array.from({ length: 10 }, (_, i) => `p${i}: pods { desiredStatus }`).join(' ')} }`;
  const query = `{ ${Array.from({ length: 20 }, (_, i) => `m${i}: myself { ...F0 }`).join(' ')} } ${level(0)} ${endpointFragment(0)}`;
  // Refused by the field count, before validation would walk the expansion (how fast is the machine's business, not the test's).
  assertGraphqlError(await t.gql(query), 400, /more than 2000 fields/);
});

test('a document over the token limit is refused', async () => {
  const res = await testWorld(emu).gql(`{ myself { ${'id '.repeat(30_000)} } }`);
  assertGraphqlError(res, 400, /more tha[nt] 20000 tokens/);
});

const deep: [string, string][] = [
  ['selection sets', `{ ${'a { '.repeat(6000)} b ${'} '.repeat(6000)} }`],
  ['inline fragments', `{ ${'... on Query { '.repeat(4900)} myself { id } ${'} '.repeat(4900)} }`],
  ['list literals', `mutation { deleteEndpoint(id: ${'['.repeat(9000)}${']'.repeat(9000)}) }`],
  ['bare braces', '{'.repeat(9000) + '}'.repeat(9000)],
];
for (const [name, query] of deep) {
  test(`deeply nested ${name} are refused before parsing (no stack overflow)`, async () => {
    assertGraphqlError(await testWorld(emu).gql(query), 400, /nests brackets deeper than 64/);
  });
}

test('brackets inside strings, block strings and comments do not count as nesting', async () => {
  const t = testWorld(emu);
  const query = `# {{{{ ${'{'.repeat(100)}\nmutation { secretCreate(input: {name: "${'{'.repeat(100)}", value: """${'['.repeat(100)} \\""" ${'('.repeat(100)}"""}) { name } }`;
  const res = await t.gql(query);
  assert.equal(res.status, 200, res.text);
  assert.equal((res.body.data!.secretCreate as { name: string }).name, '{'.repeat(100));
});

test('variables may be {} or null, and operationName selects an operation', async () => {
  const t = testWorld(emu);
  for (const variables of [{}, null]) {
    const res = await t.gql('{ myself { id } }', variables);
    assert.equal(res.status, 200, res.text);
    assert.equal(typeof (res.body.data!.myself as { id: string }).id, 'string');
  }
  const named = await t.raw(JSON.stringify({ query: 'query A { myself { id } } query B { myself { endpoints { id } } }', operationName: 'B' }));
  assert.deepEqual(named.body, { data: { myself: { endpoints: [] } } });
});

test('authentication: api_key and Bearer are accepted; missing or invalid keys get 401 problem+json', async () => {
  const t = testWorld(emu);
  assert.equal((await t.gql('{ myself { id } }', undefined, { key: t.keys.main })).status, 200);
  assert.equal((await t.gql('{ myself { id } }', undefined, { bearer: t.keys.main })).status, 200);
  for (const auth of ['none', { key: 'cpk_not-a-key' }, { bearer: 'cpk_not-a-key' }, { key: '' }] as const) {
    const res = await t.gql('{ myself { id } }', undefined, auth);
    assert.equal(res.status, 401, res.text);
    assert.equal(res.contentType, 'application/problem+json');
    assert.equal(res.body.status, 401);
  }
});

test('a read-only key may query but every mutation gets 403 problem+json and changes nothing', async () => {
  const t = testWorld(emu);
  assert.equal((await t.gql('{ myself { id } }', undefined, { key: t.keys.readonly })).status, 200);
  const res = await t.gql('mutation { secretCreate(input: {name: "n", value: "v"}) { id } }', undefined, { key: t.keys.readonly });
  assert.equal(res.status, 403, res.text);
  assert.equal(res.contentType, 'application/problem+json');
  const again = await t.gql('mutation { secretCreate(input: {name: "n", value: "v"}) { id } }');
  assert.equal(again.status, 200, 'the refused mutation created nothing (no duplicate name)');
  assert.equal(again.body.errors, undefined, again.text);
});

test('GET /graphql is 405 and a text body is 415, both problem+json', async () => {
  const t = testWorld(emu);
  assert.equal((await t.raw(undefined, undefined, 'GET')).status, 405);
  const text = await t.raw('{ myself { id } }', 'text/plain');
  assert.equal(text.status, 415);
  assert.equal(text.contentType, 'application/problem+json');
});

test('answers carry the rate-limit headers like every authenticated response', async () => {
  const t = testWorld(emu);
  const { request } = await import('undici');
  const res = await request(`${emu.url}/graphql?api_key=${t.keys.main}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ myself { id } }"}' });
  await res.body.text();
  assert.ok(res.headers.ratelimit && res.headers['ratelimit-policy']);
});
