import { test } from '../../support/fixtures.js';
import { conform, must, observe, needs, rules } from '../../support/rules.js';
import { statusCodeConformance } from '../../checks/status.js';
import { conformanceEndpoint } from '../serverless/support/jobs.js';
import { OPERATIONS } from '../../../lib/operations.gen.js';

test.describe('HTTP hygiene', () => {
  test('JSON answers are labelled application/json', rules('HTTP.JSON.CONTENT_TYPE'), async ({ api }) => {
    const res = await api.op('listPods');
    // OBSERVED (platform notes): recorded, never failed.
    observe('HTTP.JSON.CONTENT_TYPE', { operation: 'listPods', status: res.status, contentType: res.headers['content-type'] ?? null });
  });

  // The spec names the paths GET /v2/catalog/cpus and GET /v2/catalog/datacenters (and POST
  // /v2/pods, checked where pods are made): those must be served. Listing pods and the GPU
  // catalog are named without a path ("paths and payloads: not shown"), so what a target answers
  // at the platform's /v2/pods and /v2/catalog/gpus is recorded, never failed.
  test('REST v2 operations are served under /v2/', rules('VERSION.REST_V2.PREFIX', 'HTTP.BASE_URL.REST_V2', 'VERSION.REST_V2.UNNAMED_PATHS'), async ({ api }) => {
    for (const op of ['listCpuFlavors', 'listDataCenters'] as const) {
      const res = await api.op(op);
      // The spec gives these operations no success status: any 2xx serves them.
      conform(statusCodeConformance('VERSION.REST_V2.PREFIX', res, 'success'),
        must(res.status !== 404 && res.status !== 405, 'HTTP.BASE_URL.REST_V2', `${res.operation} under {base_url}/v2/ is not served: ${res.status}`, res));
    }
    const unnamed: Record<string, { path: string; status: number }> = {};
    for (const op of ['listPods', 'listGpuTypes'] as const) {
      const res = await api.op(op);
      unnamed[op] = { path: OPERATIONS[op].path, status: res.status };
    }
    observe('VERSION.REST_V2.UNNAMED_PATHS', unnamed);
  });
});

test.describe('the four surfaces', () => {
  test('the target serves REST v2, the serverless job operations, REST v1 and GraphQL', rules('SERVICE.SURFACES.FOUR', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const endpointId = conformanceEndpoint(target, emu);
    // "Served" means the operation exists: an authenticated call is not answered 404 or 405.
    const answers = [
      await api.op('listPods'),
      await api.op('getHealth', { params: { endpointId } }),
      await api.op('createEndpointV1', { body: {} }),
      await api.graphql('query { myself { id } }'),
    ];
    conform(...answers.map((res) => must(res.status !== 404 && res.status !== 405, 'SERVICE.SURFACES.FOUR', `${res.operation} answered ${res.status}: the surface is not served`, res)));
  });
});
