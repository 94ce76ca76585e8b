import { test } from '../../support/fixtures.js';
import { needs, observe, rules } from '../../support/rules.js';
import { jobsFor } from './support/jobs.js';
import { MIB, PAYLOAD_LIMIT_MB } from '../../../lib/iso/spec-constants.js';

// Spec, Errors: "Errors of the serverless job operations: not shown." The suite records what the target answers.
test('errors of the job operations are recorded', rules('ERR.SERVERLESS.FORMAT', needs('workerEndpoint')), async ({ api, emu, target }) => {
  const jobs = jobsFor({ api, emu, target });
  const endpointId = jobs.endpointId;
  const cases: Record<string, () => ReturnType<typeof api.op>> = {
    'unknown job id': () => jobs.status('no-such-job-0000'),
    'unknown endpoint': () => api.op('getHealth', { params: { endpointId: 'no-such-endpoint-0000' } }),
    'malformed JSON body': () => api.op('run', { params: { endpointId }, rawBody: '{"input": ', contentType: 'application/json' }),
    'body without input': () => api.op('run', { params: { endpointId }, body: { prompt: 'x' } }),
    'input that is not an object': () => api.op('run', { params: { endpointId }, body: { input: 'text' } }),
    'body over the 10 MB /run limit': () => api.op('run', { params: { endpointId }, rawBody: JSON.stringify({ input: { pad: 'x'.repeat((PAYLOAD_LIMIT_MB.run + 1) * MIB) } }), contentType: 'application/json', timeoutMs: 120_000, brokenConnectionExpected: true }),
    'cancel of an unknown job': () => jobs.cancel('no-such-job-0000'),
  };
  const seen: Record<string, unknown> = {};
  for (const [name, send] of Object.entries(cases)) {
    const res = await send().catch((e: Error) => ({ status: 0, contentType: '', body: { error: e.message } }));
    const body = res.body as { title?: unknown; detail?: unknown } | undefined;
    seen[name] = { status: res.status, contentType: res.contentType, title: body?.title, detail: typeof body?.detail === 'string' ? body.detail.slice(0, 120) : undefined };
  }
  observe('ERR.SERVERLESS.FORMAT', seen);
});
