/**
 * Reading a client's exchanges for what they create and delete: a successful creation
 * (createPod, createNetworkVolume, POST /v1/endpoints, GraphQL saveEndpoint / saveTemplate
 * without `id`, secretCreate) is reported to a sink, a successful deletion too, whoever sends it.
 */
import { createRequire } from 'node:module';
import type { OperationDefinitionNode } from 'graphql';
import type { Exchange, KeyRole } from '../client/api.js';
import type { Resource, ResourceShape } from '../protocol.js';

const roleOf = (auth: Exchange['auth']): KeyRole | undefined => {
  if (auth === 'main' || auth === 'readonly' || auth === 'other') return auth;
  if (typeof auth === 'object' && 'role' in auth) return auth.role;
  return undefined;
};

/** Where {@link watch} reports what an exchange created or deleted. */
export type Sink = {
  created(r: Omit<Resource, 'test'>): void;
  /**
   * A deletion answered success (or 404) with the key of role `auth`. Only the creator's key
   * deletes: another account's 404 means "not yours", never "gone" (the receiver compares roles).
   */
  deleted(r: Pick<Resource, 'kind' | 'id' | 'name' | 'auth'>): void;
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
    case 'deletePod': if (ok || status === 404) sink.deleted({ kind: 'pod', id: exchange.params?.podId, auth }); return;
    case 'deleteNetworkVolume': if (ok || status === 404) sink.deleted({ kind: 'networkVolume', id: exchange.params?.networkVolumeId, auth }); return;
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
    } else if (field === 'deleteEndpoint' && alias in data && str(args.id) && !hasErrors(res)) sink.deleted({ kind: 'endpoint', id: args.id as string, auth });
    else if (field === 'deleteTemplate' && alias in data && str(args.templateName) && !hasErrors(res)) sink.deleted({ kind: 'template', name: args.templateName as string, auth });
    else if (field === 'secretDelete' && alias in data && str(args.id) && !hasErrors(res)) sink.deleted({ kind: 'secret', id: args.id as string, auth });
  }
}

const hasErrors = (body: Record<string, unknown>): boolean => Array.isArray(body.errors) && body.errors.length > 0;
