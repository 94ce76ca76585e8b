import { test, type PodKit } from '../pods/support/fixtures.js';
import { conform, must, needs, rules, titled } from '../../support/rules.js';
import { statusCodeConformance } from '../../checks/status.js';
import { problemJsonConformance } from '../../checks/problem-json.js';
import { errorBodyConformance } from '../../checks/rejection.js';
import { PROBLEM_RULES } from '../pods/support/rule-sets.js';
import type { ApiResult, AuthChoice } from '../../../lib/client/api.js';
import { madeNothing, refusals } from '../pods/support/creates.js';
import { byNeeds, credentials, type Credentials } from '../../support/needs.js';
import type { Need } from '../../../lib/needs.js';

/**
 * A createPod body that is valid on any target: the first GPU type its catalog lists, and a name
 * unique to the test. The catalog is the pod kit's, read once per worker on a real target.
 */
async function probePod(pods: PodKit, name: string): Promise<Record<string, unknown>> {
  const id = (await pods.catalog()).gpus[0]?.id ?? 'NVIDIA GeForce RTX 4090';
  return { name, image: 'busybox:latest', gpu: { id } };
}

// Spec, Authentication: "A missing, malformed, expired or invalid bearer token gets 401."
const unauthenticated: { title: string; rule: string; auth: (keys: Credentials) => AuthChoice; needs?: Need[] }[] = [
  { title: 'no Authorization header', rule: 'AUTH.REST_V2.MISSING_401', auth: () => 'none' },
  { title: 'a valid key without the Bearer scheme', rule: 'AUTH.REST_V2.MALFORMED_401', auth: () => ({ role: 'main', style: 'raw' }) },
  { title: 'a valid key in another scheme', rule: 'AUTH.REST_V2.MALFORMED_401', auth: () => ({ authorization: 'Token abc.def' }) },
  { title: 'an empty Bearer credential', rule: 'AUTH.REST_V2.MALFORMED_401', auth: () => ({ authorization: 'Bearer' }) },
  { title: 'an unknown key', rule: 'AUTH.REST_V2.INVALID_401', auth: () => ({ key: 'cpk_not_a_real_key_0000000000' }) },
  { title: 'an expired key', rule: 'AUTH.REST_V2.EXPIRED_401', auth: (keys) => ({ key: keys.expired }), needs: ['expiredKey'] },
];

test.describe('REST v2 authentication', () => {
  // The credentials any target can be given in one test, each a test of its own that needs a key
  // the run may lack: every probe is named on its own, and one listing afterwards tells which of
  // them made a pod (each listing a request of a rate-limited account; on a shared account other
  // tests create and delete pods meanwhile, so a pod is found by its unique name, never counted).
  for (const group of byNeeds(unauthenticated)) {
    const title = group.map((c) => c.title).join(', ');
    test(`createPod with ${group.length > 1 ? `each of ${title}` : title} answers 401 problem+json and creates nothing`,
      rules(...new Set(group.map((c) => c.rule)), 'ERR.CREATE_POD.401', 'POD.CREATE.ERRORS_HAVE_BODY', ...PROBLEM_RULES, needs(...group.flatMap((c) => c.needs ?? []))), async ({ api, emu, uniqueName, pods, target }) => {
        const keys = credentials(test.info(), target, emu.world?.keys);
        const refused = refusals({ api, pods, uniqueName });
        const sent: { c: (typeof group)[number]; res: ApiResult }[] = [];
        for (const c of group) sent.push({ c, res: await refused.send(await probePod(pods, uniqueName('probe')), { auth: c.auth(keys)! }, c.title) });
        const made = await refused.madeBy();
        conform(...sent.map(({ c, res }) => titled(c.title, [
          ...statusCodeConformance(c.rule, res, 401),
          ...statusCodeConformance('ERR.CREATE_POD.401', res, 401),
          // The problem rules hold error answers: an accepted request is the status rules' failure alone.
          ...(res.status >= 400 ? problemJsonConformance(res) : []),
          ...errorBodyConformance('POD.CREATE.ERRORS_HAVE_BODY', res),
          ...madeNothing(made, c.title, c.rule),
        ])));
      });
  }

  test('a valid key in the Bearer scheme is authenticated', rules('AUTH.REST_V2.BEARER_ACCEPTED'), async ({ api }) => {
    const res = await api.op('listPods');
    conform(must(res.status !== 401 && res.status !== 403, 'AUTH.REST_V2.BEARER_ACCEPTED', `listPods with a valid key answered ${res.status}`),
      statusCodeConformance('AUTH.REST_V2.BEARER_ACCEPTED', res, 'success'));
  });

  test('a key without write access gets 403 problem+json on createPod and creates nothing', rules('AUTH.REST_V2.FORBIDDEN_403', 'ERR.CREATE_POD.403', 'POD.CREATE.ERRORS_HAVE_BODY', ...PROBLEM_RULES, needs('readonlyKey')), async ({ api, uniqueName, pods }) => {
    const refused = refusals({ api, pods, uniqueName });
    const res = await refused.send(await probePod(pods, uniqueName('probe')), { auth: 'readonly' });
    conform(
      statusCodeConformance('AUTH.REST_V2.FORBIDDEN_403', res, 403),
      statusCodeConformance('ERR.CREATE_POD.403', res, 403),
      res.status >= 400 ? problemJsonConformance(res) : [],
      errorBodyConformance('POD.CREATE.ERRORS_HAVE_BODY', res),
      await refused.madeNothing('AUTH.REST_V2.FORBIDDEN_403', 'a forbidden createPod still created a pod'),
    );
  });
});
