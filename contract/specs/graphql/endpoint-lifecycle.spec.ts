import { ruleFor, test } from './support/fixtures.js';
import { conform, creates, must, needs, observe, rules, unchecked } from '../../support/rules.js';
import { failureFormat, graphqlConformance, graphqlFailureConformance } from '../../checks/graphql-conformance.js';
import { schemaConformance } from '../../checks/schema.js';
import { doc, field } from './support/documents.js';
import { fieldsConformance } from './support/fields.js';
import type { Finding } from '../../support/rules.js';

// Spec, Endpoint and template lifecycle rules: "1. An endpoint can be deleted only when
// `workersMin` and `workersMax` are both 0." GraphQL: "`deleteEndpoint` | mutation | `id: String` | null."
test.describe('deleteEndpoint', () => {
  // workersMax 1 with workersMin 0 decides the rule without a running worker; workersMin 1 (an
  // always-on worker on a real platform) is checked where it costs nothing, or when opted in.
  for (const workers of [{ workersMin: 1, workersMax: 2 }, { workersMin: 0, workersMax: 1 }]) {
    const warm = workers.workersMin > 0;
    test(`refuses an endpoint with workersMin ${workers.workersMin} and workersMax ${workers.workersMax}: it fails and the endpoint stays listed`,
      rules('ENDPOINT.DELETE.NONZERO_WORKERS_FAILS', 'GQL.ERRORS.FAILURE_SIGNALLED', 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP', 'GQL.ERRORS.FORMAT',
        creates({ endpoints: 1, warmEndpoints: warm ? 1 : 0, pools: ['template'], ...(warm ? { needs: 'warmWorkers' as const } : {}) })),
      async ({ gql }) => {
        const rule = 'ENDPOINT.DELETE.NONZERO_WORKERS_FAILS';
        const template = await gql.pooledTemplate(rule);
        const endpoint = await gql.endpoint(template.id, rule, workers);
        const res = await gql.send(doc.deleteEndpoint(endpoint.id));
        observe('GQL.ERRORS.FORMAT', failureFormat(res, 'deleteEndpoint'));
        const kept = (await gql.endpoints(rule)).some((e) => e.id === endpoint.id);
        conform(graphqlFailureConformance(res, 'deleteEndpoint', rule, { effect: !kept }),
          must(kept, rule, `the endpoint with workers ${workers.workersMin}/${workers.workersMax} was deleted`));
      });
  }

  test('deletes an endpoint whose workersMin and workersMax are 0: data.deleteEndpoint null, no errors, no longer listed',
    rules('ENDPOINT.DELETE.ZERO_WORKERS_OK', 'GQL.DELETE_ENDPOINT.RESULT', 'GQL.HTTP.RESULT_SHAPE', creates({ endpoints: 1, pools: ['template'] })),
    async ({ gql }) => {
      const rule = 'ENDPOINT.DELETE.ZERO_WORKERS_OK';
      const template = await gql.pooledTemplate(rule);
      const endpoint = await gql.endpoint(template.id, rule, { workersMin: 0, workersMax: 0 });
      const res = await gql.send(doc.deleteEndpoint(endpoint.id));
      const { findings, value } = graphqlConformance(res, 'deleteEndpoint', rule);
      const listed = await gql.endpoints(rule);
      conform(findings,
        must(value === null, 'GQL.DELETE_ENDPOINT.RESULT', `data.deleteEndpoint is ${JSON.stringify(value)}, not null`),
        must(!listed.some((e) => e.id === endpoint.id), rule, 'the deleted endpoint is still listed by myself.endpoints'));
    });
});

// Spec, GraphQL: "`myself { endpoints { ... } serverlessDiscount { ... } }` | query | none | The
// caller's endpoints and discount." Serverless endpoint: "`pods` | list of object | Each has
// `desiredStatus`." "Account-level `serverlessDiscount` (nullable object)".
test.describe('myself', () => {
  test('lists every endpoint of the caller and none of another account, each as the endpoint schema says',
    rules('GQL.MYSELF.ENDPOINTS', 'ENDPOINT.FIELD_TYPES', 'ENDPOINT.PODS.DESIRED_STATUS', 'ENDPOINT.SERVERLESS_DISCOUNT', creates({ endpoints: 3, templates: 1, pools: ['template'] }), needs('otherKey')),
    async ({ gql }) => {
      const rule = 'GQL.MYSELF.ENDPOINTS';
      const template = await gql.pooledTemplate(rule);
      // Two endpoints of the caller, saved in one document.
      const saved = await gql.send(doc.mutation([0, 1].map((i): [string, string] => [`mine${i}`, field.saveEndpoint({ name: gql.name('ep'), gpuIds: 'AMPERE_16', templateId: template.id, workersMin: 0 }, 'id')])));
      const answer = fieldsConformance(saved, [0, 1].map((i) => ({ alias: `mine${i}`, rule: ruleFor('saveEndpoint', rule) })));
      conform(answer.shape, answer.fields.mine0!.findings, answer.fields.mine1!.findings);
      const mine = [answer.fields.mine0!.value, answer.fields.mine1!.value] as { id: string }[];
      // Another account's template and endpoint: a template is its owner's, so not the pooled one.
      const theirTemplate = await gql.serverlessTemplate(rule, {}, 'other');
      const theirs = await gql.endpoint(theirTemplate.id, rule, {}, 'other');
      const res = await gql.send(doc.myself());
      const { findings, value } = graphqlConformance<{ endpoints?: Record<string, unknown>[] | null; serverlessDiscount?: unknown } | null>(res, 'myself', rule);
      conform(findings);
      const endpoints = value?.endpoints ?? [];
      const ids = endpoints.map((e) => e.id);
      const discount = value?.serverlessDiscount;
      conform(
        must(mine.every((e) => ids.includes(e.id)), rule, `myself lists ${JSON.stringify(ids)}, missing some of ${JSON.stringify(mine.map((e) => e.id))}`),
        must(!ids.includes(theirs.id), rule, `myself lists ${theirs.id}, an endpoint of another account`),
        endpointShapes(endpoints),
        // The spec lists the fields without types: their presence is the claim, any JSON value the content.
        must(discount === null || (typeof discount === 'object' && discount !== undefined && !Array.isArray(discount) && ['discountFactor', 'type', 'expirationDate'].every((k) => k in discount)),
          'ENDPOINT.SERVERLESS_DISCOUNT', `serverlessDiscount is ${JSON.stringify(discount)}, neither null nor an object with discountFactor, type and expirationDate`),
      );
      // Every endpoint's pods are a list here; whether each pod has desiredStatus is seen only
      // where a pod is listed (an always-on worker: the test below, opted in on a deployment).
      if (!endpoints.some((e) => Array.isArray(e.pods) && e.pods.length > 0)) {
        unchecked('ENDPOINT.PODS.DESIRED_STATUS', 'no endpoint of the account listed a pod, so no pod\'s desiredStatus was seen (only that pods is a list was checked)');
      }
    });

  // An endpoint with an always-on worker shows it in `pods`; the test above checks every listed
  // endpoint's pods too, so the rule is decided without one wherever the account lists none.
  test('lists the pods of an endpoint with an always-on worker, each with desiredStatus',
    rules('ENDPOINT.PODS.DESIRED_STATUS', creates({ endpoints: 1, warmEndpoints: 1, pools: ['template'], needs: 'warmWorkers' })),
    async ({ gql }) => {
      const rule = 'ENDPOINT.PODS.DESIRED_STATUS';
      const template = await gql.pooledTemplate(rule);
      // A refused creation is saveEndpoint's own rule's finding, not this one's.
      const warm = await gql.endpoint(template.id, 'GQL.SAVE_ENDPOINT.CREATE', { workersMin: 1 });
      const { findings, value } = graphqlConformance<{ endpoints?: Record<string, unknown>[] | null } | null>(await gql.send(doc.myself()), 'myself', 'GQL.MYSELF.ENDPOINTS');
      conform(findings);
      const listed = (value?.endpoints ?? []).find((e) => e.id === warm.id);
      conform(must(listed !== undefined, 'GQL.MYSELF.ENDPOINTS', `myself does not list the endpoint ${warm.id}`));
      conform(endpointShapes([listed!]).filter((f) => f.rule === rule));
    });
});

/** Each endpoint as the endpoint schema says, and its pods each with desiredStatus. */
function endpointShapes(endpoints: readonly Record<string, unknown>[]): Finding[] {
  const shapes: Finding[] = [];
  for (const e of endpoints) {
    shapes.push(...schemaConformance('ENDPOINT.FIELD_TYPES', 'endpoint', e));
    const pods = e.pods;
    shapes.push(...must(Array.isArray(pods), 'ENDPOINT.PODS.DESIRED_STATUS', `endpoint ${String(e.id)}: pods is ${JSON.stringify(pods)}, not a list`));
    if (Array.isArray(pods)) {
      for (const p of pods) shapes.push(...must(typeof (p as { desiredStatus?: unknown })?.desiredStatus === 'string', 'ENDPOINT.PODS.DESIRED_STATUS', `endpoint ${String(e.id)}: a pod without desiredStatus: ${JSON.stringify(p)}`));
    }
  }
  return shapes;
}
