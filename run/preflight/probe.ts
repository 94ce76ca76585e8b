/**
 * The target checks of a preflight: that each surface answers, that each key authenticates (the
 * read-only key is refused a write, the other key belongs to another account), that the endpoint
 * and template ids exist, and the catalog. A surface answers when it gives the status class,
 * content type and body shape the spec gives the call (run/preflight/answers.ts): a 404 on the
 * spec's path or an HTML page is not an answer, and a required surface without one is not ready.
 * Every request is a read, except two that create nothing: a `createPod` with an empty body
 * (`{}`, no `image`) sent with the read-only key (the spec's 403, "Token valid but does not grant
 * access to the resource or action", answers it; a target that validates first answers 400), and
 * REST v1's one operation, `POST /v1/endpoints`, with an empty body and no key (401).
 */
import { ApiClient, type ApiResult, type KeyRole } from '../../lib/client/api.js';
import { undiciTransport } from '../../lib/client/transport.js';
import { clientSettingsOf, ENV_VARS, type Target } from '../../lib/config.js';
import type { TargetProfile } from '../../lib/profile.js';
import { zeroCounts } from '../../lib/plan.js';
import { endpointTier } from '../provision/worker-time.js';
import { readCatalog, TIMEOUT_MS } from './catalog.js';
import type { Capabilities, CreationPlan, PreflightCheck } from './types.js';
import { answered, GRAPHQL_MYSELF, notTheAnswer, REST_V1_REFUSED, REST_V2_LIST, SERVERLESS_HEALTH, SERVERLESS_UNKNOWN, type SpecAnswer } from './answers.js';

const errorText = (e: unknown): string => {
  const err = e as Error & { cause?: { code?: string; message?: string }; code?: string };
  return err.cause?.code ?? err.code ?? err.cause?.message ?? err.message;
};

/** What the checks found: the findings, the capabilities, and the catalog's part of the creation plan. */
export interface Probed {
  checks: PreflightCheck[];
  capabilities: Capabilities;
  creates?: CreationPlan;
  /** Whether any surface gave an HTTP answer at all (of whatever status): without one, what the target can do is unknown. */
  answered: boolean;
}

/** Checks a deployment (resolved once, run/target.ts) with the run's profile and ids. */
export async function probeTarget(config: Target & { kind: 'remote' }, profile: TargetProfile, ids: { templateId?: string | undefined; modelEndpointId?: string | undefined }): Promise<Probed> {
  const transport = undiciTransport({ connections: 4 });
  const { urls, keys } = clientSettingsOf(config);
  const api = new ApiClient(urls, keys, transport);
  const checks: PreflightCheck[] = [];
  const add = (c: PreflightCheck) => checks.push(c);
  const { templateId, modelEndpointId: modelId } = ids;
  const capabilities: Capabilities = { control: false, readonlyKey: false, otherKey: false, endpointId: false, templateId: false, modelEndpointId: modelId !== undefined };
  let creates: CreationPlan | undefined;
  let answeredAny = false;
  try {
    /** An HTTP answer, or undefined with a `fail` check when the surface does not answer. */
    const reach = async <T>(surface: string, url: string, send: () => Promise<ApiResult<T>>): Promise<ApiResult<T> | undefined> => {
      try {
        const res = await send();
        answeredAny = true;
        return res;
      } catch (e) {
        add({ name: `${surface} answers`, status: 'fail', required: true, detail: `no answer from ${url}: ${errorText(e)}` });
        return undefined;
      }
    };
    /** The answer when it is the spec's, else undefined with a required `fail` check naming it. */
    const judged = <T>(name: string, res: ApiResult<T> | undefined, spec: SpecAnswer): ApiResult<T> | undefined => {
      if (!res) return undefined;
      const why = notTheAnswer(res, spec);
      if (why === undefined) return res;
      add({ name, status: 'fail', required: true, detail: why });
      return undefined;
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
    const reached = pods !== undefined;
    if (judged('REST v2 answers', pods, REST_V2_LIST)) {
      add({ name: 'REST v2 answers', status: 'ok', required: true, detail: `${config.baseUrl}/v2/pods answered ${answered(pods!)}` });
      if (config.apiKey !== undefined) mainOk = authCheck('REST v2', pods!, 'main', ENV_VARS.apiKey);
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
      if (config.apiKeyExpired !== undefined) {
        // An expired key is refused like any invalid one: anything else, and the expired-key checks would judge a live key.
        const expired = await api.op('listPods', { auth: { key: config.apiKeyExpired }, timeoutMs: TIMEOUT_MS });
        add({ name: `${ENV_VARS.apiKeyExpired} is refused`, status: expired.status === 401 ? 'ok' : 'fail', required: expired.status !== 401, setting: ENV_VARS.apiKeyExpired, detail: `listPods with it answered ${expired.status}` });
      }
    }

    // GraphQL: answers, and tells the accounts apart.
    const who = async (role: KeyRole | 'none') => api.graphql<{ data?: { myself?: { id?: string } } }>('query { myself { id } }', undefined, { auth: role, timeoutMs: TIMEOUT_MS });
    const gql = judged('GraphQL answers', !reached ? undefined : await reach('GraphQL', `${config.baseUrl}/graphql`, () => who(config.apiKey === undefined ? 'none' : 'main')), GRAPHQL_MYSELF);
    if (gql) {
      const mine = gql.body?.data?.myself?.id;
      add({ name: 'GraphQL answers', status: 'ok', required: true, detail: `myself answered ${answered(gql)}${mine ? '' : ' without an account id'}` });
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
    const down = (url: string) => !reached && url === config.baseUrl;
    if (down(config.serverlessUrl)) {
      // (reported once, by REST v2)
    } else if (config.endpointId !== undefined && config.apiKey !== undefined) {
      const endpointId = config.endpointId;
      const health = judged('serverless answers', await reach('serverless', config.serverlessUrl, () => api.op('getHealth', { params: { endpointId }, timeoutMs: TIMEOUT_MS })), SERVERLESS_HEALTH);
      if (health) {
        add({ name: 'serverless answers', status: 'ok', required: true, detail: `/v2/{endpoint}/health answered ${answered(health)}` });
        if (health.status === 404) add({ name: `${ENV_VARS.endpointId} exists`, status: 'fail', required: true, setting: ENV_VARS.endpointId, detail: '/health of the endpoint answered 404' });
        else if (authCheck('serverless', health, 'main', ENV_VARS.apiKey)) {
          capabilities.endpointId = true;
          // Its GPU tier prices the job tests' worker time (lib/worker-time.ts); unknown, that time is unpriced.
          const tier = gql ? await endpointTier(api, endpointId, TIMEOUT_MS) : undefined;
          if (tier) capabilities.endpointTier = tier;
        }
      }
    } else {
      const any = judged('serverless answers', await reach('serverless', config.serverlessUrl, () => api.call('serverless', 'GET', '/v2/cpc-preflight-no-such-endpoint/health', { auth: 'none', timeoutMs: TIMEOUT_MS })), SERVERLESS_UNKNOWN);
      if (any) add({ name: 'serverless answers', status: 'ok', required: true, detail: `an unknown endpoint's /health answered ${answered(any)}` });
      add({ name: 'endpoint id', status: capabilities.control ? 'ok' : 'missing', required: false, setting: ENV_VARS.endpointId, detail: capabilities.control ? "not set: each test's emulator world has its own" : 'not set: serverless job tests are skipped' });
    }

    // REST v1: its one operation, refused for want of a key (an empty body, which creates nothing either way).
    const v1 = down(config.restV1Url) ? undefined
      : judged('REST v1 answers', await reach('REST v1', config.restV1Url, () => api.op('createEndpointV1', { auth: 'none', body: {}, timeoutMs: TIMEOUT_MS })), REST_V1_REFUSED);
    if (v1) add({ name: 'REST v1 answers', status: 'ok', required: true, detail: `POST /v1/endpoints without a key answered ${answered(v1)}` });

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
    if (config.apiKey !== undefined && reached && mainOk) creates = await readCatalog(api, profile, add);
    else if (capabilities.control) creates = { counts: zeroCounts(), upTo: zeroCounts(), pools: [], requests: 0, image: profile.podImage };
  } finally {
    await transport.close();
  }

  return { checks, capabilities, ...(creates ? { creates } : {}), answered: answeredAny };
}
