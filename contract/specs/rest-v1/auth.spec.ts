import { test } from '../../support/fixtures.js';
import { conform, must, needs, rules, titled } from '../../support/rules.js';
import { statusCodeConformance } from '../../checks/status.js';
import type { AuthChoice } from '../../../lib/client/api.js';
import { catalogGpus, createEndpoint, deleteCreated, endpointBody, myEndpoints, templateId } from './support/endpoints.js';
import { byNeeds, credentials, type Credentials } from '../../support/needs.js';
import type { Need } from '../../../lib/needs.js';

// Spec, Authentication: "REST v2 and REST v1 | HTTP bearer scheme: header `Authorization: Bearer <API_KEY>`."
// "A missing, malformed, expired or invalid bearer token gets 401." "A valid key lacking access to a resource or
// action gets 403." (REST v1 error bodies are not specified, so only the status is held to.)
const refused: { title: string; rule: string; status: number; auths: (keys: Credentials) => { what: string; auth: AuthChoice }[]; needs?: Need[] }[] = [
  { title: 'no Authorization header', rule: 'AUTH.REST_V1.MISSING_401', status: 401, auths: () => [{ what: 'no Authorization header', auth: 'none' }] },
  // Two malformed headers, one rule: one test sends both.
  { title: 'the key without the Bearer scheme, or another scheme', rule: 'AUTH.REST_V1.MALFORMED_401', status: 401, auths: () => [{ what: 'the key without the Bearer scheme', auth: { role: 'main', style: 'raw' } }, { what: 'another scheme', auth: { authorization: 'Token abc.def' } }] },
  { title: 'an unknown bearer token', rule: 'AUTH.REST_V1.INVALID_401', status: 401, auths: () => [{ what: 'an unknown bearer token', auth: { key: 'cpk_not_a_real_key_0000000000' } }] },
  { title: 'an expired key', rule: 'AUTH.REST_V1.EXPIRED_401', status: 401, auths: (keys) => [{ what: 'an expired key', auth: { key: keys.expired } }], needs: ['expiredKey'] },
  { title: 'a key without write access', rule: 'AUTH.REST_V1.FORBIDDEN_403', status: 403, auths: () => [{ what: 'a key without write access', auth: 'readonly' }], needs: ['readonlyKey'] },
];

test.describe('REST v1 authentication', () => {
  test.afterEach(async ({ api }) => deleteCreated(api));

  // The credentials any target can be given in one test, each credential a needed key stands
  // for in a test of its own: one listing afterwards tells which request made an endpoint.
  for (const group of byNeeds(refused)) {
    const status = [...new Set(group.map((c) => c.status))].join(' or ');
    test(`POST /v1/endpoints with ${group.map((c) => c.title).join(', ')} answers ${status} and creates nothing`,
      rules(...group.map((c) => c.rule), needs('template', ...group.flatMap((c) => c.needs ?? []))), async ({ api, emu, target }) => {
        const keys = credentials(test.info(), target, emu.world?.keys);
        const gpus = await catalogGpus(api, emu);
        const sent = [];
        for (const c of group) {
          for (const { what, auth } of c.auths(keys)) {
            const body = endpointBody(templateId(emu), gpus);
            sent.push({ c, what, body, res: await createEndpoint(api, body, auth) });
          }
        }
        // Other tests share the account: an endpoint of these requests carries one of this test's unique names.
        const listed = await myEndpoints(api);
        conform(...sent.map(({ c, what, body, res }) => {
          const made = listed?.filter((e) => e.name === body.name) ?? [];
          return [
            ...titled(what, statusCodeConformance(c.rule, res, c.status)),
            ...must(made.length === 0, c.rule, `${what}: a refused creation still created an endpoint (${made.map((e) => e.id).join(', ')})`),
          ];
        }));
      });
  }
});
