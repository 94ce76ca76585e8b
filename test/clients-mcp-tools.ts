/**
 * Every tool of the platform's MCP server (`@runpod/mcp-server` 4.0.0), as the emulator serves
 * it. SERVED: the tool calls an operation the spec names (or its REST v2 reads and writes the
 * platform notes describe), and test/clients-mcp.test.ts exercises it. UNSERVED: the tool calls
 * an operation outside the spec; the emulator answers it as an unknown route (404 problem+json),
 * or, for tools that read the platform's public GraphQL catalog without a key, 401. The test
 * calls each once with these arguments and requires that status.
 */
export interface ServedTool { operation: string; does: string }
export interface UnservedTool { calls: string; args: Record<string, unknown>; status: number }

export const SERVED: Record<string, ServedTool> = {
  'list-pods': { operation: 'listPods', does: 'the caller\'s pods' },
  'create-pod': { operation: 'createPod', does: 'creates a GPU or CPU pod; takes startSsh, startJupyter, templateId and the CUDA constraints in gpu' },
  'get-pod': { operation: 'getPod', does: 'one pod, with cudaVersion and ssh' },
  'update-pod': { operation: 'updatePod', does: 'PATCH of the mutable fields; unknown properties refused' },
  'delete-pod': { operation: 'deletePod', does: 'deletes the pod (204)' },
  'pod-action': { operation: 'podAction', does: 'start, stop, restart, terminate, by status (409 otherwise)' },
  'stream-pod-logs': { operation: 'GET /v2/pods/{id}/logs', does: 'server-sent log lines up to the virtual now, by source, tail, since' },
  'list-gpu-types': { operation: 'listGpuTypes', does: 'the GPU catalog' },
  'get-gpu-type': { operation: 'getGpuType', does: 'one GPU type; unknown: 404' },
  'list-cpu-types': { operation: 'listCpuFlavors', does: 'the CPU flavors' },
  'get-cpu-type': { operation: 'getCpuFlavor', does: 'one CPU flavor' },
  'list-data-centers': { operation: 'listDataCenters', does: 'the data centers' },
  'get-data-center': { operation: 'getDataCenter', does: 'one data center' },
  'list-network-volumes': { operation: 'listNetworkVolumes', does: 'the caller\'s volumes' },
  'create-network-volume': { operation: 'createNetworkVolume', does: 'creates a volume (201); size 10..4096' },
  'get-network-volume': { operation: 'getNetworkVolume', does: 'one volume' },
  'update-network-volume': { operation: 'updateNetworkVolume', does: 'renames or grows a volume' },
  'delete-network-volume': { operation: 'deleteNetworkVolume', does: 'deletes a volume' },
  'run-endpoint': { operation: 'run', does: 'queues a job for the conformance handler' },
  'runsync-endpoint': { operation: 'runSync', does: 'runs a job and waits for it' },
  'get-job-status': { operation: 'getJobStatus (and its wait loop)', does: 'a job\'s status and output' },
  'stream-job': { operation: 'streamJob', does: 'collects a streaming job\'s items until it ends' },
  'cancel-job': { operation: 'cancelJob', does: 'cancels a queued or running job' },
  'retry-job': { operation: 'retryJob', does: 'requeues a FAILED or TIMED_OUT job' },
  'endpoint-health': { operation: 'getHealth', does: 'job and worker counts' },
  'purge-endpoint-queue': { operation: 'purgeQueue', does: 'removes queued jobs' },
};

const ID = { id: 'none-0' };
const BODY = { body: {} };

export const UNSERVED: Record<string, UnservedTool> = {
  'list-endpoints': { calls: 'GET /v2/serverless', args: {}, status: 404 },
  'get-endpoint': { calls: 'GET /v2/serverless/{id}', args: ID, status: 404 },
  'create-endpoint': { calls: 'POST /v2/serverless', args: BODY, status: 404 },
  'update-endpoint': { calls: 'PATCH /v2/serverless/{id}', args: { ...ID, ...BODY }, status: 404 },
  'delete-endpoint': { calls: 'DELETE /v2/serverless/{id}', args: ID, status: 404 },
  'set-endpoint-gpus': { calls: 'GET then PATCH /v2/serverless/{id}', args: { endpointId: 'none-0', gpuIds: 'ADA_24' }, status: 404 },
  'list-endpoint-builds': { calls: 'GET /v2/serverless/{id}/builds', args: ID, status: 404 },
  'get-endpoint-build': { calls: 'GET /v2/serverless/{id}/builds/{buildId}', args: { ...ID, buildId: 'b-0' }, status: 404 },
  'list-endpoint-releases': { calls: 'GET /v2/serverless/{id}/releases', args: ID, status: 404 },
  'list-endpoint-workers': { calls: 'GET /v2/serverless/{id}/workers', args: ID, status: 404 },
  'stream-worker-logs': { calls: 'GET /v2/serverless/{id}/workers/{workerId}/logs', args: { endpointId: 'none-0', workerId: 'w-0', maxWaitMs: 1000 }, status: 404 },
  'list-templates': { calls: 'GET /v2/templates', args: {}, status: 404 },
  'get-template': { calls: 'GET /v2/templates/{id}', args: ID, status: 404 },
  'create-template': { calls: 'POST /v2/templates', args: BODY, status: 404 },
  'update-template': { calls: 'PATCH /v2/templates/{id}', args: { ...ID, ...BODY }, status: 404 },
  'delete-template': { calls: 'DELETE /v2/templates/{id}', args: ID, status: 404 },
  'list-public-templates': { calls: 'GET /v2/catalog/templates', args: {}, status: 404 },
  'list-clusters': { calls: 'GET /v2/clusters', args: {}, status: 404 },
  'get-cluster': { calls: 'GET /v2/clusters/{id}', args: ID, status: 404 },
  'create-cluster': { calls: 'POST /v2/clusters', args: BODY, status: 404 },
  'update-cluster': { calls: 'PATCH /v2/clusters/{id}', args: { ...ID, ...BODY }, status: 404 },
  'delete-cluster': { calls: 'DELETE /v2/clusters/{id}', args: ID, status: 404 },
  'list-cluster-pods': { calls: 'GET /v2/clusters/{id}/pods', args: ID, status: 404 },
  'list-registries': { calls: 'GET /v2/registries', args: {}, status: 404 },
  'get-registry': { calls: 'GET /v2/registries/{id}', args: ID, status: 404 },
  'create-registry': { calls: 'POST /v2/registries', args: BODY, status: 404 },
  'delete-registry': { calls: 'DELETE /v2/registries/{id}', args: ID, status: 404 },
  'list-delegations': { calls: 'GET /v2/registries/delegations', args: {}, status: 404 },
  'create-delegation': { calls: 'POST /v2/registries/delegations', args: BODY, status: 404 },
  'revoke-delegation': { calls: 'DELETE /v2/registries/delegations/{id}', args: ID, status: 404 },
  'get-ssh-keys': { calls: 'GET /v2/account/ssh-keys', args: {}, status: 404 },
  'update-ssh-keys': { calls: 'PUT /v2/account/ssh-keys', args: BODY, status: 404 },
  'list-billing': { calls: 'GET /v2/billing', args: {}, status: 404 },
  'list-pod-billing': { calls: 'GET /v2/billing/pods', args: {}, status: 404 },
  'list-cluster-billing': { calls: 'GET /v2/billing/clusters', args: {}, status: 404 },
  'list-endpoint-billing': { calls: 'GET /v2/billing/endpoints', args: {}, status: 404 },
  'list-network-volume-billing': { calls: 'GET /v2/billing/network-volumes', args: {}, status: 404 },
  'list-serverless-billing': { calls: 'GET /v2/billing/serverless', args: {}, status: 404 },
  'get-capacity': { calls: 'public GraphQL (no key): GPU capacity by CUDA version', args: {}, status: 401 },
  'list-hub-repos': { calls: 'public GraphQL (no key): hub listings', args: {}, status: 401 },
  'deploy-hub-repo': { calls: 'public GraphQL (no key), then saveEndpoint', args: { repo: 'owner/repo' }, status: 401 },
  'list-public-endpoints': { calls: 'public GraphQL (no key): public model endpoints', args: {}, status: 401 },
};
