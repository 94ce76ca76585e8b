import { ruleFor, test } from './support/fixtures.js';
import { conform, creates, must, observe, rules } from '../../support/rules.js';
import { errorSummary, executed, failureSignalled, graphqlConformance, graphqlRefusalConformance } from '../../checks/graphql-conformance.js';
import { doc, field, type GraphqlOperation } from './support/documents.js';
import { fieldsConformance } from './support/fields.js';
import { allowed } from './support/allowed.js';
import type { ApiClient, ApiResult } from '../../../lib/client/api.js';

// Spec, GraphQL: "`POST {base_url}/graphql` with query parameter `api_key=<API_KEY>`, header
// `content-type: application/json`, body `{query: string}` (a GraphQL document). Results are
// returned as `{data: {<operation>: <result>}}`."
test.describe('GraphQL over HTTP', () => {
  test('POST {base_url}/graphql?api_key= with {query} runs the document and answers {data: {myself: ...}}',
    rules('GQL.HTTP.REQUEST', 'AUTH.GRAPHQL.API_KEY', 'HTTP.BASE_URL.GRAPHQL', 'VERSION.GRAPHQL.NO_VERSION', 'GQL.HTTP.RESULT_SHAPE'),
    async ({ gql }) => {
      const res = await gql.send(doc.myself());
      const { findings, value } = graphqlConformance<{ endpoints: unknown }>(res, 'myself', 'GQL.HTTP.REQUEST');
      const served = res.status !== 404 && res.status !== 405 && typeof res.body === 'object' && res.body !== null && ('data' in res.body || 'errors' in res.body);
      conform(
        findings,
        must(res.status !== 401 && res.status !== 403, 'AUTH.GRAPHQL.API_KEY', `a valid api_key was refused with ${res.status}`),
        // The suite sends to {base_url}/graphql, a path without a version: what the target can
        // fail is serving GraphQL there (a GraphQL answer, not a 404 or 405 of an unserved path).
        must(served, 'HTTP.BASE_URL.GRAPHQL', `POST {base_url}/graphql answered ${res.status} without a GraphQL result: ${res.text.slice(0, 160) || '(an empty body)'}`, res),
        must(served, 'VERSION.GRAPHQL.NO_VERSION', `the unversioned path {base_url}/graphql answered ${res.status} without a GraphQL result`),
        must(typeof value === 'object' && value !== null && 'endpoints' in value, 'GQL.HTTP.RESULT_SHAPE', `data.myself lacks the selected endpoints: ${res.text.slice(0, 200)}`),
      );
    });

  // The six mutations go in two documents, each field answered under data.<operation>: what it
  // creates, then (after the query) what deletes it; the endpoint uses the pooled template.
  test('each operation succeeds in its own kind: myself as a query, the six others as mutations, each result under data.<operation>',
    rules('GQL.OPERATION_KINDS', 'GQL.HTTP.RESULT_SHAPE', 'GQL.HTTP.REQUEST', creates({ endpoints: 1, templates: 1, secrets: 1, pools: ['template'] })),
    async ({ gql }) => {
      const rule = 'GQL.OPERATION_KINDS';
      /**
       * Runs operations in the kind their document gives them. A document refused before it ran
       * (no data.<operation>) is refused for its kind; an operation that ran and failed breaks
       * its own rule (saveTemplate returning the template, deleteTemplate by name, ...).
       */
      const inItsKind = async (document: string, operations: readonly GraphqlOperation[]): Promise<Record<string, unknown>> => {
        const res = await gql.send(document);
        const refused = operations.filter((operation) => failureSignalled(res) && !executed(res, operation));
        if (refused.length > 0) {
          conform([{ rule, message: `${refused.join(', ')} → ${res.status}: the document was refused without running the operation: ${errorSummary(res)}` }]);
        }
        const { shape, fields } = fieldsConformance(res, operations.map((operation) => ({ alias: operation, rule: ruleFor(operation, rule) })));
        conform(shape, ...operations.map((operation) => fields[operation]!.findings));
        return Object.fromEntries(operations.map((operation) => [operation, fields[operation]!.value]));
      };
      const pooled = await gql.pooledTemplate(rule);
      const spareName = gql.name('spare');
      const made = await inItsKind(doc.mutation([
        ['saveTemplate', field.saveTemplate({ name: spareName, imageName: 'x/y:1', containerDiskInGb: 5, volumeInGb: 0, isServerless: true }, 'name')],
        ['saveEndpoint', field.saveEndpoint({ name: gql.name('kind'), gpuIds: allowed.gpuIds[0]!, templateId: pooled.id, workersMin: 0, workersMax: 0 }, 'id')],
        ['secretCreate', field.secretCreate({ name: gql.name('sec'), value: 'v-1' }, 'id')],
      ]), ['saveTemplate', 'saveEndpoint', 'secretCreate']);
      await inItsKind(doc.myself('id'), ['myself']);
      const spare = made.saveTemplate as { name: string };
      const endpoint = made.saveEndpoint as { id: string };
      const secret = made.secretCreate as { id: string };
      await inItsKind(doc.mutation([
        ['deleteEndpoint', field.deleteEndpoint(endpoint.id)],
        ['deleteTemplate', field.deleteTemplate(spare.name)],
        ['secretDelete', field.secretDelete(secret.id)],
      ]), ['deleteEndpoint', 'deleteTemplate', 'secretDelete']);
    });

  test('records whether a body with variables ({}, null, or values) besides query is accepted', rules('GQL.HTTP.VARIABLES'), async ({ api }) => {
    const outcome = async (variables: Record<string, unknown> | null, query = doc.myself('id')) => {
      const res = await api.graphql(query, variables);
      return { status: res.status, ok: graphqlConformance(res, 'myself', 'GQL.HTTP.VARIABLES').findings.length === 0 };
    };
    observe('GQL.HTTP.VARIABLES', {
      emptyObject: await outcome({}),
      null: await outcome(null),
      withValues: await outcome({ n: true }, 'query($n: Boolean!) { myself @include(if: $n) { endpoints { id } } }'),
    });
  });

  test('records whether GraphQL answers carry RateLimit and RateLimit-Policy', rules('RATE.GRAPHQL.HEADERS'), async ({ gql }) => {
    const res = await gql.send(doc.myself('id'));
    observe('RATE.GRAPHQL.HEADERS', { status: res.status, rateLimit: res.headers.ratelimit ?? null, rateLimitPolicy: res.headers['ratelimit-policy'] ?? null });
  });
});

// Not a GraphQL request at all, or a document the schema rejects: an error answer, never a 5xx or a result.
const badRequests: { title: string; send: (api: ApiClient) => Promise<ApiResult> }[] = [
  { title: 'a body without query', send: (api) => api.op('graphql', { body: {} }) },
  { title: 'a non-string query', send: (api) => api.op('graphql', { body: { query: 42 } }) },
  { title: 'a syntax error', send: (api) => api.graphql('query { myself { endpoints { id } ') },
  { title: 'an unknown field', send: (api) => api.graphql('query { myself { endpoints { id colour } } }') },
  { title: 'an unknown operation', send: (api) => api.graphql('mutation { dropEverything }') },
  { title: 'a wrong argument type', send: (api) => api.graphql('mutation { deleteEndpoint(id: 5) }') },
  { title: 'a wrong variable type', send: (api) => api.graphql('mutation($id: String!) { deleteEndpoint(id: $id) }', { id: 5 }) },
  { title: 'deeply nested brackets', send: (api) => api.graphql(`query { ${'myself { '.repeat(2000)}id${' }'.repeat(2000)} }`) },
];

test.describe('malformed GraphQL', () => {
  // A JSON array of requests (a batch) is not the spec's body `{query: string}`, but the spec
  // does not say it is refused: servers that batch answer it. Recorded, never failed.
  test('records the answer to a batch body (a JSON array of requests)', rules('GQL.HTTP.BATCH'), async ({ api }) => {
    const res = await api.op('graphql', { body: [{ query: '{ myself { id } }' }] });
    observe('GQL.HTTP.BATCH', { status: res.status, body: res.text.slice(0, 200) });
  });

  for (const c of badRequests) {
    test(`${c.title} is refused with an error answer, never a 5xx or a result`, rules('GQL.HTTP.BAD_DOCUMENT_REFUSED'), async ({ api }) => {
      conform(graphqlRefusalConformance(await c.send(api), 'GQL.HTTP.BAD_DOCUMENT_REFUSED', c.title));
    });
  }
});
