import { test as base } from '../../../support/fixtures.js';
import { conform } from '../../../support/rules.js';
import type { ApiResult, KeyRole } from '../../../../lib/client/api.js';
import type { Endpoint, Template } from '../../../../lib/types.gen.js';
import { graphqlConformance } from '../../../checks/graphql-conformance.js';
import { doc, PROBE_TEMPLATE, type GraphqlOperation } from './documents.js';

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
  gql: [async ({ api, uniqueName }, use) => {
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
    // What the test creates is deleted by the run-wide cleanup (contract/support/cleanup.ts).
    await use(kit);
  }, { box: 'self' }],
});
