import { test } from '../../support/fixtures.js';
import { conform, must, needs, observe, rules, titled, type Finding } from '../../support/rules.js';
import { statusCodeConformance } from '../../checks/status.js';
import { jobObjectConformance } from '../../checks/job-conformance.js';
import type { ApiClient, ApiResult, AuthChoice } from '../../../lib/client/api.js';
import type { Emu } from '../../support/fixtures.js';
import { runConfig } from '../../../lib/run-config.js';
import { TERMINAL } from './support/jobs.js';
import { lacking } from '../../support/needs.js';

/**
 * A public model endpoint id: the emulator's seeded image model, or `CPC_MODEL_ENDPOINT_ID`
 * on a real target (the spec does not list the models: "The input fields per model and the
 * list of models: not shown").
 */
function modelId(emu: Emu): string {
  const id = (emu.world?.seeded.CPC_MODEL_ENDPOINT_ID as string | undefined) ?? runConfig().modelEndpointId;
  return id ?? lacking(test.info(), 'modelEndpoint');
}

const input = { prompt: 'a red cube on a white table', width: 512, height: 512 };

/** The model's /runsync with Bearer auth (the default wait: the spec gives a model no timing of its own). */
const modelRunsync = (api: ApiClient, endpointId: string): Promise<ApiResult> =>
  api.op('runSync', { surface: 'public-model', params: { endpointId }, body: { input }, timeoutMs: 300_000 });

// Spec: "Public model endpoints: `POST {serverless_url}/v2/<model_endpoint_id>/runsync` with bearer authentication
// and body `{input: object}`; a generated image model returns its result under `output` (for example a URL field)."
// No success status and no model timing are given, and "The response of /runsync when the wait elapses before
// completion: not shown": a job object in any 2xx, with any status, is an answer.
test.describe('public model endpoints', () => {
  test('a public model answers runsync with Bearer auth: a job object', rules(
    'MODEL.RUNSYNC.BEARER', 'SERVICE.MODEL.JOB_STYLE', 'MODEL.CATALOG.NOT_SHOWN', needs('modelEndpoint'),
  ), async ({ api, emu }) => {
    const res = await modelRunsync(api, modelId(emu));
    const body = (res.body ?? {}) as { status?: string; output?: unknown };
    observe('MODEL.CATALOG.NOT_SHOWN', { model: modelId(emu), input: Object.keys(input), status: body.status ?? null, outputKeys: body.output && typeof body.output === 'object' ? Object.keys(body.output).sort() : typeof body.output });
    conform(
      statusCodeConformance('MODEL.RUNSYNC.BEARER', res, 'success'),
      jobObjectConformance(res).map((f) => ({ ...f, rule: 'SERVICE.MODEL.JOB_STYLE' })),
    );
  });

  test('a public model\'s completed runsync answer carries its result under output', rules('MODEL.RUNSYNC.OUTPUT', needs('modelEndpoint')), async ({ api, emu }) => {
    const res = await modelRunsync(api, modelId(emu));
    const body = (res.body ?? {}) as { status?: string; output?: unknown };
    // Not accepted: the request's own rule broke, and this test has no answer to read.
    conform(statusCodeConformance('MODEL.RUNSYNC.BEARER', res, 'success'));
    test.skip(body.status !== 'COMPLETED', `the model answered status ${JSON.stringify(body.status)}${TERMINAL.has(String(body.status)) ? '' : ' (not finished when /runsync answered, which the spec leaves open)'}: no completed result to read`);
    conform(must(body.output !== undefined && body.output !== null, 'MODEL.RUNSYNC.OUTPUT', `the COMPLETED answer has no output: ${res.text.slice(0, 200)}`, res));
  });

  const refused: { title: string; auth: AuthChoice }[] = [
    { title: 'no key', auth: 'none' },
    { title: 'an unknown bearer token', auth: { key: 'cpk_not_a_real_key_0000000000' } },
    { title: 'the key without the Bearer scheme', auth: { role: 'main', style: 'raw' } },
  ];
  test('public model runsync without a valid bearer token answers 401', rules('AUTH.MODEL.BEARER_401', needs('modelEndpoint')), async ({ api, emu }) => {
    const modelEndpointId = modelId(emu);
    const findings: Finding[] = [];
    for (const c of refused) {
      const res = await api.op('runSync', { surface: 'public-model', params: { endpointId: modelEndpointId }, body: { input }, auth: c.auth });
      findings.push(...titled(c.title, statusCodeConformance('AUTH.MODEL.BEARER_401', res, 401)));
    }
    conform(findings);
  });
});
