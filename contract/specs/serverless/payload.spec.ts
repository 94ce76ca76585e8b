import { countsAreOwn, test } from '../../support/fixtures.js';
import { conform, must, needs, rules } from '../../support/rules.js';
import { jobCounters } from '../../checks/health-conformance.js';
import { jobsFor, type Jobs } from './support/jobs.js';
import { MB, MIB, PAYLOAD_LIMIT_MB } from '../../../lib/iso/spec-constants.js';

// Spec, Limits: "Maximum payload | 20 MB | `/runsync`" and "Maximum payload | 10 MB | `/run`". Bodies within the
// limit are sized in decimal megabytes (accepted on either reading of MB); bodies over it exceed even 1 MB = 2^20 bytes.

/** A `{input}` body of exactly `bytes` bytes; the handler streams one small item, so nothing large comes back. */
function bodyOf(bytes: number): string {
  const shell = JSON.stringify({ input: { stream: 1, pad: '' } });
  return JSON.stringify({ input: { stream: 1, pad: 'x'.repeat(bytes - shell.length) } });
}

/**
 * The endpoint's job total, read only where the counts are the test's own (countsAreOwn): on a
 * shared target no check reads it, so it is not asked for.
 */
const jobTotal = async (jobs: Jobs, own: boolean): Promise<number | undefined> => {
  if (!own) return undefined;
  const c = jobCounters(await jobs.health());
  return c.completed + c.failed + c.inQueue + c.inProgress;
};

// Each limit is sent at the limit itself (the largest body within it) and just over it: the body
// at the limit is accepted by a target that accepts any smaller one, so no smaller one is sent.
const cases: readonly { op: 'run' | 'runSync'; path: string; rule: string; within: number; over?: number }[] = [
  { op: 'run', path: 'run', rule: 'LIMIT.RUN.PAYLOAD_10MB', within: PAYLOAD_LIMIT_MB.run * MB, over: PAYLOAD_LIMIT_MB.run * MIB + MB },
  { op: 'runSync', path: 'runsync', rule: 'LIMIT.RUNSYNC.PAYLOAD_20MB', within: PAYLOAD_LIMIT_MB.runsync * MB, over: PAYLOAD_LIMIT_MB.runsync * MIB + MB },
];

test.describe('payload limits', () => {
  for (const c of cases) {
    test(`/${c.path} accepts ${c.within / MB} MB${c.over ? ` and refuses ${(c.over / MB).toFixed(1)} MB, creating no job` : ''}`, rules(c.rule, needs('workerEndpoint')), async ({ api, emu, target }) => {
      const jobs = jobsFor({ api, emu, target });
      const send = (bytes: number) => api.op(c.op, { params: { endpointId: jobs.endpointId }, rawBody: bodyOf(bytes), contentType: 'application/json', timeoutMs: 120_000, brokenConnectionExpected: bytes > c.within });
      const accepted = await send(c.within);
      const findings = must(accepted.status >= 200 && accepted.status < 300 && typeof (accepted.body as { id?: unknown } | undefined)?.id === 'string', c.rule,
        `a ${c.within} byte body was refused: ${accepted.status} ${accepted.text.slice(0, 200)}`);
      if (c.over !== undefined) {
        const own = countsAreOwn(emu, 'that the refused body created no job');
        const before = await jobTotal(jobs, own);
        const refused = await send(c.over).catch((e: Error) => e);
        const after = await jobTotal(jobs, own);
        if (refused instanceof Error) {
          // Dropping the connection is a refusal too (the body was not taken).
          findings.push(...must(after === before, c.rule, `a refused ${c.over} byte body still created a job`));
        } else {
          findings.push(
            ...must(refused.status < 200 || refused.status >= 300, c.rule, `a ${c.over} byte body was accepted: ${refused.status} ${refused.text.slice(0, 200)}`, refused),
            ...must(after === before, c.rule, `a refused ${c.over} byte body created a job (${before} → ${after} jobs)`),
          );
        }
      }
      conform(findings);
    });
  }
});
