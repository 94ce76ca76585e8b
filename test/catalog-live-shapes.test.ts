// @own-process: starts the MCP server as a process.
// The emulator's catalog answers in the live platform's shapes (spec/platform-notes.md, "Catalog
// entries"), read as a real client reads them: through the platform's MCP server
// (`list-gpu-types`, `get-gpu-type`, `list-cpu-types`, `get-cpu-type`, `list-data-centers`,
// `get-data-center`) and checked with Ajv (strict, ajv-formats) against
// test/fixtures/catalog-live.schema.json, which states the shapes as the notes do. The same
// check finds the violations of the emulator's earlier value shapes (`catalog.scalar-fields`), so
// it can fail. The suite's reader of GPU counts reads both shapes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { createAjv } from '../lib/precompiled.js';
import { maxGpusOf } from '../lib/pod-catalog.js';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { startMcpServer, type McpServer } from './mcp-server.js';

// Answers are read loosely on purpose: the schema is what checks them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/catalog-live.schema.json', import.meta.url), 'utf8')) as { $id: string };
const ajv = createAjv({ strict: true, allErrors: true });
ajv.addSchema(FIXTURE);

interface Violation { tool: string; id?: string; path: string; message: string }

/** The violations of a tool's answer against one definition of the fixture. */
function violations(def: string, tool: string, data: unknown, id?: string): Violation[] {
  const validate = ajv.getSchema(`${FIXTURE.$id}#/$defs/${def}`);
  assert.ok(validate, `the fixture defines ${def}`);
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => ({
    tool, ...(id !== undefined ? { id } : {}), path: e.instancePath,
    message: `${e.message}${'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}`,
  }));
}

const shown = (v: Violation): string => `${v.tool}${v.id !== undefined ? ` ${v.id}` : ''} ${v.path || '/'}: ${v.message}`;

let emu: RunningEmulator;
let world: { id: string; keys: { main: string } };
let mcp: McpServer;

before(async () => {
  emu = await startEmulator({ port: 0 });
  const res = await request(`${emu.url}/__emulator/worlds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ quotas: { minute: 1e6, hour: 1e7, day: 1e8 } }) });
  world = (await res.body.json()) as typeof world;
  mcp = await startMcpServer(emu.url, world.keys.main);
});

after(async () => {
  await mcp?.close();
  await emu?.close();
});

async function setVariants(variants: string[]): Promise<void> {
  const res = await request(`${emu.url}/__emulator/worlds/${world.id}/variants`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ variants }) });
  assert.equal(res.statusCode, 200, await res.body.text());
}

/** Calls a tool that must succeed and returns its payload. */
async function ok(name: string, args: Record<string, unknown> = {}): Promise<Loose> {
  const res = await mcp.call(name, args);
  assert.ok(res.ok, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(res.payload).slice(0, 400)}\n${mcp.stderr().slice(-400)}`);
  return res.payload;
}

const TOOLS = [
  { list: 'list-gpu-types', get: 'get-gpu-type', listDef: 'gpuList', entryDef: 'gpuType', member: 'gpus' },
  { list: 'list-cpu-types', get: 'get-cpu-type', listDef: 'cpuList', entryDef: 'cpuFlavor', member: 'cpus' },
  { list: 'list-data-centers', get: 'get-data-center', listDef: 'dataCenterList', entryDef: 'dataCenter', member: 'dataCenters' },
] as const;

/** Every catalog answer the tools give (each list, then each of its entries by id) with its violations. */
async function catalogViolations(args: Record<string, unknown> = {}): Promise<{ found: Violation[]; lists: Record<string, Loose[]> }> {
  const found: Violation[] = [];
  const lists: Record<string, Loose[]> = {};
  for (const t of TOOLS) {
    const listed = await ok(t.list, t.member === 'gpus' ? args : {});
    found.push(...violations(t.listDef, t.list, listed));
    const entries: Loose[] = Array.isArray(listed?.[t.member]) ? listed[t.member] : [];
    assert.ok(entries.length > 0, `${t.list} lists entries`);
    lists[t.member] = entries;
    for (const e of entries) found.push(...violations(t.entryDef, t.get, await ok(t.get, { id: e.id, ...(t.member === 'gpus' ? args : {}) }), e.id));
  }
  return { found, lists };
}

const ON_REQUEST = ['availability', 'dataCenters', 'cudaVersions'];

test('the catalog tools answer in the live shapes: no violation of the platform notes\' entries', async () => {
  const { found, lists } = await catalogViolations();
  assert.deepEqual(found.map(shown), []);
  for (const g of lists.gpus!) {
    assert.deepEqual(ON_REQUEST.filter((k) => k in g), [], `${g.id}: availability fields only when the read asks`);
    // The emulator's choice (CHOICES.md #31): a type in a serverless pool has a serverless price.
    assert.equal('serverless' in g.price, g.pool !== null, `${g.id}: serverless price iff a pool`);
  }
});

test('with include=AVAILABILITY&product=POD a GPU type adds availability, dataCenters and cudaVersions, in the live shapes', async () => {
  const { found, lists } = await catalogViolations({ include: ['AVAILABILITY'], product: ['POD'] });
  assert.deepEqual(found.map(shown), []);
  for (const g of lists.gpus!) assert.deepEqual(ON_REQUEST.filter((k) => k in g), ON_REQUEST, g.id);
});

test('the earlier value shapes (catalog.scalar-fields) violate them: price, maxCount and region', async () => {
  await setVariants(['catalog.scalar-fields']);
  try {
    const { found } = await catalogViolations();
    // The field of each violation, a list's `/<member>/<n>` left out: the same three fields everywhere.
    const fields = new Set(found.map((v) => `${v.tool} ${v.path.replace(/^\/\w+\/\d+/, '')}`));
    assert.deepEqual([...fields].sort(), [
      'get-cpu-type /price', 'get-data-center /region', 'get-gpu-type /maxCount', 'get-gpu-type /price',
      'list-cpu-types /price', 'list-data-centers /region', 'list-gpu-types /maxCount', 'list-gpu-types /price',
    ], found.map(shown).join('\n'));
  } finally {
    await setVariants([]);
  }
});

test('maxGpusOf reads maxCount per cloud (live), or one number (earlier shapes), else nothing', () => {
  const live = { id: 'g', maxCount: { secure: 8, community: 4 } };
  assert.equal(maxGpusOf(live, 'SECURE'), 8);
  assert.equal(maxGpusOf(live, 'COMMUNITY'), 4);
  assert.equal(maxGpusOf(live), 4, 'without a cloud, a count that fits both');
  assert.equal(maxGpusOf({ id: 'g', maxCount: { secure: 2, community: 0 } }), 2, 'a cloud that does not offer the type is left out');
  assert.equal(maxGpusOf({ id: 'g', maxCount: { secure: 2, community: 0 } }, 'COMMUNITY'), undefined);
  assert.equal(maxGpusOf({ id: 'g', maxCount: 6 }, 'COMMUNITY'), 6);
  assert.equal(maxGpusOf({ id: 'g', maxGpuCount: 3 }), 3);
  assert.equal(maxGpusOf({ id: 'g', maxCount: 1.5 as number }), undefined);
  assert.equal(maxGpusOf({ id: 'g' }), undefined);
});
