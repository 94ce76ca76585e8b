import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type { OperationDefinitionNode } from 'graphql';
import type { ApiClient, Exchange, KeyRole } from './client/api.js';
import { runConfig } from './run-config.js';
import { zeroCounts, type CountKind, type Counts } from './plan.js';
import type { Leftover, LeftoversFile, Resource, ResourceKind, ResourceShape } from './protocol.js';

export type { Leftover, LeftoversFile, Resource, ResourceKind, ResourceShape };

/**
 * What the suite creates on a target, and its deletion before the run ends.
 *
 * Every exchange of a test's client is watched: a successful creation (createPod,
 * createNetworkVolume, POST /v1/endpoints, GraphQL saveEndpoint / saveTemplate without `id`,
 * secretCreate) is recorded, a successful deletion crosses it off, whoever sends it. Records go
 * to a run-wide file (one JSON line each, appended by every worker), so that after the last
 * test, also after a failure or an interruption, the global teardown deletes what is still
 * there and lists what it could not delete in `leftovers.json` beside the report.
 */
/** Deletion order: endpoints before the templates they use, pods before volumes they mount. */
const ORDER: ResourceKind[] = ['endpoint', 'pod', 'template', 'secret', 'networkVolume'];

export const keyOf = (r: Pick<Resource, 'kind' | 'id' | 'name'>): string => `${r.kind}:${r.kind === 'template' ? r.name : r.id ?? r.name}`;


/**
 * A name unique to this run and this test (`cpc-<run>-<test>-<kind><n>`): nothing collides
 * across workers, repetitions or a previous run's leftovers.
 */
export type UniqueName = ((kind: string) => string) & { readonly prefix: string };

export function uniqueNameFactory(testId: string, repeat: number, retry: number, run = runConfig().runId ?? 'local'): UniqueName {
  const prefix = `cpc-${run}-${createHash('sha256').update(`${testId}#${repeat}#${retry}`).digest('hex').slice(0, 8)}-`;
  let n = 0;
  return Object.assign((kind: string) => `${prefix}${kind}${(++n).toString(36)}`, { prefix });
}

/** The run-wide record of creations and deletions (JSON lines; appends are whole lines). */
export class Registry {
  constructor(readonly file: string) {}

  add(r: Resource): void { this.#write({ op: 'add', at: Date.now(), ...r }); }
  done(r: Pick<Resource, 'kind' | 'id' | 'name'>): void { this.#write({ op: 'done', key: keyOf(r), at: Date.now() }); }

  /** Every creation of the run, with when it was deleted (absent: not deleted, or not seen deleted). */
  records(): (Resource & { deletedAt?: number })[] {
    if (!existsSync(this.file)) return [];
    // Every creation counts, also one under a name an earlier, deleted one had (templates are
    // keyed by name); a deletion ends the latest creation of its key still open.
    const all: (Resource & { deletedAt?: number })[] = [];
    const open = new Map<string, Resource & { deletedAt?: number }>();
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry: { op: string; key?: string; at?: number } & Resource;
      try { entry = JSON.parse(line) as typeof entry; } catch { continue; }
      if (entry.op === 'add') {
        const { op: _op, ...r } = entry;
        if (open.has(keyOf(r))) continue;
        all.push(r);
        open.set(keyOf(r), r);
      } else if (entry.op === 'done' && entry.key) {
        const r = open.get(entry.key);
        if (r) { r.deletedAt = entry.at ?? Date.now(); open.delete(entry.key); }
      }
    }
    return all;
  }

  /** Everything added and not deleted, in deletion order, and how many were created. */
  outstanding(): { created: number; open: Resource[] } {
    if (!existsSync(this.file)) return { created: 0, open: [] };
    const open = new Map<string, Resource>();
    let created = 0;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry: { op: string; key?: string } & Resource;
      try { entry = JSON.parse(line) as typeof entry; } catch { continue; }
      if (entry.op === 'add') {
        const { op: _op, ...r } = entry;
        if (!open.has(keyOf(r))) created += 1;
        open.set(keyOf(r), r);
      } else if (entry.op === 'done' && entry.key) open.delete(entry.key);
    }
    return { created, open: sortForDeletion([...open.values()]) };
  }

  /** Ids of `kind` that tests other than `exceptTest` created in this run. */
  knownIds(kind: ResourceKind, exceptTest: string): Set<string> {
    const ids = new Set<string>();
    if (!existsSync(this.file)) return ids;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.includes('"op":"add"')) continue;
      try {
        const r = JSON.parse(line) as Resource;
        if (r.kind === kind && r.id && r.test !== exceptTest) ids.add(r.id);
      } catch { /* a line being written */ }
    }
    return ids;
  }

  #write(entry: object): void {
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, JSON.stringify(entry) + '\n');
  }
}

export const sortForDeletion = <T extends Pick<Resource, 'kind'>>(list: T[]): T[] => [...list].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));

const roleOf = (auth: Exchange['auth']): KeyRole | undefined => {
  if (auth === 'main' || auth === 'readonly' || auth === 'other') return auth;
  if (typeof auth === 'object' && 'role' in auth) return auth.role;
  return undefined;
};

type Sink = {
  created(r: Omit<Resource, 'test'>): void;
  deleted(r: Pick<Resource, 'kind' | 'id' | 'name'>): void;
  /** An existing endpoint updated to `workersMin` > 0 (an always-on worker). */
  warmed?(id: string): void;
};

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The shape of a pod body (what it runs on) for the cost section and the budgets. */
export function podShapeOf(body: unknown): ResourceShape | undefined {
  const b = (body ?? {}) as { gpu?: { id?: unknown; count?: unknown }; cpu?: { id?: unknown; vcpuCount?: unknown }; cloud?: unknown; mounts?: { persistent?: unknown; network?: unknown } };
  const shape: ResourceShape = {
    ...(b.gpu && typeof b.gpu.id === 'string' ? { gpu: { id: b.gpu.id, ...(num(b.gpu.count) !== undefined ? { count: num(b.gpu.count)! } : {}) } } : {}),
    ...(b.cpu && typeof b.cpu.id === 'string' ? { cpu: { id: b.cpu.id, ...(num(b.cpu.vcpuCount) !== undefined ? { vcpuCount: num(b.cpu.vcpuCount)! } : {}) } } : {}),
    ...(typeof b.cloud === 'string' ? { cloud: b.cloud } : {}),
    ...(b.mounts?.persistent ? { mounts: 'persistent' as const } : b.mounts?.network ? { mounts: 'network' as const } : {}),
  };
  return Object.keys(shape).length ? shape : undefined;
}

type Graphql = typeof import('graphql');
let graphqlModule: Graphql | undefined;
/** graphql, loaded when a GraphQL mutation is first tracked: Playwright's runner imports this module to list tests and never needs it. */
const graphql = (): Graphql => (graphqlModule ??= createRequire(import.meta.url)('graphql') as Graphql);

/** The mutation fields of a GraphQL document, with their arguments as plain values. */
export function mutationFields(query: string, variables: Record<string, unknown> | undefined): { field: string; alias: string; args: Record<string, unknown> }[] {
  const { Kind, parse, valueFromASTUntyped } = graphql();
  let document;
  try { document = parse(query); } catch { return []; }
  const out: { field: string; alias: string; args: Record<string, unknown> }[] = [];
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION || (def as OperationDefinitionNode).operation !== 'mutation') continue;
    for (const sel of (def as OperationDefinitionNode).selectionSet.selections) {
      if (sel.kind !== Kind.FIELD) continue;
      const args: Record<string, unknown> = {};
      for (const a of sel.arguments ?? []) args[a.name.value] = valueFromASTUntyped(a.value, variables);
      out.push({ field: sel.name.value, alias: sel.alias?.value ?? sel.name.value, args });
    }
  }
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads one exchange for creations and deletions. */
export function watch(exchange: Omit<Exchange, 'surface'>, sink: Sink): void {
  const { operation, status, requestBody, responseBody } = exchange;
  const auth = roleOf(exchange.auth);
  if (auth === undefined) return;
  const ok = status >= 200 && status < 300;
  const res = (responseBody ?? {}) as Record<string, unknown>;
  const req = (requestBody ?? {}) as Record<string, unknown>;
  switch (operation) {
    case 'createPod': if (ok && str(res.id)) { const shape = podShapeOf(req); sink.created({ kind: 'pod', id: res.id as string, auth, ...(str(req.name) ? { name: req.name as string } : {}), ...(shape ? { shape } : {}) }); } return;
    case 'createNetworkVolume': if (ok && str(res.id)) sink.created({ kind: 'networkVolume', id: res.id as string, auth }); return;
    case 'createEndpointV1': if (ok && str(res.id)) sink.created({ kind: 'endpoint', id: res.id as string, auth, ...(str(req.name) ? { name: req.name as string } : {}), ...(str(req.templateId) ? { templateId: req.templateId as string } : {}),
      shape: { ...(num(req.workersMin) !== undefined ? { workersMin: num(req.workersMin)! } : {}), ...(num(req.workersMax) !== undefined ? { workersMax: num(req.workersMax)! } : {}) } }); return;
    case 'deletePod': if (ok || status === 404) sink.deleted({ kind: 'pod', id: exchange.params?.podId }); return;
    case 'deleteNetworkVolume': if (ok || status === 404) sink.deleted({ kind: 'networkVolume', id: exchange.params?.networkVolumeId }); return;
    case 'graphql': break;
    default: return;
  }
  if (status !== 200 || typeof req.query !== 'string') return;
  const data = (res.data ?? {}) as Record<string, unknown>;
  for (const { field, alias, args } of mutationFields(req.query, req.variables as Record<string, unknown> | undefined)) {
    const value = data[alias];
    const result = (value ?? {}) as Record<string, unknown>;
    const input = (args.input ?? {}) as Record<string, unknown>;
    if (field === 'saveTemplate' && value && input.id === undefined) {
      const name = str(result.name) ?? str(input.name);
      if (name) sink.created({ kind: 'template', name, auth, ...(str(result.id) ? { id: result.id as string } : {}) });
    } else if (field === 'saveEndpoint' && value && input.id === undefined && str(result.id)) {
      sink.created({ kind: 'endpoint', id: result.id as string, auth, ...(str(input.name) ? { name: input.name as string } : {}), ...(str(input.gpuIds) ? { gpuIds: input.gpuIds as string } : {}), ...(str(input.templateId) ? { templateId: input.templateId as string } : {}),
        shape: { ...(num(input.workersMin) !== undefined ? { workersMin: num(input.workersMin)! } : {}), ...(num(input.workersMax) !== undefined ? { workersMax: num(input.workersMax)! } : {}) } });
    } else if (field === 'saveEndpoint' && value && str(input.id) && (num(input.workersMin) ?? 0) > 0) {
      sink.warmed?.(input.id as string);
    } else if (field === 'secretCreate' && value) {
      sink.created({ kind: 'secret', auth, ...(str(result.id) ? { id: result.id as string } : {}), ...(str(input.name) ? { name: input.name as string } : {}) });
    } else if (field === 'deleteEndpoint' && alias in data && str(args.id) && !hasErrors(res)) sink.deleted({ kind: 'endpoint', id: args.id as string });
    else if (field === 'deleteTemplate' && alias in data && str(args.templateName) && !hasErrors(res)) sink.deleted({ kind: 'template', name: args.templateName as string });
    else if (field === 'secretDelete' && alias in data && str(args.id) && !hasErrors(res)) sink.deleted({ kind: 'secret', id: args.id as string });
  }
}

const hasErrors = (body: Record<string, unknown>): boolean => Array.isArray(body.errors) && body.errors.length > 0;

/**
 * One test's tracker: records into the registry (on a deployment) and keeps the test's own open
 * resources, so its teardown deletes them at once (the run's teardown catches the rest). It
 * also counts what the test made by kind, against its declaration (lib/plan.ts): what a pool
 * makes while {@link pool} is set belongs to the pool, not to the test.
 */
export class TestTracker {
  readonly open = new Map<string, Resource>();
  /** What the test made itself, by kind. */
  readonly made: Counts = zeroCounts();
  /** Set while a pooled resource is made: its creations belong to that pool. */
  pool: string | undefined;
  /** What each pool made while it was set (a pool made inside another's maker keeps its own). */
  readonly poolMade = new Map<string, Resource[]>();
  constructor(readonly registry: Registry | undefined, readonly test: string) {}

  readonly sink: Sink = {
    created: (r) => {
      const full: Resource = { ...r, test: this.test, ...(this.pool ? { pool: this.pool } : {}) };
      if (this.pool) this.poolMade.set(this.pool, [...(this.poolMade.get(this.pool) ?? []), full]);
      else {
        this.open.set(keyOf(full), full);
        const kind = countKindOf(full);
        this.made[kind] += 1;
        if (kind === 'endpoints' && (full.shape?.workersMin ?? 0) > 0) this.made.warmEndpoints += 1;
      }
      this.registry?.add(full);
    },
    deleted: (r) => { if (r.id === undefined && r.name === undefined) return; this.open.delete(keyOf(r)); this.registry?.done(r); },
    warmed: () => { if (!this.pool) this.made.warmEndpoints += 1; },
  };

  attach(api: ApiClient): void { api.observers.push((e) => watch(e, this.sink)); }
}

/** The plan's kind of a created resource. */
export function countKindOf(r: Pick<Resource, 'kind' | 'shape'>): CountKind {
  switch (r.kind) {
    case 'pod': return r.shape?.cpu && !r.shape.gpu ? 'cpuPods' : 'gpuPods';
    case 'networkVolume': return 'networkVolumes';
    case 'endpoint': return 'endpoints';
    case 'template': return 'templates';
    case 'secret': return 'secrets';
  }
}

const gqlString = (s: string) => JSON.stringify(s);

/** Deletes one resource with the client (whose keys name the roles); undefined when gone, else why not. */
export async function deleteResource(api: ApiClient, r: Resource): Promise<string | undefined> {
  const auth = r.auth;
  try {
    switch (r.kind) {
      case 'pod': {
        const res = await api.op('deletePod', { params: { podId: r.id! }, auth });
        return res.status < 300 || res.status === 404 ? undefined : `deletePod answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
      case 'networkVolume': {
        const res = await api.op('deleteNetworkVolume', { params: { networkVolumeId: r.id! }, auth });
        return res.status < 300 || res.status === 404 ? undefined : `deleteNetworkVolume answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
      case 'endpoint': {
        let res = await api.graphql(`mutation { deleteEndpoint(id: ${gqlString(r.id!)}) }`, undefined, { auth });
        if (!gqlOk(res.status, res.body) && r.name && r.gpuIds && r.templateId) {
          // Deletion needs workersMin and workersMax at 0 (spec): scale down, then delete again.
          await api.graphql(`mutation { saveEndpoint(input: {id: ${gqlString(r.id!)}, name: ${gqlString(r.name)}, gpuIds: ${gqlString(r.gpuIds)}, templateId: ${gqlString(r.templateId)}, workersMin: 0, workersMax: 0}) { id } }`, undefined, { auth });
          res = await api.graphql(`mutation { deleteEndpoint(id: ${gqlString(r.id!)}) }`, undefined, { auth });
        }
        return gqlOk(res.status, res.body) ? undefined : `deleteEndpoint answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
      case 'template': {
        const res = await api.graphql(`mutation { deleteTemplate(templateName: ${gqlString(r.name!)}) }`, undefined, { auth });
        return gqlOk(res.status, res.body) ? undefined : `deleteTemplate answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
      case 'secret': {
        if (!r.id) return 'the creating request did not select the secret\'s id, and secrets are deleted by id';
        const res = await api.graphql(`mutation { secretDelete(id: ${gqlString(r.id)}) }`, undefined, { auth });
        return gqlOk(res.status, res.body) ? undefined : `secretDelete answered ${res.status}: ${res.text.slice(0, 200)}`;
      }
    }
  } catch (e) {
    return (e as Error).message;
  }
}

/** Deleted, or already gone (a "not found" error: another deletion came first). */
const gqlOk = (status: number, body: unknown): boolean => {
  if (status !== 200) return false;
  const errors = ((body ?? {}) as { errors?: { message?: unknown }[] }).errors;
  return !Array.isArray(errors) || errors.length === 0 || errors.every((e) => /not found|no (template|endpoint|secret)\b|does not exist/i.test(String(e?.message)));
};

export interface SweepOptions {
  /** How long to keep retrying templates a recent use still holds (spec: "up to 2 minutes"). */
  retryForMs?: number;
  retryEveryMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  log?: (line: string) => void;
}

/**
 * Deletes every resource; what fails is tried again (templates may be held up to 2 minutes
 * after their last use) until `retryForMs` has passed. Returns what is left, with the reason.
 */
export async function sweep(api: ApiClient, resources: Resource[], options: SweepOptions = {}): Promise<Leftover[]> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // Counted from the end of the first pass: deleting endpoints there is the templates' last use,
  // and under a rate limit the first pass itself can take minutes.
  let deadline = Number.POSITIVE_INFINITY;
  let pending = sortForDeletion(resources);
  for (;;) {
    const left: Leftover[] = [];
    for (const r of pending) {
      const reason = await deleteResource(api, r);
      if (reason !== undefined) left.push({ ...r, reason });
    }
    if (deadline === Number.POSITIVE_INFINITY) deadline = now() + (options.retryForMs ?? 150_000);
    if (left.length === 0 || now() + (options.retryEveryMs ?? 15_000) > deadline) return left;
    options.log?.(`cleanup: ${left.length} resource(s) not deleted yet, trying again in ${Math.round((options.retryEveryMs ?? 15_000) / 1000)} s`);
    await sleep(options.retryEveryMs ?? 15_000);
    pending = left.map(({ reason: _reason, ...r }) => r);
  }
}

/**
 * Pods and network volumes listed on the target with this run's names that the record does
 * not hold: a create whose answer was lost (the connection broke) may still have made one.
 * Listing costs two requests; a list that fails finds nothing.
 */
export async function strays(api: ApiClient, runId: string, registry: Registry): Promise<Resource[]> {
  const prefix = `cpc-${runId}-`;
  const seen = new Set([...registry.knownIds('pod', ''), ...registry.knownIds('networkVolume', '')]);
  const found: Resource[] = [];
  for (const [op, kind, member] of [['listPods', 'pod', 'pods'], ['listNetworkVolumes', 'networkVolume', 'networkVolumes']] as const) {
    const res = await api.op(op).catch(() => undefined);
    if (!res || res.status < 200 || res.status >= 300) continue;
    const body = res.body as Record<string, unknown> | unknown[] | undefined;
    const items = Array.isArray(body) ? body : Array.isArray(body?.[member]) ? body[member] as unknown[] : [];
    for (const item of items as { id?: unknown; name?: unknown }[]) {
      if (typeof item?.id !== 'string' || typeof item.name !== 'string' || !item.name.startsWith(prefix)) continue;
      const r: Resource = { kind, id: item.id, name: item.name, auth: 'main', test: '(found by its name: its creation was not recorded)' };
      if (!seen.has(item.id)) found.push(r);
    }
  }
  return found;
}

/** Where the run writes `leftovers.json`: beside the raw results (`reports/out`). */
export function leftoversPath(projectRoot: string): string {
  const rawDir = runConfig().rawDir;
  return rawDir ? join(dirname(rawDir), 'leftovers.json') : join(projectRoot, 'reports', 'out', 'leftovers.json');
}

export function writeLeftovers(file: string, content: LeftoversFile): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(content, null, 2) + '\n');
}

/** Console lines for what is left (never a key: resources carry ids and names only). */
export function describeLeftovers(leftovers: Leftover[]): string {
  if (leftovers.length === 0) return '';
  return [`cleanup: ${leftovers.length} resource(s) the run created could NOT be deleted; delete them by hand:`,
    ...leftovers.map((l) => `  ${l.kind} ${l.id ?? ''}${l.name ? ` (${l.name})` : ''}: ${l.reason} [created by: ${l.test}]`)].join('\n');
}
