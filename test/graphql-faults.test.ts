// The GraphQL fault catalog: every fault names a MUST rule of the GraphQL surface, and switching
// it on changes the answer the clean emulator gives (the contract specs prove detection).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningEmulator } from '../emulator/server.js';
import { graphqlFaults } from '../emulator/graphql/faults.js';
import { ruleById } from '../lib/rules.js';
import { SAVE_ENDPOINT, serverlessTemplate, startHarness, testWorld } from './graphql-harness.js';

let emu: RunningEmulator;
before(async () => { emu = await startHarness(); });
after(() => emu.close());

test('there are at least 15 GraphQL faults, each breaking one MUST rule of the GraphQL catalog', () => {
  const entries = Object.entries(graphqlFaults);
  assert.ok(entries.length >= 15, `only ${entries.length} faults`);
  for (const [id, fault] of entries) {
    assert.match(id, /^graphql\./);
    const rule = ruleById(fault.rule);
    assert.ok(rule, `${id}: unknown rule ${fault.rule}`);
    assert.equal(rule.level, 'MUST', `${id}: ${fault.rule} is not a MUST rule`);
    assert.equal(rule.surface, 'graphql', `${id}: ${fault.rule} is not a GraphQL rule`);
  }
});

// A few faults checked in-process, one per mechanism (schema variant, resolver, response, auth).
const cases: { fault: string; run: (t: ReturnType<typeof testWorld>) => Promise<string> }[] = [
  { fault: 'graphql.type-default-lb', run: async (t) => {
    const templateId = await serverlessTemplate(t);
    return JSON.stringify((await t.gql(SAVE_ENDPOINT, { i: { name: 'e', gpuIds: 'AMPERE_16', templateId } })).body.data);
  } },
  { fault: 'graphql.save-endpoint-name-optional', run: async (t) => {
    const templateId = await serverlessTemplate(t);
    return JSON.stringify((await t.gql(SAVE_ENDPOINT, { i: { gpuIds: 'AMPERE_16', templateId } })).body);
  } },
  { fault: 'graphql.result-not-wrapped', run: async (t) => JSON.stringify((await t.gql('{ myself { id } }')).body) },
  { fault: 'graphql.api-key-ignored', run: async (t) => String((await t.gql('{ myself { id } }', undefined, 'none')).status) },
  { fault: 'graphql.bad-document-500', run: async (t) => String((await t.gql('{ myself {')).status) },
];
for (const c of cases) {
  test(`${c.fault} changes what the emulator answers`, async () => {
    const clean = await c.run(testWorld(emu));
    const faulty = await c.run(testWorld(emu, [c.fault]));
    assert.notEqual(faulty.replace(/acct_\w+|ep\w+|tpl\w+/g, 'ID'), clean.replace(/acct_\w+|ep\w+|tpl\w+/g, 'ID'));
  });
}
