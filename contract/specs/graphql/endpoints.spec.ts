import { test } from './support/fixtures.js';
import { conform, creates, must, observe, rules, titled } from '../../support/rules.js';
import { graphqlConformance, graphqlFailureConformance } from '../../checks/graphql-conformance.js';
import { schemaConformance } from '../../checks/schema.js';
import { doc, enumLiteral, field } from './support/documents.js';
import { fieldsConformance } from './support/fields.js';
import { allowed } from './support/allowed.js';
import type { EndpointResult, GqlKit } from './support/fixtures.js';
import type { ApiResult } from '../../../lib/client/api.js';

const FAILURE_RULES = ['GQL.ERRORS.FAILURE_SIGNALLED', 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP'] as const;

/**
 * One new endpoint per input, all in one document (workers 0, so each can be deleted), judged
 * under `rule`: a value accepted on modify must be accepted on create too, so each value is
 * also sent where it creates. Returns each endpoint as answered, in the order of `inputs`.
 */
async function createdWith(gql: GqlKit, templateId: string, rule: string, inputs: readonly Record<string, unknown>[]): Promise<EndpointResult[]> {
  const res = await gql.send(doc.mutation(inputs.map((input, i): [string, string] =>
    [`new${i}`, field.saveEndpoint({ name: gql.name('ep'), gpuIds: allowed.gpuIds[0]!, templateId, workersMin: 0, workersMax: 0, ...input })])));
  const { shape, fields } = fieldsConformance(res, inputs.map((_, i) => ({ alias: `new${i}`, rule })));
  conform(shape, inputs.flatMap((_, i) => fields[`new${i}`]!.findings));
  return inputs.map((_, i) => fields[`new${i}`]!.value as EndpointResult);
}

/** Deletes endpoints with 0 workers in one document (the run's cleanup would, one request each). */
async function tidy(gql: GqlKit, endpoints: readonly { id: string }[]): Promise<void> {
  if (endpoints.length) await gql.send(doc.mutation(endpoints.map((e, i): [string, string] => [`tidy${i}`, field.deleteEndpoint(e.id)])));
}

// Spec, GraphQL rule 1: "`saveEndpoint` requires `gpuIds`, `name`, `templateId`; `type` defaults
// to `QB`. The other fields are optional (see Serverless endpoint)." Rule 2: "`saveEndpoint` with
// `id` modifies that endpoint". A value accepted by saveEndpoint is accepted whether it creates
// or modifies: where one test checks several values of a field, it creates one endpoint with
// each value (one document), and modifies one through the others, in one document (GraphQL runs
// a mutation's fields in order), and deletes them once their workers are 0.
test.describe('saveEndpoint creates', () => {
  test('with only gpuIds, name and templateId: a new endpoint of type QB, its fields typed as the spec says',
    rules('GQL.SAVE_ENDPOINT.CREATE', 'GQL.SAVE_ENDPOINT.OPTIONAL_FIELDS', 'GQL.SAVE_ENDPOINT.TYPE_DEFAULT_QB', 'SERVICE.ENDPOINT.TYPES', 'ENDPOINT.FIELD_TYPES', 'ENDPOINT.NETWORK_VOLUME_ID',
      creates({ endpoints: 2, pools: ['template'] })),
    async ({ gql }) => {
      const template = await gql.pooledTemplate('GQL.SAVE_ENDPOINT.CREATE');
      const input = { name: gql.name('ep'), gpuIds: allowed.gpuIds[0]!, templateId: template.id };
      // The three-field endpoint under data.saveEndpoint, a second one (its id must differ) in the same document.
      const res = await gql.send(doc.mutation([
        ['saveEndpoint', field.saveEndpoint(input)],
        ['second', field.saveEndpoint({ name: gql.name('ep'), gpuIds: allowed.gpuIds[0]!, templateId: template.id, workersMin: 0 }, 'id')],
      ]));
      const { shape, fields } = fieldsConformance(res, [{ alias: 'saveEndpoint', rule: 'GQL.SAVE_ENDPOINT.OPTIONAL_FIELDS' }, { alias: 'second', rule: 'GQL.SAVE_ENDPOINT.CREATE' }]);
      conform(shape, fields.saveEndpoint!.findings, fields.second!.findings);
      const e = fields.saveEndpoint!.value as EndpointResult;
      const second = fields.second!.value as { id: string };
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

  test('with type LB: a load-balancing endpoint; myself lists both types', rules('SERVICE.ENDPOINT.TYPES', 'ENDPOINT.TYPE.VALUES', creates({ endpoints: 2, pools: ['template'] })), async ({ gql }) => {
    const template = await gql.pooledTemplate('SERVICE.ENDPOINT.TYPES');
    const res = await gql.send(doc.mutation([
      ['lb', field.saveEndpoint({ name: gql.name('ep'), gpuIds: allowed.gpuIds[0]!, templateId: template.id, workersMin: 0, type: 'LB' })],
      ['qb', field.saveEndpoint({ name: gql.name('ep'), gpuIds: allowed.gpuIds[0]!, templateId: template.id, workersMin: 0, type: 'QB' })],
    ]));
    const { shape, fields } = fieldsConformance(res, [{ alias: 'lb', rule: 'ENDPOINT.TYPE.VALUES' }, { alias: 'qb', rule: 'SERVICE.ENDPOINT.TYPES' }]);
    conform(shape, fields.lb!.findings, fields.qb!.findings);
    const lb = fields.lb!.value as EndpointResult;
    const qb = fields.qb!.value as EndpointResult;
    const listed = await gql.endpoints('SERVICE.ENDPOINT.TYPES');
    conform(
      must(lb.type === 'LB', 'ENDPOINT.TYPE.VALUES', `type LB came back as ${JSON.stringify(lb.type)}`),
      must(qb.type === 'QB', 'SERVICE.ENDPOINT.TYPES', `type QB came back as ${JSON.stringify(qb.type)}`),
      must(listed.find((e) => e.id === lb.id)?.type === 'LB' && listed.find((e) => e.id === qb.id)?.type === 'QB', 'SERVICE.ENDPOINT.TYPES', 'myself does not list the types as saved'),
    );
  });

  test('each allowed gpuIds is accepted and returned as sent, on create and on modify', rules('ENDPOINT.GPU_IDS.ALLOWED', 'ENDPOINT.FIELD_TYPES', creates({ endpoints: 1 + allowed.gpuIds.length, pools: ['template'] })), async ({ gql }) => {
    const rule = 'ENDPOINT.GPU_IDS.ALLOWED';
    const template = await gql.pooledTemplate(rule);
    const made = await createdWith(gql, template.id, rule, allowed.gpuIds.map((gpuIds) => ({ gpuIds })));
    await tidy(gql, made);
    conform(allowed.gpuIds.flatMap((gpuIds, i) => must(made[i]?.gpuIds === gpuIds, rule, `created with gpuIds ${gpuIds}, it came back as ${JSON.stringify(made[i]?.gpuIds)}`)));
    const [first, ...others] = allowed.gpuIds;
    const e = await gql.endpoint(template.id, rule, { gpuIds: first!, workersMax: 0 });
    const res = await gql.send(doc.mutation([
      ...others.map((gpuIds, i): [string, string] => [`gpu${i}`, field.saveEndpoint({ id: e.id, name: e.name, templateId: template.id, gpuIds })]),
      ['tidy', field.deleteEndpoint(e.id)],
    ]));
    const { shape, fields } = fieldsConformance(res, others.map((_, i) => ({ alias: `gpu${i}`, rule })));
    const results: [string, unknown][] = [[first!, e], ...others.map((gpuIds, i): [string, unknown] => [gpuIds, fields[`gpu${i}`]!.value])];
    conform(shape, others.flatMap((_, i) => fields[`gpu${i}`]!.findings));
    conform(...results.map(([gpuIds, r]) => [
      ...must((r as EndpointResult).gpuIds === gpuIds, rule, `gpuIds ${gpuIds} came back as ${JSON.stringify((r as EndpointResult).gpuIds)}`),
      ...schemaConformance('ENDPOINT.FIELD_TYPES', 'endpoint', r),
    ]));
  });

  test('each allowed location is accepted, on create and on modify; empty and null mean any region', rules('ENDPOINT.LOCATIONS.ALLOWED', 'ENDPOINT.LOCATIONS.ANY_REGION', creates({ endpoints: 2 + allowed.locations.length, pools: ['template'] })), async ({ gql }) => {
    const template = await gql.pooledTemplate('ENDPOINT.LOCATIONS.ALLOWED');
    const located = await createdWith(gql, template.id, 'ENDPOINT.LOCATIONS.ALLOWED', allowed.locations.map((locations) => ({ locations })));
    await tidy(gql, located);
    conform(allowed.locations.flatMap((locations, i) => must(located[i]?.locations === locations, 'ENDPOINT.LOCATIONS.ALLOWED', `created with locations ${locations}, it came back as ${JSON.stringify(located[i]?.locations)}`)));
    // The "any region" values each create an endpoint: on a modification, null might read as "unchanged".
    const anyRes = await gql.send(doc.mutation(allowed.anyRegion.map((locations, i): [string, string] =>
      [`any${i}`, field.saveEndpoint({ name: gql.name('ep'), gpuIds: allowed.gpuIds[0]!, templateId: template.id, workersMin: 0, workersMax: 0, locations })])));
    const any = fieldsConformance(anyRes, allowed.anyRegion.map((_, i) => ({ alias: `any${i}`, rule: 'ENDPOINT.LOCATIONS.ANY_REGION' })));
    conform(any.shape, allowed.anyRegion.flatMap((_, i) => any.fields[`any${i}`]!.findings));
    const made = allowed.anyRegion.map((_, i) => any.fields[`any${i}`]!.value as EndpointResult);
    conform(allowed.anyRegion.flatMap((locations, i) => must(made[i]!.locations === null || made[i]!.locations === '', 'ENDPOINT.LOCATIONS.ANY_REGION',
      `locations ${JSON.stringify(locations)} came back as ${JSON.stringify(made[i]!.locations)}`)));
    // Each region on the first of them, then both deleted (their workers are 0).
    const e = made[0]!;
    const res = await gql.send(doc.mutation([
      ...allowed.locations.map((locations, i): [string, string] => [`loc${i}`, field.saveEndpoint({ id: e.id, name: e.name, gpuIds: allowed.gpuIds[0]!, templateId: template.id, locations }, 'id locations')]),
      ...made.map((m, i): [string, string] => [`tidy${i}`, field.deleteEndpoint(m.id)]),
    ]));
    const { shape, fields } = fieldsConformance(res, allowed.locations.map((_, i) => ({ alias: `loc${i}`, rule: 'ENDPOINT.LOCATIONS.ALLOWED' })));
    conform(shape, allowed.locations.flatMap((_, i) => fields[`loc${i}`]!.findings));
    conform(allowed.locations.flatMap((locations, i) => {
      const got = (fields[`loc${i}`]!.value as EndpointResult).locations;
      return must(got === locations, 'ENDPOINT.LOCATIONS.ALLOWED', `locations ${locations} came back as ${JSON.stringify(got)}`);
    }));
  });

  test('the optional fields are accepted and returned as sent: FLASHBOOT unquoted, scaler, workers, idle timeout',
    rules('ENDPOINT.FLASHBOOT.UNQUOTED', 'ENDPOINT.SCALER_TYPE.VALUES', 'ENDPOINT.SCALER_VALUE', 'ENDPOINT.IDLE_TIMEOUT', 'ENDPOINT.WORKERS_MAX', 'ENDPOINT.WORKERS_MIN.ZERO', 'ENDPOINT.FIELD_TYPES',
      creates({ endpoints: 1 + allowed.scalerType.length, pools: ['template'] })),
    async ({ gql }) => {
      const template = await gql.pooledTemplate('ENDPOINT.FLASHBOOT.UNQUOTED');
      // Each scaler type where it creates an endpoint, then where it modifies one (below).
      const scaled = await createdWith(gql, template.id, 'ENDPOINT.SCALER_TYPE.VALUES', allowed.scalerType.map((scalerType) => ({ scalerType, scalerValue: 3 })));
      await tidy(gql, scaled);
      conform(allowed.scalerType.flatMap((scalerType, i) => [
        ...must(scaled[i]?.scalerType === scalerType, 'ENDPOINT.SCALER_TYPE.VALUES', `created with scalerType ${scalerType}, it came back as ${JSON.stringify(scaled[i]?.scalerType)}`),
        ...must(scaled[i]?.scalerValue === 3, 'ENDPOINT.SCALER_VALUE', `created with scalerValue 3, it came back as ${JSON.stringify(scaled[i]?.scalerValue)}`)]));
      const flash = await gql.endpoint(template.id, 'ENDPOINT.FLASHBOOT.UNQUOTED', { flashBootType: enumLiteral(allowed.flashBootType[0]!), workersMax: 0 });
      conform(must(flash.flashBootType === allowed.flashBootType[0], 'ENDPOINT.FLASHBOOT.UNQUOTED', `flashBootType came back as ${JSON.stringify(flash.flashBootType)}`));
      const same = { id: flash.id, name: flash.name, gpuIds: flash.gpuIds, templateId: template.id };
      // Each scaler type, then the worker counts and idle timeout; then 0 workers, so that the endpoint can be deleted.
      const res = await gql.send(doc.mutation([
        ...allowed.scalerType.map((scalerType, i): [string, string] => [`scaler${i}`, field.saveEndpoint({ ...same, scalerType, scalerValue: 3 })]),
        ['workers', field.saveEndpoint({ ...same, idleTimeout: 17, workersMin: 0, workersMax: 2 })],
        ['zero', field.saveEndpoint({ ...same, workersMin: 0, workersMax: 0 }, 'id')],
        ['tidy', field.deleteEndpoint(flash.id)],
      ]));
      const { shape, fields } = fieldsConformance(res, [
        ...allowed.scalerType.map((_, i) => ({ alias: `scaler${i}`, rule: 'ENDPOINT.SCALER_TYPE.VALUES' })),
        { alias: 'workers', rule: 'ENDPOINT.WORKERS_MAX' },
      ]);
      conform(shape, ...Object.values(fields).map((f) => f.findings));
      conform(...allowed.scalerType.map((scalerType, i) => {
        const e = fields[`scaler${i}`]!.value as EndpointResult;
        return [...must(e.scalerType === scalerType, 'ENDPOINT.SCALER_TYPE.VALUES', `scalerType ${scalerType} came back as ${JSON.stringify(e.scalerType)}`),
          ...must(e.scalerValue === 3, 'ENDPOINT.SCALER_VALUE', `scalerValue 3 came back as ${JSON.stringify(e.scalerValue)}`)];
      }));
      const e = fields.workers!.value as EndpointResult;
      conform(
        must(e.idleTimeout === 17, 'ENDPOINT.IDLE_TIMEOUT', `idleTimeout 17 came back as ${JSON.stringify(e.idleTimeout)}`),
        must(e.workersMin === 0, 'ENDPOINT.WORKERS_MIN.ZERO', `workersMin 0 came back as ${JSON.stringify(e.workersMin)}`),
        must(e.workersMax === 2, 'ENDPOINT.WORKERS_MAX', `workersMax 2 came back as ${JSON.stringify(e.workersMax)}`),
        schemaConformance('ENDPOINT.FIELD_TYPES', 'endpoint', e),
      );
    });
});

/**
 * Inputs saveEndpoint must refuse, by the rule that refuses them: what replaces or removes a
 * field of a valid input. The required fields share a rule, so one test sends the three inputs.
 */
const refusals: { title: string; rule: string; cases: { what: string; change: Record<string, unknown>; drop?: string }[]; invalidDocument?: true }[] = [
  { title: 'without name, gpuIds or templateId: each', rule: 'GQL.SAVE_ENDPOINT.REQUIRED', invalidDocument: true,
    cases: ['name', 'gpuIds', 'templateId'].map((drop) => ({ what: `without ${drop}`, change: {}, drop })) },
  { title: 'with gpuIds outside the allowed tiers: it', rule: 'ENDPOINT.GPU_IDS.INVALID_REJECTED', cases: [{ what: 'gpuIds NVIDIA_H100_80', change: { gpuIds: 'NVIDIA_H100_80' } }] },
  { title: 'with a location outside the allowed regions: it', rule: 'ENDPOINT.LOCATIONS.ALLOWED', cases: [{ what: 'locations ATLANTIS', change: { locations: 'ATLANTIS' } }] },
  { title: 'with a scalerType other than QUEUE_DELAY and REQUEST_COUNT: it', rule: 'ENDPOINT.SCALER_TYPE.VALUES', cases: [{ what: 'scalerType GPU_UTILISATION', change: { scalerType: 'GPU_UTILISATION' } }] },
  { title: 'with a type other than QB and LB: it', rule: 'ENDPOINT.TYPE.VALUES', cases: [{ what: 'type BATCH', change: { type: 'BATCH' } }] },
  { title: 'with flashBootType written as a quoted string: it', rule: 'ENDPOINT.FLASHBOOT.QUOTED_REJECTED', invalidDocument: true, cases: [{ what: 'flashBootType "FLASHBOOT"', change: { flashBootType: 'FLASHBOOT' } }] },
];

test.describe('saveEndpoint refuses', () => {
  // Every input in one test, each judged on its own answer: one listing afterwards tells which
  // made an endpoint (by its unique name), and the nameless input, sent last, is told by the ids
  // new on the template since a listing just before it (each listing a request of a rate-limited account).
  const all = refusals.flatMap((c) => c.cases.map((k) => ({ ...k, rule: c.rule, invalidDocument: c.invalidDocument })));
  const ordered = [...all.filter((k) => k.drop !== 'name'), ...all.filter((k) => k.drop === 'name')];
  // Documents the spec's schema rejects (a required field missing, an enum quoted) are also held to BAD_DOCUMENT_REFUSED: no 5xx.
  test(`${refusals.map((c) => c.title.replace(/: (each|it)$/, '')).join('; ')}: each fails, returns no endpoint and creates nothing`,
    rules(...refusals.map((c) => c.rule), 'GQL.HTTP.BAD_DOCUMENT_REFUSED', ...FAILURE_RULES, creates({ pools: ['template'] })),
    async ({ gql }) => {
      const template = await gql.pooledTemplate(refusals[0]!.rule);
      const sent: { k: (typeof ordered)[number]; input: Record<string, unknown>; res: ApiResult }[] = [];
      let before: Set<string> | undefined;
      for (const k of ordered) {
        const input: Record<string, unknown> = { name: gql.name('bad'), gpuIds: allowed.gpuIds[0]!, templateId: template.id, ...k.change };
        if (k.drop) delete input[k.drop];
        // An endpoint of a refused save carries its unique name; without a name, it is a new id on
        // the template (the endpoints listed before are other tests' on a shared template).
        if (input.name === undefined) before ??= new Set((await gql.endpoints(k.rule)).map((e) => e.id));
        sent.push({ k, input, res: await gql.send(doc.saveEndpoint(input)) });
      }
      const listed = await gql.endpoints(refusals[0]!.rule);
      conform(sent.flatMap(({ k, input, res }) => {
        const made = listed.filter((e) => (input.name !== undefined ? e.name === input.name : !before!.has(e.id) && e.templateId === template.id && !sent.some((o) => o.input.name === e.name)));
        return [
          ...titled(k.what, graphqlFailureConformance(res, 'saveEndpoint', k.rule, { invalidDocument: k.invalidDocument })),
          ...must(made.length === 0, k.rule, `the refused saveEndpoint ${k.what} created an endpoint (${made.map((e) => e.id).join(', ')})`),
        ];
      }));
    });
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
    rules('GQL.SAVE_ENDPOINT.MODIFY', 'GQL.SAVE_ENDPOINT.UPDATE_FORM', 'GQL.SAVE_ENDPOINT.OMITTED_ON_UPDATE', 'ENDPOINT.UPDATE.GPU_OR_WORKERS', 'GQL.MYSELF.ENDPOINTS',
      creates({ endpoints: 1, pools: ['template'] })),
    async ({ gql }) => {
      const template = await gql.pooledTemplate('GQL.SAVE_ENDPOINT.MODIFY');
      const original = await gql.endpoint(template.id, 'GQL.SAVE_ENDPOINT.MODIFY', { type: 'LB', locations: allowed.locations[0], idleTimeout: 42, scalerValue: 6, workersMin: 0, workersMax: 2 });
      // The GPU tier and workersMax change; workersMin stays 0 (an always-on worker is not needed to change a count).
      const update = { id: original.id, name: original.name, gpuIds: allowed.gpuIds[1]!, templateId: template.id, workersMin: 0, workersMax: 4 };
      const res = await gql.send(doc.saveEndpoint(update));
      const { findings, value: u } = graphqlConformance<EndpointResult>(res, 'saveEndpoint', 'GQL.SAVE_ENDPOINT.UPDATE_FORM');
      conform(findings);
      const listed = await gql.endpoints('GQL.MYSELF.ENDPOINTS');
      const stored = listed.find((e) => e.id === original.id);
      observe('GQL.SAVE_ENDPOINT.OMITTED_ON_UPDATE', omittedOutcome(original, stored ?? u!));
      // A second endpoint is another id under this endpoint's unique name (the template may be shared with other tests).
      const seconds = listed.filter((e) => e.id !== original.id && e.name === original.name);
      conform(
        must(u!.id === original.id, 'GQL.SAVE_ENDPOINT.MODIFY', `the update answered id ${u!.id}, not ${original.id}`),
        must(seconds.length === 0, 'GQL.SAVE_ENDPOINT.MODIFY', `the update made a second endpoint: ${seconds.map((e) => e.id).join(', ')}`),
      );
      // The changes are looked for on this endpoint only once the update reached it.
      conform(
        must(stored?.gpuIds === update.gpuIds, 'ENDPOINT.UPDATE.GPU_OR_WORKERS', `gpuIds is ${stored?.gpuIds} after changing it to ${update.gpuIds}`),
        must(stored?.workersMin === 0 && stored.workersMax === 4, 'ENDPOINT.UPDATE.GPU_OR_WORKERS', `workers are ${stored?.workersMin}/${stored?.workersMax} after changing them to 0/4`),
        must(u!.gpuIds === update.gpuIds && u!.workersMax === 4, 'GQL.SAVE_ENDPOINT.UPDATE_FORM', `the update result does not carry the changes: ${JSON.stringify(u)}`),
      );
    });
});
