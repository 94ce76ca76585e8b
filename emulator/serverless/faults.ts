import type { FaultDef } from '../switches.js';

/**
 * Faults of the serverless surface (job operations, public models, REST v1), each breaking
 * one MUST rule; `contract/specs/serverless` and `contract/specs/rest-v1` must fail that rule
 * when it is on (see emulator/faults.ts).
 */
export const serverlessFaults = {
  'serverless.run-status-in-progress': { rule: 'JOB.RUN.RESPONSE', description: '/run answers status IN_PROGRESS instead of IN_QUEUE.' },
  'serverless.runsync-no-sync-prefix': { rule: 'JOB.OBJECT.SYNC_PREFIX', description: '/runsync job ids carry no sync prefix.' },
  'serverless.completed-no-delay-time': { rule: 'JOB.OBJECT.TIMES_ON_COMPLETED', description: 'Completed job objects omit delayTime.' },
  'serverless.status-no-output': { rule: 'JOB.STATUS.RESPONSE', description: '/status of a COMPLETED job omits its output.' },
  'serverless.bodyless-post-refused': { rule: 'JOB.HTTP.NO_REQUEST_BODY', description: '/cancel, /retry and /purge-queue sent with no body answer 400 (a JSON body required).' },
  'serverless.purge-status-uppercase': { rule: 'JOB.PURGE.RESPONSE', description: '/purge-queue answers status "COMPLETED" instead of "completed".' },
  'serverless.purge-removes-running': { rule: 'JOB.STATE.PURGE_KEEPS_RUNNING', description: '/purge-queue also removes the jobs already running.' },
  'serverless.purge-count-off-by-one': { rule: 'JOB.PURGE.REMOVED_COUNT', description: '/purge-queue reports one job more than it removed.' },
  'serverless.retry-completed-accepted': { rule: 'JOB.STATE.RETRY_NOT_REQUEUED_OTHERWISE', description: '/retry requeues a COMPLETED job.' },
  'serverless.retry-new-id': { rule: 'JOB.STATE.RETRY_SAME_ID', description: '/retry answers a new job id.' },
  'serverless.retry-keeps-output': { rule: 'JOB.STATE.RETRY_OUTPUT_REMOVED', description: 'A FAILED job shows the items it streamed as output (as the variant jobs.failed-shows-output), and /retry keeps that output.' },
  'serverless.retry-timed-out-refused': { rule: 'JOB.STATE.RETRY_TIMED_OUT', description: '/retry refuses TIMED_OUT jobs.' },
  'serverless.retry-after-expiry': { rule: 'LIMIT.RETRY.AFTER_EXPIRY', description: 'A failed job whose result expired can still be retried.' },
  'serverless.cancel-running-ignored': { rule: 'JOB.STATE.CANCEL_IN_PROGRESS', description: '/cancel of a running job answers CANCELLED but the job runs on to COMPLETED.' },
  'serverless.cancel-queued-still-runs': { rule: 'JOB.STATE.CANCEL_QUEUED', description: '/cancel of a queued job answers CANCELLED but the job still runs.' },
  'serverless.runsync-retention-30s': { rule: 'LIMIT.RUNSYNC.RETENTION_1_MIN', description: '/runsync results expire 30 s after completion instead of 1 minute.' },
  'serverless.wait-retention-10min': { rule: 'LIMIT.RUNSYNC.RETENTION_WAIT_5_MIN', description: '/runsync results with wait are kept 10 minutes instead of at most 5.' },
  'serverless.run-retention-10min': { rule: 'LIMIT.RUN.RETENTION_30_MIN', description: '/run results expire after 10 minutes instead of 30.' },
  'serverless.run-limit-5mb': { rule: 'LIMIT.RUN.PAYLOAD_10MB', description: '/run refuses bodies over 5 MB instead of 10 MB.' },
  'serverless.runsync-limit-10mb': { rule: 'LIMIT.RUNSYNC.PAYLOAD_20MB', description: '/runsync refuses bodies over 10 MB instead of 20 MB.' },
  'serverless.default-wait-30s': { rule: 'LIMIT.RUNSYNC.DEFAULT_WAIT_90S', description: '/runsync without wait gives up after 30 s instead of 90 s.' },
  'serverless.wait-max-120s': { rule: 'LIMIT.RUNSYNC.WAIT_RANGE', description: '/runsync refuses wait values over 120000 ms.' },
  'serverless.wait-ignored': { rule: 'LIMIT.RUNSYNC.WAIT_CONTROLS_WAITING', description: '/runsync ignores wait and always waits 90 s.' },
  'serverless.stream-chunk-over-1mb': { rule: 'STREAM.CHUNK.MAX_1MB', description: 'Large output is streamed in chunks of 1.5 MB.' },
  'serverless.stream-metrics-no-scenario': { rule: 'STREAM.ITEM.TEXT_GEN_METRICS', description: 'Stream item metrics omit scenario.' },
  'serverless.health-missing-retried': { rule: 'HEALTH.JOBS', description: '/health omits jobs.retried.' },
  'serverless.health-no-idle-workers': { rule: 'HEALTH.WORKERS', description: '/health omits workers.idle.' },
  'serverless.health-counters-frozen': { rule: 'HEALTH.JOBS.COUNTS', description: '/health reports inQueue and inProgress as 0 whatever the jobs do.' },
  'serverless.other-account-visible': { rule: 'AUTH.SERVERLESS.OTHER_ACCOUNT', description: 'Another account\'s endpoint and jobs answer as if they were the caller\'s.' },
  'serverless.readonly-can-run': { rule: 'AUTH.SERVERLESS.FORBIDDEN_403', description: 'A read-only key may submit jobs.' },
  'serverless.no-automatic-retry': { rule: 'SERVICE.QB.AUTOMATIC_RETRIES', description: 'A failed job is never retried by the platform.' },
  'serverless.worker-done-ignored': { rule: 'JOB.RUNSYNC.RESPONSE', description: 'The platform ignores a worker\'s result (job-done): the job stays IN_PROGRESS until its execution timeout ends it TIMED_OUT.' },
  'serverless.worker-stream-item-lost': { rule: 'STREAM.RESPONSE.ITEMS', description: 'The platform loses the second stream item a worker sends (job-stream): /stream never hands it out.' },
  'serverless.worker-stop-not-sent': { rule: 'JOB.STATE.CANCEL_IN_PROGRESS', description: 'A cancel never reaches the running job\'s worker (no job-stop): the job runs on and its result is taken, COMPLETED after CANCELLED.' },
  'serverless.status-ttl-ignored': { rule: 'JOB.STATUS.TTL', description: '/status ignores ttl.' },
  // A target far from the spec: an operation missing, on another method, or a page instead of JSON
  // (emulator/http/missing.ts). Each fails only the operation's own rule; every other rule that
  // needs the operation is blocked, naming the answer.
  'serverless.health-route-missing': { rule: 'HEALTH.SERVED', description: 'GET /health is not served: it answers 404 as an unknown route does.' },
  'serverless.status-wrong-method': { rule: 'JOB.STATUS.SERVED', description: '/status is served on POST only: GET /status/<job_id> answers 405.' },
  'serverless.stream-html-page': { rule: 'STREAM.SERVED', description: 'GET /stream/<job_id> answers 200 with an HTML page.' },
  'model.raw-key-accepted': { rule: 'AUTH.MODEL.BEARER_401', description: 'A public model endpoint accepts the key without the Bearer scheme.' },
  'model.output-missing': { rule: 'MODEL.RUNSYNC.OUTPUT', description: 'A public model runsync answer has no output.' },
  'v1.ignores-gpu-priority': { rule: 'V1.CREATE.GPU_PRIORITY', description: 'POST /v1/endpoints allocates the last available GPU type, not the first.' },
  'v1.readonly-can-create': { rule: 'AUTH.REST_V1.FORBIDDEN_403', description: 'A read-only key may create endpoints.' },
} as const satisfies Record<string, FaultDef>;

declare module '../switches.js' {
  // Adds this table's ids to the fault ids a world knows (switches.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds members
  interface FaultRegistry extends Record<keyof typeof serverlessFaults, FaultDef> {}
}
