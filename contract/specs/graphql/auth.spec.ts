import { ruleFor, test, type EndpointResult } from './support/fixtures.js';
import { conform, creates, must, needs, observe, rules } from '../../support/rules.js';
import { failureSignalled, graphqlConformance, graphqlFailureConformance, graphqlRefusalConformance } from '../../checks/graphql-conformance.js';
import { doc, field, PROBE_TEMPLATE } from './support/documents.js';
import { fieldsConformance } from './support/fields.js';
import type { ApiResult, AuthChoice } from '../../../lib/client/api.js';
import type { Finding } from '../../support/rules.js';

// Spec, Authentication: GraphQL uses "Query parameter `api_key=<API_KEY>`"; "A missing,
// malformed, expired or invalid bearer token gets 401." That GraphQL refuses is certain; the
// HTTP status it uses is recorded (AUTH.GRAPHQL.REFUSAL_STATUS).
const unauthenticated: { title: string; auth: AuthChoice }[] = [
  { title: 'no api_key', auth: 'none' },
  { title: 'an unknown api_key', auth: { key: 'cpk_not_a_real_key_0000000000' } },
  { title: 'an unknown Bearer key', auth: { authorization: 'Bearer cpk_not_a_real_key_0000000000' } },
];

test.describe('GraphQL authentication', () => {
  test(`a request with ${unauthenticated.map((c) => c.title).join(', ')} is refused: no result and no effect`,
    rules('AUTH.GRAPHQL.MISSING_OR_INVALID_REFUSED', 'AUTH.GRAPHQL.REFUSAL_STATUS', creates({ secrets: 1 })),
    async ({ api, gql }) => {
      const rule = 'AUTH.GRAPHQL.MISSING_OR_INVALID_REFUSED';
      // Every refused mutation tries one name: its owner creating it afterwards shows none of them did.
      const name = gql.name('unauth');
      const findings: Finding[] = [];
      for (const c of unauthenticated) {
        const query = await api.graphql(doc.myself('id'), undefined, { auth: c.auth });
        const mutation = await api.graphql(doc.secretCreate({ name, value: 'v' }, 'id'), undefined, { auth: c.auth });
        observe('AUTH.GRAPHQL.REFUSAL_STATUS', { case: c.title, query: query.status, mutation: mutation.status, contentType: query.contentType });
        findings.push(...graphqlRefusalConformance(query, rule, `myself with ${c.title}`), ...graphqlRefusalConformance(mutation, rule, `secretCreate with ${c.title}`));
      }
      // No effect: the name the refused mutations tried is still free for its owner.
      const after = await gql.send(doc.secretCreate({ name, value: 'v' }, 'id'));
      conform(findings, graphqlConformance(after, 'secretCreate', rule).findings);
    });

  test('a key without write access is refused on every mutation, with no result and no effect; it may still query',
    rules('AUTH.GRAPHQL.FORBIDDEN_REFUSED', 'AUTH.GRAPHQL.REFUSAL_STATUS', 'AUTH.SCOPES.NOT_SHOWN', creates({ endpoints: 1, pools: ['template'] }), needs('readonlyKey')),
    async ({ gql }) => {
      const rule = 'AUTH.GRAPHQL.FORBIDDEN_REFUSED';
      const template = await gql.pooledTemplate(rule);
      const endpoint = await gql.endpoint(template.id, rule, { workersMax: 0 });
      const attempts: [string, string][] = [
        ['saveTemplate', doc.saveTemplate({ ...PROBE_TEMPLATE, name: gql.name('ro') }, 'id')],
        ['saveEndpoint', doc.saveEndpoint({ id: endpoint.id, name: 'renamed-by-readonly', gpuIds: endpoint.gpuIds, templateId: template.id }, 'id')],
        ['deleteEndpoint', doc.deleteEndpoint(endpoint.id)],
        ['secretCreate', doc.secretCreate({ name: gql.name('ro'), value: 'v' }, 'id')],
      ];
      const statuses: Record<string, number> = {};
      const findings: Finding[] = [];
      for (const [op, document] of attempts) {
        const res = await gql.send(document, 'readonly');
        statuses[op] = res.status;
        findings.push(...graphqlRefusalConformance(res, rule, `${op} with a read-only key`));
      }
      const read = await gql.send(doc.myself('id name'), 'readonly');
      observe('AUTH.GRAPHQL.REFUSAL_STATUS', { case: 'read-only key on mutations', statuses });
      observe('AUTH.SCOPES.NOT_SHOWN', { graphqlQueryWithReadOnlyKey: read.status });
      // The read-only key's own query shows the endpoint when the key may query its account; else
      // (refused, or another account's key) the main key's list is asked.
      const readable = graphqlConformance<{ endpoints?: { id: string; name?: string }[] | null } | null>(read, 'myself', rule).value?.endpoints;
      const still = (Array.isArray(readable) ? readable.find((e) => e?.id === endpoint.id) : undefined) ?? (await gql.endpoints(rule)).find((e) => e.id === endpoint.id);
      conform(findings,
        must(still !== undefined, rule, 'deleteEndpoint with a read-only key deleted the endpoint'),
        must(still === undefined || still.name === endpoint.name, rule, `saveEndpoint with a read-only key renamed the endpoint to ${still?.name}`));
    });

  test('records whether Authorization: Bearer <key> is accepted instead of api_key', rules('AUTH.GRAPHQL.BEARER_ACCEPTED'), async ({ api }) => {
    const res = await api.graphql(doc.myself('id'), undefined, { auth: { role: 'main', style: 'bearer' } });
    observe('AUTH.GRAPHQL.BEARER_ACCEPTED', { status: res.status, executed: graphqlConformance(res, 'myself', 'AUTH.GRAPHQL.BEARER_ACCEPTED').findings.length === 0 });
  });
});

/**
 * Another account's save with this account's id must be refused. An answer that saved under
 * another id did not touch this account's object: it ignored the id, which breaks `idRule`
 * (saving with an id modifies that object), not the isolation rule.
 */
function saveWithId(res: ApiResult, operation: 'saveEndpoint' | 'saveTemplate', id: string, rule: string, idRule: string): Finding[] {
  const result = (res.body as { data?: Record<string, { id?: unknown } | null> | null } | undefined)?.data?.[operation];
  if (!failureSignalled(res) && typeof result?.id === 'string' && result.id !== id) {
    return [{ rule: idRule, message: `${operation} with the id ${id} (another account's) saved ${result.id} instead: the id was ignored` }];
  }
  return graphqlFailureConformance(res, operation, rule);
}

// Keys are scoped to their account: another account's objects are out of reach (spec,
// Authentication: "A valid key lacking access to a resource or action gets 403").
test.describe('GraphQL account isolation', () => {
  test('another account cannot modify or delete an endpoint, delete a template or a secret by its id or name',
    // The template is the pooled one: another account's save of it is refused, so it stays as lent
    // (a test that fails returns it retired, never to another test).
    rules('AUTH.GRAPHQL.OTHER_ACCOUNT_REFUSED', 'GQL.MYSELF.ENDPOINTS', 'GQL.ERRORS.FAILURE_SIGNALLED', 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP', creates({ endpoints: 1, secrets: 1, pools: ['template'] }), needs('otherKey')),
    async ({ gql }) => {
      const rule = 'AUTH.GRAPHQL.OTHER_ACCOUNT_REFUSED';
      const template = await gql.pooledTemplate(rule);
      // The endpoint and the secret, saved in one document.
      const made = await gql.send(doc.mutation([
        ['saveEndpoint', field.saveEndpoint({ name: gql.name('ep'), gpuIds: 'AMPERE_16', templateId: template.id, workersMin: 0, workersMax: 0 })],
        ['secretCreate', field.secretCreate({ name: gql.name('iso'), value: 'v' }, 'id')],
      ]));
      const answer = fieldsConformance(made, [{ alias: 'saveEndpoint', rule: ruleFor('saveEndpoint', rule) }, { alias: 'secretCreate', rule: ruleFor('secretCreate', rule) }]);
      conform(answer.shape, answer.fields.saveEndpoint!.findings, answer.fields.secretCreate!.findings);
      const endpoint = answer.fields.saveEndpoint!.value as EndpointResult;
      const secret = { value: answer.fields.secretCreate!.value as { id: string } };
      const other = {
        saveEndpoint: await gql.send(doc.saveEndpoint({ id: endpoint.id, name: 'taken-over', gpuIds: endpoint.gpuIds, templateId: template.id }, 'id name'), 'other'),
        deleteEndpoint: await gql.send(doc.deleteEndpoint(endpoint.id), 'other'),
        saveTemplate: await gql.send(doc.saveTemplate({ ...PROBE_TEMPLATE, id: template.id, name: template.name, imageName: 'taken/over:1' }, 'id'), 'other'),
        secretDelete: await gql.send(doc.secretDelete(secret.value.id), 'other'),
      };
      const theirs = await gql.endpoints('GQL.MYSELF.ENDPOINTS', 'other');
      const mine = await gql.endpoints(rule);
      const still = mine.find((e) => e.id === endpoint.id);
      // The secret is still there when its owner can delete it; when the owner cannot although
      // the other account was refused, secretDelete itself is what broke (its own rule).
      // The same document deletes the endpoint (its workers are 0): that answer decides nothing here.
      const own = await gql.send(doc.mutation([['secretDelete', field.secretDelete(secret.value.id)], ['tidy', field.deleteEndpoint(endpoint.id)]]));
      const ownAnswer = fieldsConformance(own, [{ alias: 'secretDelete', rule: 'GQL.SECRET_DELETE.BY_ID' }]);
      const ownDelete = [...ownAnswer.shape, ...ownAnswer.fields.secretDelete!.findings];
      const secretTaken = ownDelete.length > 0 && !failureSignalled(other.secretDelete);
      conform(
        saveWithId(other.saveEndpoint, 'saveEndpoint', endpoint.id, rule, 'GQL.SAVE_ENDPOINT.MODIFY'),
        graphqlFailureConformance(other.deleteEndpoint, 'deleteEndpoint', rule, { effect: still === undefined }),
        saveWithId(other.saveTemplate, 'saveTemplate', template.id, rule, 'TEMPLATE.ID_MODIFIES'),
        graphqlFailureConformance(other.secretDelete, 'secretDelete', rule, { effect: secretTaken }),
        must(!theirs.some((e) => e.id === endpoint.id), 'GQL.MYSELF.ENDPOINTS', 'the other account\'s myself lists this account\'s endpoint'),
        must(still !== undefined && still.name === endpoint.name, rule, `the endpoint was changed or deleted by another account: ${JSON.stringify(still)}`),
        secretTaken ? [] : ownDelete,
      );
    });
});
