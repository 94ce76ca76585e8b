import { test } from './support/fixtures.js';
import { conform, creates, must, needs, rules } from '../../support/rules.js';
import { errorBodyConformance, rejectionConformance } from '../../checks/rejection.js';
import { tooManyRequestsConformance } from '../../checks/rate-limit.js';
import { PROBLEM_RULES } from './support/rule-sets.js';

// Spec, Errors, "Status codes for `createPod`": 400, 401, 403, 422, 429, and "Any other status
// returns an `application/problem+json` error body of the same shape."
test.describe('createPod status codes', () => {
  // 401 and 403 (nothing created) are the REST v2 credential tests' (core/auth.spec.ts): each
  // refused createPod there is held to its status, problem+json and a non-empty error body.

  test('400 for a body that is not JSON', rules('ERR.CREATE_POD.400_MALFORMED', ...PROBLEM_RULES), async ({ pods }) => {
    const res = await pods.create(undefined, { rawBody: '{"name": "cpc", "image": "busybox", "gpu": {', contentType: 'application/json' });
    conform(rejectionConformance('ERR.CREATE_POD.400_MALFORMED', res, 400));
  });

  // Only in an emulator world (a small quota of its own): the two creates the window admits make two GPU pods there.
  test('429 once the minute window is exhausted, with Retry-After and both rate-limit headers', rules(
    'RATE.429.ON_EXCEEDED', 'RATE.429.RETRY_AFTER_INTEGER', 'RATE.429.RETRY_AFTER_WINDOW', 'RATE.429.HEADERS', 'RATE.429.DETAIL_NAMES_WINDOW', ...PROBLEM_RULES,
    creates({ gpuPods: 2 }), needs('control'),
  ), async ({ pods, emu }) => {
    emu.require('set a small quota so the window can be exhausted without blocking a real user');
    const body = await pods.gpuBody();
    await emu.setQuotas({ minute: 2 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await pods.create(body));
    const limited = answers.find((a) => a.status === 429);
    conform(must(limited !== undefined, 'RATE.429.ON_EXCEEDED', `no 429 among ${answers.map((a) => a.status).join(', ')} with a minute quota of 2`));
    conform(rejectionConformance('RATE.429.ON_EXCEEDED', limited!, 429), tooManyRequestsConformance(limited!));
  });

  test('another error status (415 for a non-JSON content type) still carries problem+json', rules('ERR.CREATE_POD.OTHER_STATUS', 'POD.CREATE.ERRORS_HAVE_BODY', ...PROBLEM_RULES), async ({ pods }) => {
    const res = await pods.create(undefined, { rawBody: 'name=cpc&image=busybox', contentType: 'application/x-www-form-urlencoded' });
    test.skip([400, 401, 403, 422, 429].includes(res.status), `the target answered a form body with ${res.status}, one of the listed statuses`);
    conform(rejectionConformance('ERR.CREATE_POD.OTHER_STATUS', res, 'client-error'), errorBodyConformance('POD.CREATE.ERRORS_HAVE_BODY', res));
  });
});
