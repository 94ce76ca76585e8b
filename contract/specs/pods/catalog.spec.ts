import { test } from './support/fixtures.js';
import { conform, creates, must, observe, rules } from '../../support/rules.js';
import { statusCodeConformance } from '../../checks/status.js';
import { schemaConformance } from '../../checks/schema.js';
import type { OperationName } from '../../../lib/client/operations.js';
import type { NetworkVolume } from '../../../lib/types.gen.js';
import { listItems } from '../../../lib/pod-catalog.js';

// Spec: "Catalog lookups are referenced as `GET /v2/catalog/cpus` and `GET /v2/catalog/datacenters`";
// "CPU flavor identifier as listed by `GET /v2/catalog/cpus`"; "eligible data centers are marked by
// `globalNetwork` in the data center catalog". Their other fields are not shown, nor is the shape
// of the answer: a bare JSON array and an object holding the array (`{cpus: [...]}`, the live
// platform's) are both lists of entries.
test.describe('catalog', () => {
  test('GET /v2/catalog/cpus lists CPU flavors with string ids', rules('CATALOG.CPUS.AVAILABLE', 'CATALOG.CPU.FIELDS', 'VERSION.REST_V2.PREFIX'), async ({ api }) => {
    const res = await api.op('listCpuFlavors');
    const found = listItems<Record<string, unknown>>(res.body, 'cpus');
    const list = found?.items ?? [];
    observe('CATALOG.CPU.FIELDS', { shape: found?.shape ?? null, fields: [...new Set(list.flatMap((e) => Object.keys(e ?? {})))], conformsToObservedShape: list.every((e) => schemaConformance('CATALOG.CPU.FIELDS', 'cpu-flavor', e).length === 0) });
    conform(
      statusCodeConformance('CATALOG.CPUS.AVAILABLE', res, 'success'),
      must(list.length > 0, 'CATALOG.CPUS.AVAILABLE', `not a non-empty list (a JSON array, or an object holding one): ${res.text.slice(0, 200)}`),
      must(list.every((e) => typeof e?.id === 'string'), 'CATALOG.CPUS.AVAILABLE', 'an entry has no string id'),
    );
  });

  test('GET /v2/catalog/datacenters lists data centers with string ids and a boolean globalNetwork', rules(
    'CATALOG.DATACENTERS.AVAILABLE', 'CATALOG.DATACENTERS.GLOBAL_NETWORK_FLAG', 'CATALOG.DATACENTER.FIELDS',
  ), async ({ api }) => {
    const res = await api.op('listDataCenters');
    const found = listItems<Record<string, unknown>>(res.body, 'dataCenters');
    const list = found?.items ?? [];
    observe('CATALOG.DATACENTER.FIELDS', { shape: found?.shape ?? null, fields: [...new Set(list.flatMap((e) => Object.keys(e ?? {})))], conformsToObservedShape: list.every((e) => schemaConformance('CATALOG.DATACENTER.FIELDS', 'data-center', e).length === 0) });
    conform(
      statusCodeConformance('CATALOG.DATACENTERS.AVAILABLE', res, 'success'),
      must(list.length > 0, 'CATALOG.DATACENTERS.AVAILABLE', `not a non-empty list (a JSON array, or an object holding one): ${res.text.slice(0, 200)}`),
      must(list.every((e) => typeof e?.id === 'string'), 'CATALOG.DATACENTERS.AVAILABLE', 'an entry has no string id'),
      must(list.every((e) => typeof e?.globalNetwork === 'boolean'), 'CATALOG.DATACENTERS.GLOBAL_NETWORK_FLAG',
        `entries without a boolean globalNetwork: ${list.filter((e) => typeof e?.globalNetwork !== 'boolean').map((e) => String(e?.id)).join(', ')}`),
    );
  });

  test('further catalog paths are recorded', rules('CATALOG.GPUS_AND_BY_ID'), async ({ api }) => {
    const served: Record<string, number | string> = {};
    for (const [list, one, member, param] of [['listGpuTypes', 'getGpuType', 'gpus', 'gpuTypeId'], ['listCpuFlavors', 'getCpuFlavor', 'cpus', 'cpuFlavorId'], ['listDataCenters', 'getDataCenter', 'dataCenters', 'dataCenterId']] as [OperationName, OperationName, string, string][]) {
      const res = await api.op(list);
      served[list] = res.status;
      const found = listItems<{ id?: unknown }>(res.body, member);
      served[`${list}Shape`] = found?.shape ?? 'not a list';
      const first = typeof found?.items[0]?.id === 'string' ? found.items[0].id : undefined;
      if (first !== undefined) served[one] = (await api.op(one, { params: { [param]: first } })).status;
    }
    observe('CATALOG.GPUS_AND_BY_ID', served);
  });
});

// Spec: "Operations for ... network volumes ...: not shown"; "Fields of network volumes: not shown".
// The volume is the test's own, not the pooled one: the record includes its update and deletion.
test.describe('network volumes', () => {
  test('the network-volume operations, their answers and fields are recorded', rules('NETVOL.PATHS', 'NETVOL.CREATE_201', 'NETVOL.FIELDS', creates({ networkVolumes: 1 })), async ({ api, pods, uniqueName }) => {
    const dc = (await pods.catalog()).dataCenters[0];
    test.skip(!dc, 'the target lists no data center');
    const list = await api.op('listNetworkVolumes');
    const made = await api.op<NetworkVolume>('createNetworkVolume', { body: { name: uniqueName('recorded'), size: 10, dataCenter: dc!.id } });
    const id = made.body?.id;
    const paths: Record<string, number | string> = { list: list.status, listShape: listItems(list.body, 'networkVolumes')?.shape ?? 'not a list', create: made.status };
    if (typeof id === 'string') {
      paths.get = (await api.op('getNetworkVolume', { params: { networkVolumeId: id } })).status;
      paths.patch = (await api.op('updateNetworkVolume', { params: { networkVolumeId: id }, body: { size: 20 } })).status;
      paths.delete = (await api.op('deleteNetworkVolume', { params: { networkVolumeId: id } })).status;
    }
    observe('NETVOL.PATHS', paths);
    observe('NETVOL.CREATE_201', { status: made.status, body: made.body ?? null });
    observe('NETVOL.FIELDS', { fields: Object.keys(made.body ?? {}), conformsToObservedShape: schemaConformance('NETVOL.FIELDS', 'network-volume', made.body).length === 0 });
  });
});
