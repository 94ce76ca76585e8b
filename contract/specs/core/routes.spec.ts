import { test } from '../../support/fixtures.js';
import { conform, observe, rules } from '../../support/rules.js';
import { statusCodeConformance } from '../../checks/status.js';

test.describe('HTTP hygiene', () => {
  test('JSON answers are labelled application/json', rules('HTTP.JSON.CONTENT_TYPE'), async ({ api }) => {
    const res = await api.op('listPods');
    // OBSERVED (platform notes): recorded, never failed.
    observe('HTTP.JSON.CONTENT_TYPE', { operation: 'listPods', status: res.status, contentType: res.headers['content-type'] ?? null });
  });

  test('REST v2 operations are served under /v2/', rules('VERSION.REST_V2.PREFIX', 'HTTP.BASE_URL.REST_V2'), async ({ api }) => {
    for (const op of ['listPods', 'listGpuTypes', 'listCpuFlavors', 'listDataCenters'] as const) {
      const res = await api.op(op);
      conform(statusCodeConformance('VERSION.REST_V2.PREFIX', res, 200));
    }
  });
});
