import type { ApiClient, ApiResult } from '../../lib/client/api.js';
import type { Emu } from '../../contract/support/fixtures.js';
import type { Health } from '../../lib/types.gen.js';
import { SetupError, throwFindings } from '../../lib/errors.js';
import { catalogGpus } from '../../contract/specs/rest-v1/support/endpoints.js';

/**
 * Fails the run with a difference between the target and the model unless `ok`: fast-check
 * shrinks the commands that led to it. The finding names the rule of the command (or of the
 * model's last transition of the job) that diverged, so the property fails that rule and blocks
 * the others it declares.
 */
export function expectModel(ok: boolean, rule: string, message: string): void {
  throwFindings(ok ? [] : [{ rule, message }]);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The system under test for one run: a fresh queue-based endpoint (created by REST v1 so
 * runs do not share jobs), its job ids by model index, and the world's clock.
 */
export class RealEndpoint {
  readonly ids: string[] = [];

  constructor(readonly api: ApiClient, readonly emu: Emu, readonly endpointId: string) {}

  static async create(api: ApiClient, emu: Emu, templateId: string, workers: number): Promise<RealEndpoint> {
    // REST v1 takes GPU type ids as the REST v2 catalog lists them (platform notes).
    const gpuTypeIds = (await catalogGpus(api, emu)).map((g) => g.id);
    const res = await api.op('createEndpointV1', { body: { name: 'model-run', templateId, gpuTypeIds, workersMin: 0, workersMax: workers, idleTimeout: 5 } });
    const id = (res.body as { id?: unknown } | undefined)?.id;
    // Setup, not a divergence: the run is blocked, its rules unchecked.
    if (typeof id !== 'string') throw new SetupError(`setup: POST /v1/endpoints answered ${res.status} ${res.text.slice(0, 200)}`, res.status);
    return new RealEndpoint(api, emu, id);
  }

  #params(jobId?: string): Record<string, string> {
    return jobId === undefined ? { endpointId: this.endpointId } : { endpointId: this.endpointId, jobId };
  }

  run(input: Record<string, unknown>): Promise<ApiResult> {
    return this.api.op('run', { params: this.#params(), body: { input } });
  }

  runsync(input: Record<string, unknown>, wait: number | undefined): Promise<ApiResult> {
    return this.api.op('runSync', { params: this.#params(), body: { input }, ...(wait !== undefined ? { query: { wait } } : {}) });
  }

  status(index: number): Promise<ApiResult> {
    return this.api.op('getJobStatus', { params: this.#params(this.ids[index]!) });
  }

  cancel(index: number): Promise<ApiResult> {
    return this.#bodiless('cancelJob', this.#params(this.ids[index]!));
  }

  retry(index: number): Promise<ApiResult> {
    return this.#bodiless('retryJob', this.#params(this.ids[index]!));
  }

  purge(): Promise<ApiResult> {
    return this.#bodiless('purgeQueue', this.#params());
  }

  /**
   * Sends a bodiless operation ("Request: none"). A refusal that `{}` would not get is a
   * divergence of JOB.HTTP.NO_REQUEST_BODY, not of the command's own rule.
   */
  async #bodiless(operation: 'cancelJob' | 'retryJob' | 'purgeQueue', params: Record<string, string>): Promise<ApiResult> {
    const res = await this.api.op(operation, { params });
    if (res.status < 400 || res.status >= 500 || [401, 403, 404, 429].includes(res.status)) return res;
    const withBody = await this.api.op(operation, { params, body: {} });
    expectModel(withBody.status < 200 || withBody.status >= 300, 'JOB.HTTP.NO_REQUEST_BODY',
      `/${operation} with no body answered ${res.status} (${res.text.slice(0, 160)}); with {} it answered ${withBody.status}`);
    return res;
  }

  async counters(): Promise<Health['jobs']> {
    const res = await this.api.op('getHealth', { params: this.#params() });
    expectModel(res.status >= 200 && res.status < 300, 'HEALTH.RESPONSE', `/health answered ${res.status}`);
    return (res.body as Health).jobs;
  }

  async advance(ms: number): Promise<void> {
    if (ms > 0) await this.emu.advance(ms);
  }

  /**
   * Waits (real time, bounded) until the endpoint shows `active` waiting or running jobs: a
   * pending request has arrived. `settled` tells whether that request already ended: answered
   * (its answer is then judged, not the count) or broken (its error, the count never to come).
   */
  async untilActive(active: number, settled: () => { error?: unknown } | undefined = () => undefined): Promise<void> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const c = await this.counters();
      if (c.inQueue + c.inProgress === active) return;
      const ended = settled();
      if (ended?.error !== undefined) throw ended.error;
      if (ended) return;
      if (Date.now() > deadline) throwFindings([{ rule: 'HEALTH.JOBS.COUNTS', message: `the endpoint shows ${c.inQueue + c.inProgress} active jobs, the model ${active}` }]);
      await sleep(5);
    }
  }
}

/** The input the conformance handler reads for a model job (HANDLER.md). */
export const handlerInput = (input: { sleepMs: number; fail: boolean }, tag: number): Record<string, unknown> =>
  input.fail ? { sleepMs: input.sleepMs, fail: `model-${tag}`, tag } : { sleepMs: input.sleepMs, tag };
