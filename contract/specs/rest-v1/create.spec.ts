import { test } from '../../support/fixtures.js';
import { conform, creates, must, needs, observe, rules } from '../../support/rules.js';
import { jobHandleConformance } from '../../checks/job-conformance.js';
import { healthConformance } from '../../checks/health-conformance.js';
import { CANDIDATES, catalogGpus, createEndpoint, deleteCreated, endpointBody, myEndpoints, setUnavailable, templateId } from './support/endpoints.js';

// Spec, Serverless endpoint creation (REST v1): "`POST {rest_v1_url}/v1/endpoints`, `application/json`, bearer
// authentication." Fields `name`, `templateId`, `gpuTypeIds` ("GPU types in priority order; the first available is
// allocated, otherwise the next"), `workersMin`, `workersMax`, `idleTimeout`. "The full parameter list and the
// response body: not shown."
test.describe('POST /v1/endpoints', () => {
  test.afterEach(async ({ api }) => deleteCreated(api));

  test('an endpoint is created from the six listed fields with a bearer key', rules(
    'V1.CREATE.ACCEPTED', 'V1.CREATE.FIELDS', 'HTTP.REST_V1_URL.PATH', 'VERSION.REST_V1.PREFIX', 'AUTH.REST_V1.BEARER_ACCEPTED',
    'V1.CREATE.RESPONSE', 'V1.RECORD.FIELDS', 'RATE.REST_V1.HEADERS', creates({ endpoints: 1 }), needs('template'),
  ), async ({ api, emu }) => {
    const body0 = endpointBody(templateId(emu), await catalogGpus(api, emu));
    const res = await createEndpoint(api, body0);
    // Other tests share the account: the new endpoint is found by this test's unique name, never by a count.
    const after = await myEndpoints(api);
    const listed = after?.filter((e) => e.name === body0.name);
    const body = res.body as Record<string, unknown> | undefined;
    observe('V1.CREATE.RESPONSE', { status: res.status, contentType: res.contentType, fields: body && typeof body === 'object' ? Object.keys(body).sort() : typeof body });
    observe('V1.RECORD.FIELDS', body && typeof body === 'object' ? Object.keys(body).filter((k) => !['name', 'templateId', 'gpuTypeIds', 'workersMin', 'workersMax', 'idleTimeout'].includes(k)).sort() : []);
    observe('RATE.REST_V1.HEADERS', { ratelimit: res.headers.ratelimit ?? null, policy: res.headers['ratelimit-policy'] ?? null });
    const created = res.status >= 200 && res.status < 300;
    conform(
      must(created, 'V1.CREATE.ACCEPTED', `POST /v1/endpoints answered ${res.status}: ${res.text.slice(0, 200)}`),
      must(created, 'V1.CREATE.FIELDS', `the six listed fields were refused: ${res.status} ${res.text.slice(0, 200)}`),
      must(created, 'HTTP.REST_V1_URL.PATH', `{rest_v1_url}/v1/endpoints answered ${res.status}`, res),
      must(res.status !== 404 && res.status !== 405, 'VERSION.REST_V1.PREFIX', `the /v1/ path {rest_v1_url}/v1/endpoints is not served: ${res.status}`),
      must(res.status !== 401 && res.status !== 403, 'AUTH.REST_V1.BEARER_ACCEPTED', `a valid bearer key got ${res.status}`),
      must(listed === undefined || listed.length === 1, 'V1.CREATE.ACCEPTED', `GraphQL myself lists ${listed?.length} endpoints named ${String(body0.name)} after the creation`),
    );
  });

  test('an endpoint created without a type is queue-based: its job operations answer', rules('V1.CREATE.QB_DEFAULT', creates({ endpoints: 1 }), needs('template')), async ({ api, emu }) => {
    const res = await createEndpoint(api, endpointBody(templateId(emu), await catalogGpus(api, emu)));
    const id = (res.body as { id?: unknown } | undefined)?.id;
    test.skip(typeof id !== 'string', `the creation answer shows no endpoint id (${res.status}); the response body is "not shown"`);
    const params = { endpointId: id as string };
    const run = await api.op('run', { params, body: { input: { echo: 'v1' } } });
    const health = await api.op('getHealth', { params });
    conform(jobHandleConformance('V1.CREATE.QB_DEFAULT', run, 'IN_QUEUE'), healthConformance(health).map((f) => ({ ...f, rule: 'V1.CREATE.QB_DEFAULT' })));
  });

  // One endpoint per candidate where availability can be set (the emulator); one elsewhere.
  test('gpuTypeIds is a priority order: the first available type is allocated, otherwise the next', rules('V1.CREATE.GPU_PRIORITY', creates({ endpoints: 1, maybe: { endpoints: CANDIDATES - 1 } }), needs('template')), async ({ api, emu }) => {
    const template = templateId(emu);
    const gpus = await catalogGpus(api, emu);
    // The endpoint's GPU tier (GraphQL gpuIds) tells which type was allocated when each candidate is in a pool of its own.
    const pools = gpus.map((g) => g.pool);
    test.skip(pools.some((p) => p === undefined) || new Set(pools).size < gpus.length,
      `the catalog does not place the GPU types ${gpus.map((g) => g.id).join(', ')} in distinct serverless pools: the allocated type cannot be told from the endpoint's GPU tier`);
    const allocated = async (): Promise<string | undefined> => {
      const res = await createEndpoint(api, endpointBody(template, gpus));
      const id = (res.body as { id?: unknown } | undefined)?.id;
      if (res.status < 200 || res.status >= 300) return `refused (${res.status})`;
      return (await myEndpoints(api))?.find((e) => e.id === id)?.gpuIds;
    };
    const named = gpus.map((g) => `${g.id} (${g.pool})`);
    if (!emu.available) {
      // Availability is unknown on a real target: the allocation must at least be one of the listed types.
      const got = await allocated();
      conform(must(pools.includes(got), 'V1.CREATE.GPU_PRIORITY', `allocated tier ${got}, none of ${named.join(', ')}`));
      return;
    }
    test.skip(gpus.length < CANDIDATES, `the catalog offers ${gpus.length} GPU type(s) in distinct pools; the order needs ${CANDIDATES}`);
    const seen: (string | undefined)[] = [];
    for (let unavailable = 0; unavailable < CANDIDATES; unavailable++) {
      await setUnavailable(emu, gpus.slice(0, unavailable).map((g) => g.id));
      seen.push(await allocated());
    }
    conform(...seen.map((got, i) => must(got === pools[i], 'V1.CREATE.GPU_PRIORITY',
      `with ${i === 0 ? 'every type available' : `${gpus.slice(0, i).map((g) => g.id).join(' and ')} unavailable`}, tier ${got} was allocated, not ${named[i]}`)));
  });
});
