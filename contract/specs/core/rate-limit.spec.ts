import { test } from '../../support/fixtures.js';
import { conform, must, needs, observe, rules } from '../../support/rules.js';
import { isSuccess, statusCodeConformance } from '../../checks/status.js';
import { problemJsonConformance } from '../../checks/problem-json.js';
import { rateLimitHeadersConformance, tooManyRequestsConformance } from '../../checks/rate-limit.js';
import type { ApiClient, ApiResult } from '../../../lib/client/api.js';

/** Calls listPods until a 429 comes, at most `max` times; returns every answer. Unpaced: the test wants its 429. */
async function exhaust(api: ApiClient, max: number, auth: 'main' | 'other' = 'main'): Promise<ApiResult[]> {
  const answers: ApiResult[] = [];
  for (let i = 0; i < max; i++) {
    const res = await api.op('listPods', { auth, pace: false });
    answers.push(res);
    if (res.status === 429) break;
  }
  return answers;
}

test.describe('rate limiting (spec, Limits)', () => {
  test('successful answers carry RateLimit and RateLimit-Policy as structured-field lists', rules(
    'RATE.HEADERS.ON_SUCCESS', 'RATE.RATELIMIT.MEMBERS', 'RATE.POLICY.MEMBERS', 'RATE.WINDOWS', 'RATE.POLICY.WINDOW_LENGTHS', 'RATE.RATELIMIT.BOUNDS',
    'RATE.QUOTAS', 'RATE.POLICY.STRING_ITEMS',
  ), async ({ api }) => {
    const res = await api.op('listPods');
    const { findings, snapshot } = rateLimitHeadersConformance(res);
    observe('RATE.QUOTAS', snapshot.policy);
    observe('RATE.POLICY.STRING_ITEMS', { policy: res.headers['ratelimit-policy'] ?? null });
    // listPods has no success status in the spec: any 2xx is a successful answer.
    conform(statusCodeConformance('RATE.HEADERS.ON_SUCCESS', res, 'success'), findings);
  });

  test('remaining only falls within a window and never goes below 0', rules('RATE.RATELIMIT.BOUNDS'), async ({ api, emu }) => {
    if (emu.available) await emu.setQuotas({ minute: 5 });
    const seen: { r: number; t: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await api.op('listPods');
      const { findings, snapshot } = rateLimitHeadersConformance(res);
      conform(findings);
      seen.push(snapshot.limit.minute!);
    }
    // Within one window r falls with every admitted request; it may rise only when a new window began (t rose).
    const broken = seen.findIndex((s, i) => i > 0 && s.r >= seen[i - 1]!.r && s.r !== 0 && s.t <= seen[i - 1]!.t);
    conform(must(broken === -1, 'RATE.RATELIMIT.BOUNDS', `minute r did not fall within the window: ${seen.map((s) => `r=${s.r};t=${s.t}`).join(', ')}`));
  });

  test('exhausting the minute window gives 429 with Retry-After, both headers and a detail naming the window; after the wait requests succeed', rules(
    'RATE.429.ON_EXCEEDED', 'RATE.429.RETRY_AFTER_INTEGER', 'RATE.429.RETRY_AFTER_WINDOW', 'RATE.429.HEADERS', 'RATE.429.DETAIL_NAMES_WINDOW', 'RATE.429.DETAIL_TEXT', needs('rateLimitExhaustion'),
  ), async ({ api, emu }) => {
    if (emu.available) await emu.setQuotas({ minute: 3 });
    const first = await api.op('listPods');
    const quota = rateLimitHeadersConformance(first).snapshot.limit.minute?.r ?? 0;
    const answers = [first, ...(await exhaust(api, quota + 2))];
    const limited = answers.find((a) => a.status === 429);
    const admitted = answers.filter(isSuccess).length;
    conform(must(limited !== undefined, 'RATE.429.ON_EXCEEDED', `no 429 after ${answers.length} requests with a minute quota of ${quota + 1}`));
    observe('RATE.429.DETAIL_TEXT', (limited!.body as { detail?: unknown }).detail ?? null);
    conform(
      must(admitted === quota + 1, 'RATE.429.ON_EXCEEDED', `429 came after ${admitted} admitted requests; the window held ${quota + 1}`),
      problemJsonConformance(limited!),
      tooManyRequestsConformance(limited!),
    );
    if (emu.available) {
      await emu.advance(Number(limited!.headers['retry-after']) * 1000);
      const again = await api.op('listPods');
      conform(statusCodeConformance('RATE.429.RETRY_AFTER_WINDOW', again, 'success'));
    }
  });

  // On a deployment (behind the exhaustion opt-in) the main key's own minute quota is spent, as
  // its RateLimit header states it; in an emulator world a quota of 2 stands for it.
  test('limits are per user: one exhausted user does not limit another', rules('RATE.PER_USER', needs('rateLimitExhaustion', 'otherKey')), async ({ api, emu }) => {
    if (emu.available) await emu.setQuotas({ minute: 2 });
    const first = await api.op('listPods', { pace: false });
    const left = rateLimitHeadersConformance(first).snapshot.limit.minute?.r ?? 0;
    // Already limited (the window spent just before): that 429 is the exhaustion, nothing more is sent.
    const mine = first.status === 429 ? [first] : [first, ...(await exhaust(api, left + 2))];
    // Unpaced: a 429 waited out and retried would hide a limit shared between users.
    const theirs = await api.op('listPods', { auth: 'other', pace: false });
    conform(
      must(mine.some((a) => a.status === 429), 'RATE.PER_USER', 'the first user was never limited'),
      statusCodeConformance('RATE.PER_USER', theirs, 'success'),
    );
  });
});
