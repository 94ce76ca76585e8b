import { test as base } from '../../../support/fixtures.js';
import { conform } from '../../../support/rules.js';
import type { ApiClient, ApiResult, KeyRole } from '../../../../lib/client/api.js';
import type { Resource } from '../../../../lib/cleanup.js';
import type { Endpoint, Template } from '../../../../lib/types.gen.js';
import { graphqlConformance } from '../../../checks/graphql-conformance.js';
import { doc, field, PROBE_TEMPLATE, type GraphqlOperation } from './documents.js';

/** An endpoint as the suite reads it back: `id` is always there once created. */
export type EndpointResult = Endpoint & { id: string };
export type TemplateResult = Template & { id: string; name: string };

/**
 * GraphQL helpers for one test: unique names and operations that must succeed (a refusal fails
 * the test on the rule given). On a real target the run-wide cleanup deletes what the test created.
 */
export interface GqlKit {
  /** A name unique to this run and this test (`cpc-<run>-<test>-<kind><n>`), so nothing clashes across workers or runs. */
  name(kind: string): string;
  /** Sends a document as `{query}` with the role's key (or no key). */
  send(document: string, auth?: KeyRole | 'none'): Promise<ApiResult>;
  /** Runs an operation that must succeed; a failure is a finding of `ruleFor(operation, rule)`. Returns `data.<operation>`. */
  ok<T>(operation: GraphqlOperation, document: string, rule: string, auth?: KeyRole): Promise<{ res: ApiResult; value: T }>;
  /** Saves a serverless template (isServerless true, volumeInGb 0) for endpoints to use; a refusal fails `ruleFor('saveTemplate', rule)`. */
  serverlessTemplate(rule: string, extra?: Record<string, unknown>, auth?: KeyRole): Promise<TemplateResult>;
  /**
   * A serverless template to create endpoints from, for a test that does not test the template
   * itself: the worker's pooled one on a deployment, the test's own in an emulator world
   * (contract/support/pools.ts). The test declares `creates({ pools: ['template'] })`.
   */
  pooledTemplate(rule: string): Promise<TemplateResult>;
  /** Saves an endpoint on the template (gpuIds the first allowed tier unless given); a refusal fails `ruleFor('saveEndpoint', rule)`. */
  endpoint(templateId: string, rule: string, extra?: Record<string, unknown>, auth?: KeyRole): Promise<EndpointResult>;
  /** `myself.endpoints` of the role's account; a refusal fails `ruleFor('myself', rule)`. */
  endpoints(rule: string, auth?: KeyRole): Promise<EndpointResult[]>;
}

/**
 * The rule each operation answers to when a test only uses it to get somewhere (saveTemplate
 * returning the template, deleteTemplate deleting by name, ...): a refusal there blames that
 * rule, and the calling test is blocked by it, never failed on its own rules. The caller's rule
 * is blamed instead when it is itself about the operation (a test of saveEndpoint's gpuIds
 * passes its own rule and fails it when the save is refused).
 */
const OWN_RULES: Record<GraphqlOperation, { rule: string; about: RegExp }> = {
  saveTemplate: { rule: 'GQL.SAVE_TEMPLATE.RESULT', about: /^(GQL\.SAVE_TEMPLATE\.|TEMPLATE\.(?!DELETE\.))/ },
  saveEndpoint: { rule: 'GQL.SAVE_ENDPOINT.CREATE', about: /^(GQL\.SAVE_ENDPOINT\.|SERVICE\.ENDPOINT\.|ENDPOINT\.(?!DELETE\.))/ },
  myself: { rule: 'GQL.MYSELF.ENDPOINTS', about: /^GQL\.MYSELF\./ },
  deleteEndpoint: { rule: 'ENDPOINT.DELETE.ZERO_WORKERS_OK', about: /^(ENDPOINT\.DELETE\.|GQL\.DELETE_ENDPOINT\.)/ },
  deleteTemplate: { rule: 'GQL.DELETE_TEMPLATE.BY_NAME', about: /^(GQL\.DELETE_TEMPLATE\.|TEMPLATE\.DELETE\.|LIMIT\.TEMPLATE\.)/ },
  secretCreate: { rule: 'SECRET.CREATE.INPUT', about: /^(SECRET\.|GQL\.SECRET_CREATE\.)/ },
  secretDelete: { rule: 'GQL.SECRET_DELETE.BY_ID', about: /^GQL\.SECRET_DELETE\./ },
};

export const ruleFor = (operation: GraphqlOperation, callerRule: string): string =>
  (OWN_RULES[operation].about.test(callerRule) ? callerRule : OWN_RULES[operation].rule);

export const test = base.extend<{ gql: GqlKit }>({
  gql: [async ({ api, uniqueName, pools, tracker, target }, use) => {
    const send = (document: string, auth: KeyRole | 'none' = 'main') => api.graphql(document, undefined, { auth });
    const kit: GqlKit = {
      name: uniqueName,
      send,
      async ok<T>(operation: GraphqlOperation, document: string, rule: string, auth: KeyRole = 'main') {
        const res = await send(document, auth);
        const { findings, value } = graphqlConformance<T>(res, operation, ruleFor(operation, rule));
        conform(findings);
        return { res, value: value as T };
      },
      async serverlessTemplate(rule, extra = {}, auth = 'main') {
        const input = { ...PROBE_TEMPLATE, name: kit.name('tpl'), isServerless: true, ...extra };
        const { value } = await kit.ok<TemplateResult>('saveTemplate', doc.saveTemplate(input), rule, auth);
        return value;
      },
      pooledTemplate(rule) {
        return pools.borrow('template', () => kit.serverlessTemplate(rule));
      },
      async endpoint(templateId, rule, extra = {}, auth = 'main') {
        const input = { name: kit.name('ep'), gpuIds: 'AMPERE_16', templateId, workersMin: 0, ...extra };
        const { value } = await kit.ok<EndpointResult>('saveEndpoint', doc.saveEndpoint(input), rule, auth);
        return value;
      },
      async endpoints(rule, auth = 'main') {
        const { value } = await kit.ok<{ endpoints: EndpointResult[] | null } | null>('myself', doc.myself(), rule, auth);
        return value?.endpoints ?? [];
      },
    };
    await use(kit);
    // On a deployment, what the test left is deleted here in a document or two per key, before the
    // run-wide cleanup (lib/cleanup.ts) would delete it one request at a time; that
    // cleanup still deletes whatever this did not. An emulator world is dropped whole.
    if (!target.control && tracker.registry) await tidy(api, [...tracker.open.values()]);
  }, { box: 'self' }],
});

/**
 * Deletes GraphQL resources in as few requests as GraphQL allows: per key, one mutation with
 * each endpoint scaled to 0 workers then deleted (spec: "An endpoint can be deleted only when
 * `workersMin` and `workersMax` are both 0") and each secret deleted, and one more with the
 * templates, which "can take up to 2 minutes after the template's most recent use" to become
 * deletable: a refusal there must not mark the other deletions failed (the tracker reads a
 * document with errors as deleting nothing). Best effort: what is left, the cleanup deletes.
 */
async function tidy(api: ApiClient, open: readonly Resource[]): Promise<void> {
  for (const auth of new Set(open.map((r) => r.auth))) {
    const mine = open.filter((r) => r.auth === auth);
    const first: [string, string][] = [];
    mine.forEach((r, i) => {
      if (r.kind === 'endpoint' && r.id) {
        if (r.name && r.gpuIds && r.templateId) first.push([`scale${i}`, field.saveEndpoint({ id: r.id, name: r.name, gpuIds: r.gpuIds, templateId: r.templateId, workersMin: 0, workersMax: 0 }, 'id')]);
        first.push([`endpoint${i}`, field.deleteEndpoint(r.id)]);
      } else if (r.kind === 'secret' && r.id) first.push([`secret${i}`, field.secretDelete(r.id)]);
    });
    // A template an endpoint of the test used is not deletable yet ("up to 2 minutes after the
    // template's most recent use"): the run's teardown waits that out, so it is not asked here.
    const used = new Set(open.flatMap((r) => (r.kind === 'endpoint' && r.templateId ? [r.templateId] : [])));
    const templates = mine.flatMap((r, i): [string, string][] => (r.kind === 'template' && r.name && !(r.id && used.has(r.id)) ? [[`template${i}`, field.deleteTemplate(r.name)]] : []));
    for (const fields of [first, templates]) {
      if (fields.length > 0) await api.graphql(doc.mutation(fields), undefined, { auth }).catch(() => undefined);
    }
  }
}
