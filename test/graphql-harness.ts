/**
 * In-process harness for the GraphQL unit tests: the emulator on a real socket (port 0), one
 * world per test with a main account (write and read-only keys) and another account.
 */
import { request, type Agent } from 'undici';
import { harnessAgent } from './agent-support.js';
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import type { World } from '../emulator/world.js';

export interface GqlAnswer {
  status: number;
  contentType: string;
  text: string;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; path?: unknown[]; extensions?: { code?: string } }[]; [k: string]: unknown };
}

export interface TestWorld {
  world: World;
  keys: { main: string; readonly: string; other: string };
  /** POSTs `{query, variables}` to /graphql with `?api_key=` (or another way to authenticate). */
  gql(query: string, variables?: unknown, auth?: Auth): Promise<GqlAnswer>;
  /** POSTs a raw body to /graphql with the main key. */
  raw(body: string | undefined, contentType?: string, method?: string): Promise<GqlAnswer>;
  /** Runs a query expected to succeed and returns `data`. */
  ok(query: string, variables?: unknown): Promise<Record<string, unknown>>;
  advance(ms: number): void;
}

export type Auth = { key: string } | { bearer: string } | 'none';

/** Each harness emulator's connection pool (test/agent-support.ts), closed with the emulator. */
const agents = new WeakMap<RunningEmulator, Agent>();

/** Starts an emulator with a connection pool of its own; its `close()` closes both. */
export async function startHarness(): Promise<RunningEmulator> {
  const emu = await startEmulator({ port: 0 });
  const agent = harnessAgent();
  const stop = emu.close;
  emu.close = async () => { await agent.close(); await stop(); };
  agents.set(emu, agent);
  return emu;
}

/** The pool of an emulator from {@link startHarness}; another emulator gets one of its own, kept while it lives. */
const agentOf = (emu: RunningEmulator): Agent => {
  let agent = agents.get(emu);
  if (!agent) { agent = harnessAgent(); agents.set(emu, agent); }
  return agent;
};

export function testWorld(emu: RunningEmulator, faults: string[] = []): TestWorld {
  const world = emu.emulator.createWorld({ faults, quotas: { minute: 1_000_000, hour: 1_000_000, day: 1_000_000 } });
  const main = world.createAccount('main');
  const other = world.createAccount('other');
  const keys = {
    main: world.mintKey(main.id, ['read', 'write'], 'main').key,
    readonly: world.mintKey(main.id, ['read'], 'readonly').key,
    other: world.mintKey(other.id, ['read', 'write'], 'other').key,
  };

  const send = async (body: string | undefined, auth: Auth, contentType = 'application/json', method = 'POST'): Promise<GqlAnswer> => {
    const url = new URL(`${emu.url}/graphql`);
    const headers: Record<string, string> = { 'x-emulator-world': world.id };
    if (body !== undefined) headers['content-type'] = contentType;
    if (auth !== 'none' && 'key' in auth) url.searchParams.set('api_key', auth.key);
    if (auth !== 'none' && 'bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`;
    const res = await request(url, { dispatcher: agentOf(emu), method: method as 'POST', headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.body.text();
    const contentTypeHeader = String(res.headers['content-type'] ?? '').split(';')[0]!;
    return { status: res.statusCode, contentType: contentTypeHeader, text, body: text ? JSON.parse(text) as GqlAnswer['body'] : {} };
  };

  const gql: TestWorld['gql'] = (query, variables, auth = { key: keys.main }) =>
    send(JSON.stringify(variables === undefined ? { query } : { query, variables }), auth);

  return {
    world, keys, gql,
    raw: (body, contentType, method) => send(body, { key: keys.main }, contentType, method),
    async ok(query, variables) {
      const res = await gql(query, variables);
      if (res.status !== 200 || res.body.errors) throw new Error(`expected success, got ${res.status}: ${res.text}`);
      return res.body.data!;
    },
    advance: (ms) => { world.clock.advance(ms); },
  };
}

/** A serverless template for endpoints; returns its id. */
export async function serverlessTemplate(t: TestWorld, name = 'tpl-sls'): Promise<string> {
  const data = await t.ok(`mutation($i: PodTemplateInput!) { saveTemplate(input: $i) { id } }`,
    { i: { name, imageName: 'img/handler:1', containerDiskInGb: 5, volumeInGb: 0, isServerless: true } });
  return (data.saveTemplate as { id: string }).id;
}

export const SAVE_ENDPOINT = `mutation($i: EndpointInput!) { saveEndpoint(input: $i) {
  id name gpuIds templateId type idleTimeout locations flashBootType scalerType scalerValue workersMin workersMax networkVolumeId } }`;

export type EndpointOut = Record<string, unknown> & { id: string };
