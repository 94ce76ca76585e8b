import { test } from '../../support/fixtures.js';
import { conform, observe, needs, rules } from '../../support/rules.js';
import { statusCodeConformance } from '../../checks/status.js';
import { problemJsonConformance } from '../../checks/problem-json.js';
import type { ApiClient, ApiResult } from '../../../lib/client/api.js';
import type { Need } from '../../../lib/needs.js';

const PROBLEM_RULES = ['ERR.REST_V2.PROBLEM_JSON', 'ERR.REST_V2.TITLE', 'ERR.REST_V2.STATUS', 'ERR.REST_V2.DETAIL', 'ERR.REST_V2.ERRORS_ARRAY'];

// Spec, Errors: "Error body (REST v2): content type `application/problem+json`" with `title`,
// `status` and `detail` required; "Any other status returns an `application/problem+json` error body of the same shape."
const errorCases: { title: string; send: (api: ApiClient) => Promise<ApiResult>; needs?: Need[] }[] = [
  { title: 'a body that is not JSON', send: (api) => api.op('createPod', { rawBody: '{"name": "x",', contentType: 'application/json' }) },
  { title: 'a JSON array body', send: (api) => api.op('createPod', { body: [] }) },
  { title: 'no credentials', send: (api) => api.op('createPod', { body: { name: 'x', image: 'busybox' }, auth: 'none' }) },
  { title: 'a read-only key', send: (api) => api.op('createPod', { body: { name: 'x', image: 'busybox' }, auth: 'readonly' }), needs: ['readonlyKey'] },
  { title: 'an unknown pod id', send: (api) => api.op('getPod', { params: { podId: 'no-such-pod-000' } }) },
  { title: 'an unknown property', send: (api) => api.op('createPod', { body: { name: 'x', image: 'busybox', gpu: { id: 'x' }, colour: 'blue' } }) },
];

test.describe('REST v2 errors are problem+json', () => {
  for (const c of errorCases) {
    test(`${c.title} gets an application/problem+json error`, rules(...PROBLEM_RULES, needs(...c.needs ?? [])), async ({ api }) => {
      const res = await c.send(api);
      conform(statusCodeConformance('ERR.REST_V2.STATUS', res, 'client-error'), problemJsonConformance(res));
    });
  }

  test('createPod with malformed JSON answers 400 problem+json', rules('ERR.CREATE_POD.400_MALFORMED'), async ({ api }) => {
    const res = await api.op('createPod', { rawBody: '{"name": "x", "image": ', contentType: 'application/json' });
    conform(statusCodeConformance('ERR.CREATE_POD.400_MALFORMED', res, 400), problemJsonConformance(res));
  });

  test('unknown routes: the status is recorded, and an error answer is problem+json', rules('HTTP.UNKNOWN_ROUTE.404', ...PROBLEM_RULES), async ({ api }) => {
    const res = await api.call('rest-v2', 'GET', '/v2/no-such-collection/deeper/still');
    observe('HTTP.UNKNOWN_ROUTE.404', { status: res.status, contentType: res.contentType });
    // The spec does not list unknown routes; any REST v2 error answer must still be problem+json.
    conform(res.status >= 400 ? problemJsonConformance(res) : []);
  });
});
