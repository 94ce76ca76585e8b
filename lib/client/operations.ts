/**
 * Every operation the suite calls, by the name the rule catalog uses: surface, method and
 * path. Paths for operations the spec leaves "not shown" follow the live platform
 * (spec/platform-notes.md).
 */
import { InternalError } from '../errors.js';

export type ApiSurface = 'rest-v2' | 'serverless' | 'rest-v1' | 'graphql' | 'public-model';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperationDef {
  surface: ApiSurface;
  method: Method;
  /** Path template; `{name}` segments are filled from params and URI-encoded. */
  path: string;
}

export const operations = {
  createPod: { surface: 'rest-v2', method: 'POST', path: '/v2/pods' },
  listPods: { surface: 'rest-v2', method: 'GET', path: '/v2/pods' },
  getPod: { surface: 'rest-v2', method: 'GET', path: '/v2/pods/{podId}' },
  updatePod: { surface: 'rest-v2', method: 'PATCH', path: '/v2/pods/{podId}' },
  deletePod: { surface: 'rest-v2', method: 'DELETE', path: '/v2/pods/{podId}' },
  podAction: { surface: 'rest-v2', method: 'POST', path: '/v2/pods/{podId}/action' },
  listGpuTypes: { surface: 'rest-v2', method: 'GET', path: '/v2/catalog/gpus' },
  listCpuFlavors: { surface: 'rest-v2', method: 'GET', path: '/v2/catalog/cpus' },
  listDataCenters: { surface: 'rest-v2', method: 'GET', path: '/v2/catalog/datacenters' },
  getGpuType: { surface: 'rest-v2', method: 'GET', path: '/v2/catalog/gpus/{id}' },
  getCpuFlavor: { surface: 'rest-v2', method: 'GET', path: '/v2/catalog/cpus/{id}' },
  getDataCenter: { surface: 'rest-v2', method: 'GET', path: '/v2/catalog/datacenters/{id}' },
  listNetworkVolumes: { surface: 'rest-v2', method: 'GET', path: '/v2/network-volumes' },
  createNetworkVolume: { surface: 'rest-v2', method: 'POST', path: '/v2/network-volumes' },
  getNetworkVolume: { surface: 'rest-v2', method: 'GET', path: '/v2/network-volumes/{volumeId}' },
  updateNetworkVolume: { surface: 'rest-v2', method: 'PATCH', path: '/v2/network-volumes/{volumeId}' },
  deleteNetworkVolume: { surface: 'rest-v2', method: 'DELETE', path: '/v2/network-volumes/{volumeId}' },
  runsync: { surface: 'serverless', method: 'POST', path: '/v2/{endpointId}/runsync' },
  run: { surface: 'serverless', method: 'POST', path: '/v2/{endpointId}/run' },
  status: { surface: 'serverless', method: 'GET', path: '/v2/{endpointId}/status/{jobId}' },
  statusSync: { surface: 'serverless', method: 'GET', path: '/v2/{endpointId}/status-sync/{jobId}' },
  stream: { surface: 'serverless', method: 'GET', path: '/v2/{endpointId}/stream/{jobId}' },
  cancel: { surface: 'serverless', method: 'POST', path: '/v2/{endpointId}/cancel/{jobId}' },
  retry: { surface: 'serverless', method: 'POST', path: '/v2/{endpointId}/retry/{jobId}' },
  purgeQueue: { surface: 'serverless', method: 'POST', path: '/v2/{endpointId}/purge-queue' },
  health: { surface: 'serverless', method: 'GET', path: '/v2/{endpointId}/health' },
  modelRunsync: { surface: 'public-model', method: 'POST', path: '/v2/{modelId}/runsync' },
  createEndpointV1: { surface: 'rest-v1', method: 'POST', path: '/v1/endpoints' },
  graphql: { surface: 'graphql', method: 'POST', path: '/graphql' },
} as const satisfies Record<string, OperationDef>;

export type OperationName = keyof typeof operations;

/** Fills `{name}` placeholders; a missing parameter is a programming error. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new InternalError(`missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(value);
  });
}
