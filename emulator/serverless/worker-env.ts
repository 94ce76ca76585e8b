/**
 * The environment a worker on the official library needs to serve an endpoint of this emulator
 * (platform notes, "How a worker talks to the platform"): its URLs carry a query string because
 * the library appends its own parameters with `&`; `$ID` and `$RUNPOD_POD_ID` are the library's
 * placeholders, left for it to replace. `RUNPOD_POD_ID` names the worker: give each its own.
 */
export function workerEnv(baseUrl: string, endpointId: string, key: string, gpu: string, podId = 'worker-1'): Record<string, string> {
  const at = (route: string): string => `${baseUrl}/v2/${endpointId}/${route}?gpu=${encodeURIComponent(gpu)}`;
  return {
    RUNPOD_WEBHOOK_GET_JOB: at('job-take/$ID'),
    RUNPOD_WEBHOOK_POST_OUTPUT: at('job-done/$RUNPOD_POD_ID/$ID'),
    RUNPOD_WEBHOOK_POST_STREAM: at('job-stream/$RUNPOD_POD_ID/$ID'),
    RUNPOD_WEBHOOK_PING: at('ping/$RUNPOD_POD_ID'),
    RUNPOD_PING_INTERVAL: '10000',
    RUNPOD_AI_API_KEY: key,
    RUNPOD_ENDPOINT_ID: endpointId,
    RUNPOD_POD_ID: podId,
  };
}
