import { test } from './support/fixtures.js';
import { conform, creates, must, needs, observe, rules } from '../../support/rules.js';
import { graphqlConformance, graphqlFailureConformance } from '../../checks/graphql-conformance.js';
import { doc } from './support/documents.js';
import { isSuccess } from '../../checks/status.js';
import { plainOutput } from '../../checks/job-conformance.js';
import { templateExists, unusedTemplateDeletes } from './support/template-probe.js';
import type { ApiClient, ApiResult } from '../../../lib/client/api.js';
import type { Emu } from '../../support/fixtures.js';
import { TEMPLATE_DELETION_DELAY_MS } from '../../../lib/iso/spec-constants.js';

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

/** Reads /status until the job is terminal, moving the virtual clock a second at a time (bounded). */
async function untilTerminal(api: ApiClient, emu: Emu, endpointId: string, jobId: string): Promise<ApiResult> {
  let res = await api.op('getJobStatus', { params: { endpointId, jobId } });
  for (let i = 0; i < 30 && !TERMINAL.has(String((res.body as { status?: unknown } | undefined)?.status)); i++) {
    await emu.advance(1_000);
    res = await api.op('getJobStatus', { params: { endpointId, jobId } });
  }
  return res;
}

// One cross-surface story: a template saved by GraphQL, an endpoint on it, jobs run on that
// endpoint through the serverless job operations, then the lifecycle rules on the way out:
// "An endpoint can be deleted only when `workersMin` and `workersMax` are both 0"; "A template
// can be deleted only when no pod or serverless endpoint uses it; deletion can take up to 2
// minutes after the template's most recent use."
test('journey: GraphQL template and endpoint, jobs through the serverless operations, then deletion in the lifecycle order',
  rules(
    'GQL.SAVE_ENDPOINT.CREATE', 'SERVICE.QB.ADDRESS', 'SERVICE.QB.REQUESTS_BECOME_JOBS', 'TEMPLATE.DELETE.IN_USE_FAILS',
    'ENDPOINT.DELETE.NONZERO_WORKERS_FAILS', 'ENDPOINT.UPDATE.GPU_OR_WORKERS', 'ENDPOINT.DELETE.ZERO_WORKERS_OK',
    'TEMPLATE.DELETE.WITHIN_DELAY', 'LIMIT.TEMPLATE.DELETE_DELAY_2_MIN', 'GQL.ERRORS.FAILURE_SIGNALLED', 'GQL.ERRORS.NO_RESULT_FOR_FAILED_OP',
    // Its own template: the story ends by deleting it.
    creates({ endpoints: 1, templates: 1 }), needs('control'),
  ),
  async ({ api, gql, emu }) => {
    emu.require('run jobs on an endpoint this test creates (a real target would need the conformance handler image in its template) and move the clock past the 2-minute deletion delay');
    const template = await gql.serverlessTemplate('GQL.SAVE_ENDPOINT.CREATE');
    // Queue-based by its type, not by the default (GQL.SAVE_ENDPOINT.TYPE_DEFAULT_QB is checked on its own).
    const endpoint = await gql.endpoint(template.id, 'GQL.SAVE_ENDPOINT.CREATE', { type: 'QB', workersMin: 0, workersMax: 1 });
    const endpointId = endpoint.id;

    // Jobs on the new endpoint, at {serverless_url}/v2/<its id>/.
    const input = { journey: 'graphql', n: 3 };
    const sync = await api.op('runSync', { params: { endpointId }, body: { input } });
    const syncBody = sync.body as { status?: string; output?: unknown } | undefined;
    const queued = await api.op('run', { params: { endpointId }, body: { input: { journey: 'async' } } });
    const jobId = String((queued.body as { id?: unknown } | undefined)?.id);
    const done = await untilTerminal(api, emu, endpointId, jobId);
    conform(
      must(isSuccess(sync) && syncBody?.status === 'COMPLETED', 'SERVICE.QB.ADDRESS', `/v2/${endpointId}/runsync answered ${sync.status}: ${sync.text.slice(0, 200)}`),
      must(JSON.stringify(syncBody?.output) === JSON.stringify(plainOutput(input)), 'SERVICE.QB.ADDRESS', `the output ${JSON.stringify(syncBody?.output)} is not the handler's ${JSON.stringify(plainOutput(input))} (its input echoed, HANDLER.md)`),
      must(isSuccess(queued) && typeof (queued.body as { id?: unknown })?.id === 'string', 'SERVICE.QB.REQUESTS_BECOME_JOBS', `/run answered ${queued.status}: ${queued.text.slice(0, 200)}`),
      must((done.body as { status?: unknown } | undefined)?.status === 'COMPLETED', 'SERVICE.QB.REQUESTS_BECOME_JOBS', `the /run job ended as ${done.text.slice(0, 200)}`),
    );

    // The template is in use; the endpoint still has workers.
    const templateInUse = await gql.send(doc.deleteTemplate(template.name));
    const templateKept = await templateExists(gql, template);
    const endpointWithWorkers = await gql.send(doc.deleteEndpoint(endpointId));
    const endpointKept = (await gql.endpoints('ENDPOINT.DELETE.NONZERO_WORKERS_FAILS')).some((e) => e.id === endpointId);
    conform(templateKept.findings);
    conform(
      graphqlFailureConformance(templateInUse, 'deleteTemplate', 'TEMPLATE.DELETE.IN_USE_FAILS', { effect: templateKept.exists === false }),
      must(templateKept.exists === true, 'TEMPLATE.DELETE.IN_USE_FAILS', 'the template in use was deleted'),
      graphqlFailureConformance(endpointWithWorkers, 'deleteEndpoint', 'ENDPOINT.DELETE.NONZERO_WORKERS_FAILS', { effect: !endpointKept }),
      must(endpointKept, 'ENDPOINT.DELETE.NONZERO_WORKERS_FAILS', 'the endpoint with workers was deleted'),
    );

    // Scale to zero (the update form: the required fields plus the changed ones), then delete.
    const { value: scaled } = await gql.ok<{ id: string; workersMin: number; workersMax: number }>('saveEndpoint',
      doc.saveEndpoint({ id: endpointId, name: endpoint.name, gpuIds: endpoint.gpuIds, templateId: template.id, workersMin: 0, workersMax: 0 }, 'id workersMin workersMax'),
      'ENDPOINT.UPDATE.GPU_OR_WORKERS');
    // Saved under another id, the scaling did not reach this endpoint: saveEndpoint ignored the id.
    conform(must(scaled.id === endpointId, 'GQL.SAVE_ENDPOINT.MODIFY', `saveEndpoint with id ${endpointId} answered id ${scaled.id}`));
    conform(must(scaled.workersMin === 0 && scaled.workersMax === 0, 'ENDPOINT.UPDATE.GPU_OR_WORKERS', `scaling to 0 answered ${JSON.stringify(scaled)}`));
    await gql.ok('deleteEndpoint', doc.deleteEndpoint(endpointId), 'ENDPOINT.DELETE.ZERO_WORKERS_OK');
    const gone = await api.op('runSync', { params: { endpointId }, body: { input } });
    conform(must(gone.status >= 400, 'ENDPOINT.DELETE.ZERO_WORKERS_OK', `the deleted endpoint still runs jobs: ${gone.status} ${gone.text.slice(0, 200)}`));

    // The template: no user any more; deletable once the delay since its last use has passed.
    const early = await gql.send(doc.deleteTemplate(template.name));
    const earlyOk = graphqlConformance(early, 'deleteTemplate', 'TEMPLATE.DELETE.WITHIN_DELAY').findings.length === 0;
    observe('TEMPLATE.DELETE.WITHIN_DELAY', earlyOk ? 'deleted at once after its endpoint was deleted' : `refused right after its endpoint was deleted: ${early.text.slice(0, 160)}`);
    if (!earlyOk) {
      await emu.advance(TEMPLATE_DELETION_DELAY_MS);
      const later = graphqlConformance(await gql.send(doc.deleteTemplate(template.name)), 'deleteTemplate', 'LIMIT.TEMPLATE.DELETE_DELAY_2_MIN').findings;
      // A refusal is the delay's only if deleting an unused template by name works at all.
      if (later.some((f) => f.rule === 'LIMIT.TEMPLATE.DELETE_DELAY_2_MIN')) conform(await unusedTemplateDeletes(gql));
      conform(later);
    }
  });
