/**
 * `cpc preflight`: what a run against the configured target will do, found without creating
 * anything. It checks that each surface answers, that each key authenticates (the read-only
 * key is refused a write, the other key belongs to another account), that the endpoint and
 * template ids exist, reads the catalog, and then says which rules will run, which will be
 * skipped and why (by capability), and what the run will create.
 *
 * Every request is a read, except one: a `createPod` with an empty body (`{}`, no `image`)
 * sent with the read-only key. The spec's 403 ("Token valid but does not grant access to the
 * resource or action") answers it; a target that validates first answers 400, and an empty
 * body creates nothing either way.
 */
import { ApiClient, type ApiResult, type KeyRole } from '../lib/client/api.js';
import { undiciTransport } from '../lib/client/transport.js';
import { ENV_VARS } from '../lib/config.js';
import type { TargetProfile } from '../lib/profile.js';
import type { RunConfig } from '../lib/protocol.js';
import { ANNOTATION, type Provision } from '../lib/protocol.js';
import { redactText } from '../lib/redact.js';
import { ConfigError } from '../lib/errors.js';
import type { CpuFlavor, DataCenter } from '../lib/types.gen.js';
import { gpuCandidates, listOf, picks, vcpuCounts, type GpuEntry, type PodCatalog } from '../lib/pod-catalog.js';
import { hourlyPrice, needMet, planCounts, podCostUsd, zeroCounts, type Counts, type Creates, type PoolName, type PriceTable } from '../lib/plan.js';
import { forecastHas, forecastRules, provisionCreates, provisionFor, type RuleForecast } from './provision/forecast.js';

export type CheckStatus = 'ok' | 'warn' | 'missing' | 'fail';

/** One finding; `fail` and a required `missing` make the target not ready (exit 2). */
export interface PreflightCheck {
  name: string;
  status: CheckStatus;
  detail: string;
  /** The variable to set or fix. */
  setting?: string;
  required: boolean;
}

/** What the target offers the suite, from the checks. */
export interface Capabilities {
  control: boolean;
  readonlyKey: boolean;
  otherKey: boolean;
  endpointId: boolean;
  templateId: boolean;
  modelEndpointId: boolean;
}

/** One test as `playwright test --list` shows it, with its declaration (what it creates and needs). */
export interface ListedTest { project: string; file: string; title: string; rules: string[]; creates: Creates }

export type RulePlan = RuleForecast;

export interface CreationPlan {
  /** What the run will create, from the tests' declarations (lib/plan.ts), pools counted once per worker on a deployment. */
  counts: Counts;
  /** At most, with what tests may create besides (a target that accepts what it may refuse). */
  upTo: Counts;
  /** The pooled resources the run will make. */
  pools: PoolName[];
  /** Requests the run is expected to send (contract/request-estimates.json per test, measured on a deployment-like run). */
  requests: number;
  /** USD: every pod priced for the profile's readiness timeout; absent when the catalog gives no price for a pod the run makes. */
  estimatedCostUsd?: number;
  /** Catalog prices, for the run's cost budget and report. */
  prices?: PriceTable;
  gpuType?: string;
  cpuFlavor?: string;
  /** What the run provisions from its worker image (run/provision/). */
  provision?: Provision;
  /** The vCPU count CPU pods are made with (the flavor's smallest). */
  cpuVcpus?: number;
  dataCenter?: string;
  image: string;
  /** The catalog as read, for the run to reuse (read once per run). */
  catalog?: PodCatalog;
}

/** Requests per test, measured on a deployment-like run (contract/request-estimates.json): key `file › title`. */
export interface RequestEstimates { perTest: Record<string, number>; default: number }

const testKeyOf = (t: Pick<ListedTest, 'file' | 'title'>): string => `${t.file} › ${t.title}`;

function estimateRequests(tests: readonly ListedTest[], estimates: RequestEstimates | undefined): number {
  if (!estimates) return 0;
  return tests.reduce((n, t) => n + (estimates.perTest[testKeyOf(t)] ?? estimates.default), 0);
}

/** The catalog's prices: a GPU type's `price` ({secure, community} or a number), a CPU flavor's `securePerVcpu` (or a number). */
export function pricesOf(catalog: PodCatalog): PriceTable {
  const table: PriceTable = { gpu: {}, cpu: {} };
  for (const g of catalog.gpus) {
    const p = (g as { price?: unknown }).price;
    if (typeof p === 'number') table.gpu[g.id] = { secure: p, community: p };
    else if (p && typeof p === 'object') {
      const { secure, community } = p as { secure?: unknown; community?: unknown };
      table.gpu[g.id] = { ...(typeof secure === 'number' ? { secure } : {}), ...(typeof community === 'number' ? { community } : {}) };
    }
  }
  for (const c of catalog.cpus) {
    const p = (c as { price?: unknown }).price;
    if (typeof p === 'number') table.cpu[c.id] = p;
    else if (p && typeof p === 'object' && typeof (p as { securePerVcpu?: unknown }).securePerVcpu === 'number') table.cpu[c.id] = (p as { securePerVcpu: number }).securePerVcpu;
  }
  return table;
}

/** Every planned pod priced for the readiness timeout (a bound); undefined when one is not priced. */
function estimateCost(plan: CreationPlan, profile: TargetProfile): number | undefined {
  const gpu = plan.gpuType ? hourlyPrice(plan.prices, { gpu: { id: plan.gpuType } }) : undefined;
  const cpu = plan.cpuFlavor ? hourlyPrice(plan.prices, { cpu: { id: plan.cpuFlavor, ...(plan.cpuVcpus ? { vcpuCount: plan.cpuVcpus } : {}) } }) : undefined;
  if ((plan.counts.gpuPods > 0 && gpu === undefined) || (plan.counts.cpuPods > 0 && cpu === undefined)) return undefined;
  return podCostUsd((gpu ?? 0) * plan.counts.gpuPods + (cpu ?? 0) * plan.counts.cpuPods, profile.readyTimeoutMs);
}

export interface PreflightResult {
  ready: boolean;
  checks: PreflightCheck[];
  capabilities: Capabilities;
  plan?: RulePlan;
  creates?: CreationPlan;
}

const TIMEOUT_MS = 10_000;

const errorText = (e: unknown): string => {
  const err = e as Error & { cause?: { code?: string; message?: string }; code?: string };
  return err.cause?.code ?? err.code ?? err.cause?.message ?? err.message;
};

/**
 * Runs the checks against the remote target of a run configuration (lib/run-config.ts: its
 * target, profile and ids). `listTests` gives the suite's tests (the CLI's `playwright test
 * --list`); without it the rule plan is left out.
 */
export async function preflight(run: Pick<RunConfig, 'target' | 'profile' | 'templateId' | 'modelEndpointId'> & Partial<Pick<RunConfig, 'workers' | 'allowWarmWorkers' | 'allowPropertyLoad' | 'allowRateLimitExhaustion' | 'allowLongWaits' | 'chaos'>>, options: { listTests?: () => Promise<ListedTest[]>; requestEstimates?: RequestEstimates } = {}): Promise<PreflightResult> {
  const config = run.target;
  if (config.kind !== 'remote') throw new ConfigError('preflight runs against a configured target (CPC_BASE_URL), resolved once (run/target.ts)', 'CPC_BASE_URL');
  const profile: TargetProfile = run.profile;
  const transport = undiciTransport({ connections: 4 });
  const api = new ApiClient({ baseUrl: config.baseUrl, serverlessUrl: config.serverlessUrl, restV1Url: config.restV1Url },
    { main: config.apiKey, readonly: config.apiKeyReadonly, other: config.apiKeyOther }, transport);
  const checks: PreflightCheck[] = [];
  const add = (c: PreflightCheck) => checks.push(c);
  const { templateId, modelEndpointId: modelId } = run;
  const capabilities: Capabilities = { control: false, readonlyKey: false, otherKey: false, endpointId: false, templateId: false, modelEndpointId: modelId !== undefined };
  let creates: CreationPlan | undefined;
  try {
    /** An HTTP answer, or undefined with a `fail` check when the surface does not answer. */
    const reach = async <T>(surface: string, url: string, send: () => Promise<ApiResult<T>>): Promise<ApiResult<T> | undefined> => {
      try {
        return await send();
      } catch (e) {
        add({ name: `${surface} answers`, status: 'fail', required: true, detail: `no answer from ${url}: ${errorText(e)}` });
        return undefined;
      }
    };
    const authCheck = (surface: string, res: ApiResult, role: KeyRole, variable: string): boolean => {
      if (res.status === 401 || res.status === 403) {
        add({ name: `${variable} authenticates on ${surface}`, status: 'fail', required: true, setting: variable, detail: `${res.operation} answered ${res.status}: the key was refused` });
        return false;
      }
      const ok = res.status >= 200 && res.status < 300;
      add({ name: `${variable} authenticates on ${surface}`, status: ok ? 'ok' : 'warn', required: role === 'main', setting: variable, detail: `${res.operation} answered ${res.status}` });
      return ok;
    };

    // Decided once, when the target was resolved (run/target.ts): not asked again here.
    capabilities.control = config.control;
    add({ name: 'emulator control surface', status: capabilities.control ? 'ok' : 'warn', required: false,
      detail: capabilities.control ? `${config.baseUrl}/__emulator answers: tests that move the clock, set quotas or switch faults run` : 'absent (a real deployment): tests that need it are skipped' });

    // Against an emulator every test gets a world of its own, with its keys, endpoint and template.
    const worldKeys = "not set: each test's emulator world has its own";
    if (config.apiKey === undefined) {
      add(capabilities.control
        ? { name: 'main key', status: 'ok', required: false, setting: ENV_VARS.apiKey, detail: worldKeys }
        : { name: 'main key', status: 'missing', required: true, setting: ENV_VARS.apiKey, detail: `set ${ENV_VARS.apiKey}: every surface needs it` });
    }
    // REST v2, with each key.
    let mainOk = config.apiKey === undefined;
    const pods = config.apiKey === undefined
      ? await reach('REST v2', config.baseUrl, () => api.op('listPods', { auth: 'none', timeoutMs: TIMEOUT_MS }))
      : await reach('REST v2', config.baseUrl, () => api.op('listPods', { timeoutMs: TIMEOUT_MS }));
    if (pods) {
      add({ name: 'REST v2 answers', status: 'ok', required: true, detail: `${config.baseUrl}/v2/pods answered ${pods.status}` });
      if (config.apiKey !== undefined) mainOk = authCheck('REST v2', pods, 'main', ENV_VARS.apiKey);
      for (const [key, variable] of [[config.apiKeyReadonly, ENV_VARS.apiKeyReadonly], [config.apiKeyOther, ENV_VARS.apiKeyOther]] as const) {
        if (key !== undefined && key === config.apiKey) add({ name: `${variable} is not the main key`, status: 'fail', required: true, setting: variable, detail: `it is the same key as ${ENV_VARS.apiKey}` });
      }
      if (config.apiKeyReadonly === undefined) {
        capabilities.readonlyKey = capabilities.control;
        add({ name: 'read-only key', status: capabilities.control ? 'ok' : 'missing', required: false, setting: ENV_VARS.apiKeyReadonly, detail: capabilities.control ? worldKeys : 'not set: tests of permission refusals are skipped' });
      } else {
        const read = await api.op('listPods', { auth: 'readonly', timeoutMs: TIMEOUT_MS });
        if (authCheck('REST v2', read, 'readonly', ENV_VARS.apiKeyReadonly) || read.status < 400) {
          const write = await api.op('createPod', { auth: 'readonly', body: {}, timeoutMs: TIMEOUT_MS });
          if (write.status === 403) {
            capabilities.readonlyKey = true;
            add({ name: `${ENV_VARS.apiKeyReadonly} is refused writes`, status: 'ok', required: true, setting: ENV_VARS.apiKeyReadonly, detail: 'createPod with an empty body answered 403' });
          } else if (write.status >= 200 && write.status < 300) {
            add({ name: `${ENV_VARS.apiKeyReadonly} is refused writes`, status: 'fail', required: true, setting: ENV_VARS.apiKeyReadonly, detail: `createPod with an empty body answered ${write.status}: the key can write` });
          } else {
            capabilities.readonlyKey = true;
            add({ name: `${ENV_VARS.apiKeyReadonly} is refused writes`, status: 'warn', required: false, setting: ENV_VARS.apiKeyReadonly,
              detail: `createPod with an empty body answered ${write.status}, not 403: the target validated the body first, so the refusal is not confirmed` });
          }
        }
      }
      if (config.apiKeyOther === undefined) {
        capabilities.otherKey = capabilities.control;
        add({ name: "another account's key", status: capabilities.control ? 'ok' : 'missing', required: false, setting: ENV_VARS.apiKeyOther, detail: capabilities.control ? worldKeys : 'not set: tests of isolation between accounts are skipped' });
      } else {
        const read = await api.op('listPods', { auth: 'other', timeoutMs: TIMEOUT_MS });
        capabilities.otherKey = authCheck('REST v2', read, 'other', ENV_VARS.apiKeyOther);
      }
    }

    if (pods && config.apiKeyExpired !== undefined) {
      // An expired key is refused like any invalid one: anything else, and the expired-key checks would judge a live key.
      const expired = await api.op('listPods', { auth: { key: config.apiKeyExpired }, timeoutMs: TIMEOUT_MS });
      add({ name: `${ENV_VARS.apiKeyExpired} is refused`, status: expired.status === 401 ? 'ok' : 'fail', required: expired.status !== 401, setting: ENV_VARS.apiKeyExpired, detail: `listPods with it answered ${expired.status}` });
    }

    // GraphQL: answers, and tells the accounts apart.
    const who = async (role: KeyRole | 'none') => api.graphql<{ data?: { myself?: { id?: string } } }>('query { myself { id } }', undefined, { auth: role, timeoutMs: TIMEOUT_MS });
    const gql = !pods ? undefined : await reach('GraphQL', `${config.baseUrl}/graphql`, () => who(config.apiKey === undefined ? 'none' : 'main'));
    if (gql) {
      const mine = gql.body?.data?.myself?.id;
      add({ name: 'GraphQL answers', status: 'ok', required: true, detail: `myself answered ${gql.status}${mine ? '' : ' without an account id'}` });
      if (capabilities.otherKey && mine) {
        const theirs = (await who('other')).body?.data?.myself?.id;
        if (theirs === mine) {
          capabilities.otherKey = false;
          add({ name: `${ENV_VARS.apiKeyOther} is another account`, status: 'fail', required: true, setting: ENV_VARS.apiKeyOther, detail: 'myself names the same account for both keys' });
        } else {
          add({ name: `${ENV_VARS.apiKeyOther} is another account`, status: theirs ? 'ok' : 'warn', required: false, setting: ENV_VARS.apiKeyOther, detail: theirs ? 'myself names two accounts' : 'myself gave no account id for it' });
        }
      }
    }

    // Serverless: the endpoint when one is named, else any answer of the surface.
    // A base URL that did not answer is not asked again on the other surfaces it serves (each would wait its time limit).
    const down = (url: string) => !pods && url === config.baseUrl;
    if (down(config.serverlessUrl)) {
      // (reported once, by REST v2)
    } else if (config.endpointId !== undefined && config.apiKey !== undefined) {
      const endpointId = config.endpointId;
      const health = await reach('serverless', config.serverlessUrl, () => api.op('getHealth', { params: { endpointId }, timeoutMs: TIMEOUT_MS }));
      if (health) {
        add({ name: 'serverless answers', status: 'ok', required: true, detail: `/v2/{endpoint}/health answered ${health.status}` });
        if (health.status === 404) add({ name: `${ENV_VARS.endpointId} exists`, status: 'fail', required: true, setting: ENV_VARS.endpointId, detail: '/health of the endpoint answered 404' });
        else if (authCheck('serverless', health, 'main', ENV_VARS.apiKey)) capabilities.endpointId = true;
      }
    } else {
      const any = await reach('serverless', config.serverlessUrl, () => api.call('serverless', 'GET', '/v2/cpc-preflight-no-such-endpoint/health', { auth: 'none', timeoutMs: TIMEOUT_MS }));
      if (any) add({ name: 'serverless answers', status: 'ok', required: true, detail: `an unknown endpoint's /health answered ${any.status}` });
      add({ name: 'endpoint id', status: capabilities.control ? 'ok' : 'missing', required: false, setting: ENV_VARS.endpointId, detail: capabilities.control ? "not set: each test's emulator world has its own" : 'not set: serverless job tests are skipped' });
    }

    // REST v1: any answer (its one operation creates, so it is not called).
    const v1 = down(config.restV1Url) ? undefined : await reach('REST v1', config.restV1Url, () => api.call('rest-v1', 'GET', '/v1/endpoints', { auth: 'none', timeoutMs: TIMEOUT_MS }));
    if (v1) add({ name: 'REST v1 answers', status: v1.status >= 500 ? 'warn' : 'ok', required: true, detail: `GET /v1/endpoints answered ${v1.status}` });

    if (templateId === undefined) {
      add({ name: 'template id', status: capabilities.control ? 'ok' : 'missing', required: false, setting: 'CPC_TEMPLATE_ID', detail: capabilities.control ? "the emulator's seeded template is used" : 'not set: REST v1 endpoint creation tests are skipped' });
      capabilities.templateId = capabilities.control;
    } else {
      // The spec shows no read of a template (only saveTemplate/deleteTemplate, which change it): an endpoint of the account that uses it proves it exists.
      capabilities.templateId = true;
      const res = config.apiKey !== undefined && gql
        ? await api.graphql<{ data?: { myself?: { endpoints?: { templateId?: string }[] } } }>('query { myself { endpoints { templateId } } }', undefined, { timeoutMs: TIMEOUT_MS })
        : undefined;
      const used = res?.body?.data?.myself?.endpoints?.some((e) => e?.templateId === templateId) === true;
      add({ name: 'CPC_TEMPLATE_ID exists', status: used ? 'ok' : 'warn', required: false, setting: 'CPC_TEMPLATE_ID',
        detail: used ? 'an endpoint of the account uses it' : 'not confirmed: no endpoint of the account uses it, and the spec shows no read of a template' });
    }
    if (config.endpointId === undefined && capabilities.control) capabilities.endpointId = true;
    if (modelId === undefined && capabilities.control) capabilities.modelEndpointId = true;

    // The catalog: what pods would be made of.
    if (config.apiKey !== undefined && pods && mainOk) creates = await readCatalog(api, profile, add);
    else if (capabilities.control) creates = { counts: zeroCounts(), upTo: zeroCounts(), pools: [], requests: 0, image: profile.podImage };
  } finally {
    await transport.close();
  }

  let plan: RulePlan | undefined;
  if (options.listTests) {
    const tests = await options.listTests();
    // What each test declares it needs decides whether it runs here (lib/needs.ts), as the fixtures decide it.
    const has = forecastHas(capabilities, run);
    plan = forecastRules(tests, has);
    if (creates) {
      const running = tests.filter((t) => needMet(t.creates.needs, has));
      const provision = provisionFor(running, capabilities, run);
      const planned = planCounts([...running.map((t) => t.creates), provisionCreates(provision)], { pooled: !capabilities.control, workers: run.workers ?? (capabilities.control ? 2 : 1) });
      creates.counts = planned.counts;
      creates.upTo = planned.upTo;
      creates.pools = planned.pools;
      if (provision.endpoint || provision.hold || provision.template) creates.provision = provision;
      // The tests' own requests, and the teardown's: a deletion per pooled or provisioned resource and the two listings of strays.
      const provisioned = provisionCreates(provision);
      creates.requests = estimateRequests(running, options.requestEstimates) + (capabilities.control ? 0 : planned.pools.length + 2) + 2 * ((provisioned.templates ?? 0) + (provisioned.endpoints ?? 0));
      const cost = estimateCost(creates, profile);
      if (cost !== undefined) creates.estimatedCostUsd = cost;
    }
  }
  const ready = !checks.some((c) => c.status === 'fail' || (c.status === 'missing' && c.required));
  return { ready, checks, capabilities, ...(plan ? { plan } : {}), ...(creates ? { creates } : {}) };
}

async function readCatalog(api: ApiClient, profile: TargetProfile, add: (c: PreflightCheck) => void): Promise<CreationPlan> {
  const list = async <T extends { id: string }>(op: 'listGpuTypes' | 'listCpuFlavors' | 'listDataCenters') => {
    const res = await api.op<unknown>(op, { timeoutMs: TIMEOUT_MS });
    const items = res.status === 200 ? listOf<T>(res.body) : [];
    add({ name: `catalog: ${op}`, status: res.status === 200 ? 'ok' : 'warn', required: false, detail: `${res.status}, ${items.length} entr${items.length === 1 ? 'y' : 'ies'}` });
    return items;
  };
  const catalog: PodCatalog = { gpus: await list<GpuEntry>('listGpuTypes'), cpus: await list<CpuFlavor>('listCpuFlavors'), dataCenters: await list<DataCenter>('listDataCenters') };
  const ids = (items: { id: string }[]) => items.map((i) => String(i.id));
  const pick = (what: string, setting: string, wanted: string | undefined, items: { id: string }[], fallback: () => string | undefined) => {
    if (wanted !== undefined) {
      const known = ids(items).includes(wanted);
      add({ name: `profile ${what} in the catalog`, status: known ? 'ok' : 'fail', required: true, setting, detail: known ? wanted : `${wanted} is not listed (listed: ${ids(items).slice(0, 12).join(', ')})` });
      return wanted;
    }
    return fallback();
  };
  // What the pod tests choose without a profile (contract/specs/pods/support): an NVIDIA type, a flavor with a vCPU count the schema allows.
  const chosen = picks(catalog);
  // The order a valid GPU create tries types in (capacity), as the pod tests use it.
  const candidates = gpuCandidates(catalog, profile).list.map((g) => g.id);
  if (profile.gpuTypes) {
    const unknown = profile.gpuTypes.filter((id) => !ids(catalog.gpus).includes(id));
    add({ name: 'profile GPU types in the catalog', status: candidates.length === 0 ? 'fail' : unknown.length ? 'warn' : 'ok', required: true, setting: 'CPC_GPU_TYPES',
      detail: unknown.length ? `not listed, never tried: ${unknown.join(', ')}` : candidates.join(', ') });
  }
  const gpuType = pick('GPU type', 'CPC_GPU_TYPE', profile.gpuType, catalog.gpus, () => candidates[0]);
  const cpuFlavor = pick('CPU flavor', 'CPC_CPU_FLAVOR', profile.cpuFlavor, catalog.cpus, () => chosen.cpu?.id);
  const dataCenter = profile.dataCenter === undefined ? undefined : pick('data center', 'CPC_DATA_CENTER', profile.dataCenter, catalog.dataCenters, () => undefined);
  const cpuCount = cpuFlavor ? vcpuCounts(catalog.cpus.find((f) => f.id === cpuFlavor) ?? ({} as CpuFlavor))[0] : undefined;
  return { counts: zeroCounts(), upTo: zeroCounts(), pools: [], requests: 0, prices: pricesOf(catalog), ...(gpuType ? { gpuType } : {}), ...(cpuFlavor ? { cpuFlavor } : {}), ...(cpuCount ? { cpuVcpus: cpuCount } : {}), ...(dataCenter ? { dataCenter } : {}), image: profile.podImage, catalog };
}

/** Playwright's `--list --reporter=json` output as tests with their rules and declarations. */
export function listedTests(json: unknown): ListedTest[] {
  interface Spec { title: string; file: string; line: number; tags?: string[]; tests?: { projectName?: string; annotations?: { type: string; description?: string }[] }[] }
  interface Suite { specs?: Spec[]; suites?: Suite[] }
  const specs: Spec[] = [];
  const walk = (s: Suite) => { specs.push(...(s.specs ?? [])); for (const c of s.suites ?? []) walk(c); };
  for (const s of (json as { suites?: Suite[] }).suites ?? []) walk(s);
  return specs.flatMap((s) => (s.tests ?? [{}]).map((t) => ({
    project: t.projectName ?? '', file: s.file, title: s.title,
    rules: [...new Set([...(s.tags ?? []).map((tag) => tag.replace(/^@/, '')), ...(t.annotations ?? []).filter((a) => a.type === ANNOTATION.rule).map((a) => a.description ?? '')])].filter(Boolean),
    creates: declared(t.annotations ?? []),
  })));
}

const declared = (annotations: readonly { type: string; description?: string }[]): Creates => {
  const a = annotations.find((x) => x.type === ANNOTATION.creates);
  return a?.description ? JSON.parse(a.description) as Creates : {};
};

/** What keeps the target from being ready: the variables (or checks) at fault, each once. */
export const blockers = (r: PreflightResult): string[] =>
  [...new Set(r.checks.filter((c) => c.status === 'fail' || (c.status === 'missing' && c.required)).map((c) => c.setting ?? c.name))];

/** The plain-text report of a preflight: checks, rules, creations. */
export function preflightText(r: PreflightResult): string {
  const mark: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', missing: 'miss', fail: 'FAIL' };
  const out = ['Preflight checks:'];
  for (const c of r.checks) out.push(`  ${mark[c.status]} ${c.name}: ${c.detail}${c.required && c.status !== 'ok' ? ' (required)' : ''}`);
  if (r.plan) {
    out.push('', `Rules: ${r.plan.runs.length} will run, ${r.plan.skipped.length} will be skipped (from the tests' declared needs; a test may still skip on what the target answers).`);
    const byReason = new Map<string, string[]>();
    for (const s of r.plan.skipped) for (const reason of s.reasons) byReason.set(reason, [...(byReason.get(reason) ?? []), s.rule]);
    for (const [reason, rules] of byReason) out.push(`  skipped, ${reason}: ${rules.length} rule(s): ${rules.slice(0, 8).join(', ')}${rules.length > 8 ? ', …' : ''}`);
  }
  if (r.creates) {
    const c = r.creates;
    const n = c.counts;
    const none = r.capabilities.control && !c.catalog ? "(from each test's emulator world)" : '(none in the catalog)';
    out.push('', `The run will create (from the tests' declarations; every creation is deleted before the run ends${c.pools.length ? `; pooled: ${c.pools.join(', ')}` : ''}):`);
    const upTo = (k: keyof Counts) => (c.upTo[k] > n[k] ? ` (up to ${c.upTo[k]} if the target accepts what it may refuse)` : '');
    out.push(`  GPU pods: ${n.gpuPods}${upTo('gpuPods')} of GPU type ${c.gpuType ?? none} (further candidates if it has no capacity), image ${c.image}${c.dataCenter ? `, data center ${c.dataCenter}` : ''}`);
    out.push(`  CPU pods: ${n.cpuPods}${upTo('cpuPods')} of CPU flavor ${c.cpuFlavor ?? none}${c.cpuVcpus ? `, ${c.cpuVcpus} vCPU` : ''}`);
    out.push(`  network volumes: ${n.networkVolumes}${upTo('networkVolumes')}; endpoints: ${n.endpoints}${upTo('endpoints')} (${n.warmEndpoints} with workersMin > 0); templates: ${n.templates}${upTo('templates')}; secrets: ${n.secrets}${upTo('secrets')}`);
    if (c.provision) out.push(`  provisioned from the worker image (deleted when the run ends): a serverless template${c.provision.endpoint ? ', a queue-based endpoint on it (workersMin 0, workersMax 3) for the job tests' : ''}${c.provision.hold ? ', an endpoint with workersMax 1 that holds jobs in its queue' : ''}${c.provision.template ? '; the template also serves the REST v1 creation checks' : ''}`);
    out.push(`  requests: about ${c.requests}`);
    out.push(`  estimated cost: ${c.estimatedCostUsd !== undefined ? `USD ${c.estimatedCostUsd.toFixed(2)} at most (every pod priced for the readiness timeout)` : 'unknown (the catalog gives no price for the pods the run makes)'}`);
  }
  out.push('', r.ready ? 'Ready.' : `Not ready: ${blockers(r).join(', ')}`);
  return redactText(out.join('\n'));
}
