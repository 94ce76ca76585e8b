import { test } from './support/fixtures.js';
import { conform, must, observe, rules } from '../../support/rules.js';
import { graphqlConformance, graphqlFailureConformance } from '../../checks/graphql-conformance.js';
import { schemaConformance } from '../../checks/schema.js';
import { doc, enumLiteral } from './support/documents.js';
import { allowed } from './support/allowed.js';
import type { EndpointResult } from './support/fixtures.js';

const FAILURE_RULES = ['GQL.ERRORS.FAILURE_SIGNALLED', 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP'] as const;

// Spec, GraphQL rule 1: "`saveEndpoint` requires `gpuIds`, `name`, `templateId`; `type` defaults
// to `QB`. The other fields are optional (see Serverless endpoint)."
test.describe('saveEndpoint creates', () => {
  test('with only gpuIds, name and templateId: a new endpoint of type QB, its fields typed as the spec says',
    rules('GQL.SAVE_ENDPOINT.CREATE', 'GQL.SAVE_ENDPOINT.OPTIONAL_FIELDS', 'GQL.SAVE_ENDPOINT.TYPE_DEFAULT_QB', 'SERVICE.ENDPOINT.TYPES', 'ENDPOINT.FIELD_TYPES', 'ENDPOINT.NETWORK_VOLUME_ID'),
    async ({ gql }) => {
      const template = await gql.serverlessTemplate('GQL.SAVE_ENDPOINT.CREATE');
      const input = { name: gql.name('ep'), gpuIds: allowed.gpuIds[0]!, templateId: template.id };
      const { value: e } = await gql.ok<EndpointResult>('saveEndpoint', doc.saveEndpoint(input), 'GQL.SAVE_ENDPOINT.OPTIONAL_FIELDS');
      const second = await gql.endpoint(template.id, 'GQL.SAVE_ENDPOINT.CREATE');
      conform(
        must(typeof e.id === 'string' && e.id.length > 0, 'GQL.SAVE_ENDPOINT.CREATE', `no id in the result: ${JSON.stringify(e)}`),
        must(second.id !== e.id, 'GQL.SAVE_ENDPOINT.CREATE', `a second endpoint got the same id ${e.id}`),
        must(e.name === input.name && e.templateId === template.id && e.gpuIds === input.gpuIds, 'GQL.SAVE_ENDPOINT.CREATE', `the result does not echo the input: ${JSON.stringify(e)}`),
        must(e.type === 'QB', 'GQL.SAVE_ENDPOINT.TYPE_DEFAULT_QB', `type is ${JSON.stringify(e.type)} without a type in the input`),
        must(e.type === 'QB', 'SERVICE.ENDPOINT.TYPES', `an endpoint created without type is ${JSON.stringify(e.type)}, not queue-based`),
        must(e.networkVolumeId === null || typeof e.networkVolumeId === 'string', 'ENDPOINT.NETWORK_VOLUME_ID', `networkVolumeId is ${JSON.stringify(e.networkVolumeId)}`),
        schemaConformance('ENDPOINT.FIELD_TYPES', 'endpoint', e),
      );
    });

  test('with type LB: a load-balancing endpoint; myself lists both types', rules('SERVICE.ENDPOINT.TYPES', 'ENDPOINT.TYPE.VALUES'), async ({ gql }) => {
    const template = await gql.serverlessTemplate('SERVICE.ENDPOINT.TYPES');
    const lb = await gql.endpoint(template.id, 'ENDPOINT.TYPE.VALUES', { type: 'LB' });
    const qb = await gql.endpoint(template.id, 'SERVICE.ENDPOINT.TYPES', { type: 'QB' });
    const listed = await gql.endpoints('SERVICE.ENDPOINT.TYPES');
    conform(
      must(lb.type === 'LB', 'ENDPOINT.TYPE.VALUES', `type LB came back as ${JSON.stringify(lb.type)}`),
      must(qb.type === 'QB', 'SERVICE.ENDPOINT.TYPES', `type QB came back as ${JSON.stringify(qb.type)}`),
      must(listed.find((e) => e.id === lb.id)?.type === 'LB' && listed.find((e) => e.id === qb.id)?.type === 'QB', 'SERVICE.ENDPOINT.TYPES', 'myself does not list the types as saved'),
    );
  });

  test('each allowed gpuIds is accepted and returned as sent', rules('ENDPOINT.GPU_IDS.ALLOWED', 'ENDPOINT.FIELD_TYPES'), async ({ gql }) => {
    const template = await gql.serverlessTemplate('ENDPOINT.GPU_IDS.ALLOWED');
    for (const gpuIds of allowed.gpuIds) {
      const e = await gql.endpoint(template.id, 'ENDPOINT.GPU_IDS.ALLOWED', { gpuIds });
      conform(must(e.gpuIds === gpuIds, 'ENDPOINT.GPU_IDS.ALLOWED', `gpuIds ${gpuIds} came back as ${JSON.stringify(e.gpuIds)}`), schemaConformance('ENDPOINT.FIELD_TYPES', 'endpoint', e));
    }
  });

  test('each allowed location is accepted; empty and null mean any region', rules('ENDPOINT.LOCATIONS.ALLOWED', 'ENDPOINT.LOCATIONS.ANY_REGION'), async ({ gql }) => {
    const template = await gql.serverlessTemplate('ENDPOINT.LOCATIONS.ALLOWED');
    for (const locations of allowed.locations) {
      const e = await gql.endpoint(template.id, 'ENDPOINT.LOCATIONS.ALLOWED', { locations });
      conform(must(e.locations === locations, 'ENDPOINT.LOCATIONS.ALLOWED', `locations ${locations} came back as ${JSON.stringify(e.locations)}`));
    }
    for (const locations of allowed.anyRegion) {
      const e = await gql.endpoint(template.id, 'ENDPOINT.LOCATIONS.ANY_REGION', { locations });
      conform(must(e.locations === null || e.locations === '', 'ENDPOINT.LOCATIONS.ANY_REGION', `locations ${JSON.stringify(locations)} came back as ${JSON.stringify(e.locations)}`));
    }
  });

  test('the optional fields are accepted and returned as sent: FLASHBOOT unquoted, scaler, workers, idle timeout',
    rules('ENDPOINT.FLASHBOOT.UNQUOTED', 'ENDPOINT.SCALER_TYPE.VALUES', 'ENDPOINT.SCALER_VALUE', 'ENDPOINT.IDLE_TIMEOUT', 'ENDPOINT.WORKERS_MAX', 'ENDPOINT.WORKERS_MIN.ZERO', 'ENDPOINT.FIELD_TYPES'),
    async ({ gql }) => {
      const template = await gql.serverlessTemplate('ENDPOINT.FLASHBOOT.UNQUOTED');
      const flash = await gql.endpoint(template.id, 'ENDPOINT.FLASHBOOT.UNQUOTED', { flashBootType: enumLiteral(allowed.flashBootType[0]!) });
      conform(must(flash.flashBootType === allowed.flashBootType[0], 'ENDPOINT.FLASHBOOT.UNQUOTED', `flashBootType came back as ${JSON.stringify(flash.flashBootType)}`));
      for (const scalerType of allowed.scalerType) {
        const e = await gql.endpoint(template.id, 'ENDPOINT.SCALER_TYPE.VALUES', { scalerType, scalerValue: 3 });
        conform(must(e.scalerType === scalerType, 'ENDPOINT.SCALER_TYPE.VALUES', `scalerType ${scalerType} came back as ${JSON.stringify(e.scalerType)}`),
          must(e.scalerValue === 3, 'ENDPOINT.SCALER_VALUE', `scalerValue 3 came back as ${JSON.stringify(e.scalerValue)}`));
      }
      const e = await gql.endpoint(template.id, 'ENDPOINT.WORKERS_MAX', { idleTimeout: 17, workersMin: 0, workersMax: 2 });
      conform(
        must(e.idleTimeout === 17, 'ENDPOINT.IDLE_TIMEOUT', `idleTimeout 17 came back as ${JSON.stringify(e.idleTimeout)}`),
        must(e.workersMin === 0, 'ENDPOINT.WORKERS_MIN.ZERO', `workersMin 0 came back as ${JSON.stringify(e.workersMin)}`),
        must(e.workersMax === 2, 'ENDPOINT.WORKERS_MAX', `workersMax 2 came back as ${JSON.stringify(e.workersMax)}`),
        schemaConformance('ENDPOINT.FIELD_TYPES', 'endpoint', e),
      );
    });
});

/** Inputs saveEndpoint must refuse: the rule, and what replaces or removes a field of a valid input. */
const refusals: { title: string; rule: string; change: Record<string, unknown>; drop?: string; invalidDocument?: true }[] = [
  { title: 'without name', rule: 'GQL.SAVE_ENDPOINT.REQUIRED', change: {}, drop: 'name', invalidDocument: true },
  { title: 'without gpuIds', rule: 'GQL.SAVE_ENDPOINT.REQUIRED', change: {}, drop: 'gpuIds', invalidDocument: true },
  { title: 'without templateId', rule: 'GQL.SAVE_ENDPOINT.REQUIRED', change: {}, drop: 'templateId', invalidDocument: true },
  { title: 'with gpuIds outside the allowed tiers', rule: 'ENDPOINT.GPU_IDS.INVALID_REJECTED', change: { gpuIds: 'NVIDIA_H100_80' } },
  { title: 'with a location outside the allowed regions', rule: 'ENDPOINT.LOCATIONS.ALLOWED', change: { locations: 'ATLANTIS' } },
  { title: 'with a scalerType other than QUEUE_DELAY and REQUEST_COUNT', rule: 'ENDPOINT.SCALER_TYPE.VALUES', change: { scalerType: 'GPU_UTILISATION' } },
  { title: 'with a type other than QB and LB', rule: 'ENDPOINT.TYPE.VALUES', change: { type: 'BATCH' } },
  { title: 'with flashBootType written as a quoted string', rule: 'ENDPOINT.FLASHBOOT.QUOTED_REJECTED', change: { flashBootType: 'FLASHBOOT' }, invalidDocument: true },
];

test.describe('saveEndpoint refuses', () => {
  for (const c of refusals) {
    // Documents the spec's schema rejects (a required field missing, an enum quoted) are also held to BAD_DOCUMENT_REFUSED: no 5xx.
    test(`${c.title}: it fails, returns no endpoint and creates nothing`, rules(c.rule, ...(c.invalidDocument ? ['GQL.HTTP.BAD_DOCUMENT_REFUSED'] : []), ...FAILURE_RULES), async ({ gql }) => {
      const template = await gql.serverlessTemplate(c.rule);
      const input: Record<string, unknown> = { name: gql.name('bad'), gpuIds: allowed.gpuIds[0]!, templateId: template.id, ...c.change };
      if (c.drop) delete input[c.drop];
      const before = new Set((await gql.endpoints(c.rule)).map((e) => e.id));
      const res = await gql.send(doc.saveEndpoint(input));
      // Other tests share the account: an endpoint of this request is a new id with this test's name or template, never a count.
      const made = (await gql.endpoints(c.rule)).filter((e) => !before.has(e.id) && ((input.name !== undefined && e.name === input.name) || e.templateId === template.id));
      conform(graphqlFailureConformance(res, 'saveEndpoint', c.rule, { invalidDocument: c.invalidDocument }), must(made.length === 0, c.rule, `the refused saveEndpoint created an endpoint (${made.map((e) => e.id).join(', ')})`));
    });
  }
});

/** For each optional field an update omitted: kept, or what it became. */
function omittedOutcome(original: EndpointResult, after: EndpointResult): Record<string, string> {
  const fields = ['type', 'locations', 'idleTimeout', 'scalerValue'] as const;
  return Object.fromEntries(fields.map((f) => [f, after[f] === original[f] ? 'kept' : `${JSON.stringify(original[f])} → ${JSON.stringify(after[f])}`]));
}

// Spec, GraphQL rule 2: "`saveEndpoint` with `id` modifies that endpoint; the update form includes
// the required fields together with the changed ones. What happens to omitted optional fields on
// update: not shown." Lifecycle rule 3: changing GPU types or worker counts "may require
// restarting active workers".
test.describe('saveEndpoint modifies', () => {
  test('with id, the required fields and the changed ones: same id, changes applied, no second endpoint; omitted fields recorded',
    rules('GQL.SAVE_ENDPOINT.MODIFY', 'GQL.SAVE_ENDPOINT.UPDATE_FORM', 'GQL.SAVE_ENDPOINT.OMITTED_ON_UPDATE', 'ENDPOINT.UPDATE.GPU_OR_WORKERS', 'GQL.MYSELF.ENDPOINTS'),
    async ({ gql }) => {
      const template = await gql.serverlessTemplate('GQL.SAVE_ENDPOINT.MODIFY');
      const original = await gql.endpoint(template.id, 'GQL.SAVE_ENDPOINT.MODIFY', { type: 'LB', locations: allowed.locations[0], idleTimeout: 42, scalerValue: 6, workersMin: 0, workersMax: 2 });
      const update = { id: original.id, name: original.name, gpuIds: allowed.gpuIds[1]!, templateId: template.id, workersMin: 1, workersMax: 4 };
      const res = await gql.send(doc.saveEndpoint(update));
      const { findings, value: u } = graphqlConformance<EndpointResult>(res, 'saveEndpoint', 'GQL.SAVE_ENDPOINT.UPDATE_FORM');
      conform(findings);
      const listed = await gql.endpoints('GQL.MYSELF.ENDPOINTS');
      const stored = listed.find((e) => e.id === original.id);
      observe('GQL.SAVE_ENDPOINT.OMITTED_ON_UPDATE', omittedOutcome(original, stored ?? u!));
      conform(
        must(u!.id === original.id, 'GQL.SAVE_ENDPOINT.MODIFY', `the update answered id ${u!.id}, not ${original.id}`),
        // Other tests share the account: a second endpoint is another id with this endpoint's name or template, never a count.
        must(!listed.some((e) => e.id !== original.id && (e.name === original.name || e.templateId === template.id)), 'GQL.SAVE_ENDPOINT.MODIFY',
          `the update made a second endpoint: ${listed.filter((e) => e.id !== original.id && (e.name === original.name || e.templateId === template.id)).map((e) => e.id).join(', ')}`),
      );
      // The changes are looked for on this endpoint only once the update reached it.
      conform(
        must(stored?.gpuIds === update.gpuIds, 'ENDPOINT.UPDATE.GPU_OR_WORKERS', `gpuIds is ${stored?.gpuIds} after changing it to ${update.gpuIds}`),
        must(stored?.workersMin === 1 && stored.workersMax === 4, 'ENDPOINT.UPDATE.GPU_OR_WORKERS', `workers are ${stored?.workersMin}/${stored?.workersMax} after changing them to 1/4`),
        must(u!.gpuIds === update.gpuIds && u!.workersMax === 4, 'GQL.SAVE_ENDPOINT.UPDATE_FORM', `the update result does not carry the changes: ${JSON.stringify(u)}`),
      );
    });
});
