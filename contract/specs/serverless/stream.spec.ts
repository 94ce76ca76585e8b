import { test } from '../../support/fixtures.js';
import { conform, must, needs, observe, rules, type Finding } from '../../support/rules.js';
import { jobJsonConformance } from '../../checks/job-conformance.js';
import { streamItemsConformance, streamItemsOf, MAX_CHUNK_BYTES } from '../../checks/stream-conformance.js';
import { isSuccess } from '../../checks/status.js';
import type { ApiResult } from '../../../lib/client/api.js';
import { REAL_POLL, TERMINAL, type Jobs, jobsFor } from './support/jobs.js';

/**
 * Polls /stream until the job has ended and nothing more comes; returns every item and each
 * answer. In real time the pause between polls backs off as status polling does (REAL_POLL):
 * items a poll does not take wait for the next one, so fewer polls lose nothing. Once the job
 * has ended no item can still be produced, and the poll that confirms nothing more comes
 * follows at once.
 */
async function collect(jobs: Jobs, id: string): Promise<{ items: unknown[]; answers: ApiResult[]; findings: Finding[] }> {
  const items: unknown[] = [];
  const answers: ApiResult[] = [];
  const findings: Finding[] = [];
  const deadline = Date.now() + 120_000;
  let pauseMs: number = REAL_POLL.firstMs;
  for (let polls = 0; polls < 500 && Date.now() < deadline; polls++) {
    const res = await jobs.stream(id);
    answers.push(res);
    const got = streamItemsOf(res);
    findings.push(...got.findings, ...jobJsonConformance(res));
    items.push(...got.items);
    const status = (res.body as { status?: string } | undefined)?.status;
    if (!isSuccess(res) || got.findings.length) break;
    if (status !== undefined && TERMINAL.has(status) && got.items.length === 0) break;
    if (jobs.emu.available) await jobs.emu.advance(1_000);
    else if (status === undefined || !TERMINAL.has(status)) {
      await new Promise((r) => setTimeout(r, Math.min(pauseMs, Math.max(0, deadline - Date.now()))));
      pauseMs = Math.min(pauseMs * 2, REAL_POLL.maxMs);
    }
  }
  return { items, answers, findings };
}

// Spec: "Stream | `GET /stream/<job_id>` | none | Array of stream items." and the text-generation stream item;
// Limits: "Single stream chunk | 1 MB; larger output is split across chunks".
test.describe('/stream', () => {
  test('a streaming job yields text-generation items with output and metrics', rules(
    'STREAM.RESPONSE.ITEMS', 'STREAM.ITEM.SHAPE', 'STREAM.ITEM.TEXT_GEN_OUTPUT', 'STREAM.ITEM.TEXT_GEN_METRICS', 'STREAM.RESPONSE.ENVELOPE', 'STREAM.CHUNK.MAX_1MB', 'JOB.HTTP.JSON', needs('workerEndpoint'),
  ), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const id = await jobs.submit({ stream: 5, chunkMs: 1_000, prompt: 'count to five' });
    const { items, answers, findings } = await collect(jobs, id);
    const first = answers[0]?.body;
    observe('STREAM.RESPONSE.ENVELOPE', Array.isArray(first) ? 'array' : { keys: Object.keys((first ?? {}) as object).sort(), polls: answers.length });
    conform(
      findings,
      must(items.length === 5, 'STREAM.RESPONSE.ITEMS', `a handler yielding 5 items gave ${items.length} over ${answers.length} polls`, answers.at(-1)),
      streamItemsConformance(items, `/stream/${id}`),
    );
  });

  test('an output over 1 MB is split across several items of at most 1 MB', rules('STREAM.CHUNK.SPLIT', 'STREAM.CHUNK.MAX_1MB', 'STREAM.ITEM.TEXT_GEN_OUTPUT', needs('workerEndpoint')), async ({ api, emu, target }) => {
    const jobs = jobsFor({ api, emu, target });
    const outputBytes = 2_500_000;
    const id = await jobs.submit({ outputBytes });
    const { items, answers, findings } = await collect(jobs, id);
    const sizes = items.map((i) => Buffer.byteLength(JSON.stringify(i)));
    const text = items.map((i) => ((i as { output?: { text?: string[] } }).output?.text ?? []).join('')).join('');
    // The counts are read from the /stream answers: the last one carries them (and, if /stream
    // is not there, blocks them: contract/support/availability.ts).
    const last = answers.at(-1);
    conform(
      findings,
      streamItemsConformance(items, `/stream/${id}`),
      must(items.length >= Math.ceil(outputBytes / MAX_CHUNK_BYTES), 'STREAM.CHUNK.SPLIT', `2.5 MB of output came in ${items.length} item(s)${sizes.length ? ` of ${sizes.join(', ')} bytes` : ''} over ${answers.length} poll(s)`, last),
      must(sizes.every((s) => s <= MAX_CHUNK_BYTES), 'STREAM.CHUNK.SPLIT', `item sizes ${sizes.join(', ')} exceed 1 MB`, last),
      must(text.length === outputBytes, 'STREAM.CHUNK.SPLIT', `the items carry ${text.length} characters of text, not the ${outputBytes} produced`, last),
    );
  });
});
