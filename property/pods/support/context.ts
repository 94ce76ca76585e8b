import type { ApiClient } from '../../../lib/client/api.js';
import { VolumeUnavailableError } from '../../../lib/errors.js';
import type { NetworkVolume } from '../../../lib/types.gen.js';
import { listOf, loadCatalog, type PodCatalog } from '../../../lib/pod-catalog.js';

/**
 * What the pod arbitraries draw from: the target's catalog (read over the API) and network
 * volumes of the caller, one in a data center with `globalNetwork` and one without when the
 * catalog has both, so generated network mounts can be valid.
 */
export interface PodContext {
  catalog: PodCatalog;
  volumes: NetworkVolume[];
}

/** Finds or makes a volume of the caller in a data center (the contract kit, or {@link volumeIn} outside Playwright). */
export type VolumeSource = (dataCenterId: string) => Promise<NetworkVolume>;

export async function loadPodContext(api: ApiClient, volume: VolumeSource): Promise<PodContext> {
  const catalog = await loadCatalog(api);
  const dcs = [catalog.dataCenters.find((d) => d.globalNetwork), catalog.dataCenters.find((d) => !d.globalNetwork)].filter((d) => d !== undefined);
  const volumes: NetworkVolume[] = [];
  for (const dc of dcs) volumes.push(await volume(dc.id));
  return { catalog, volumes };
}

/** A volume source over the plain API: an existing volume of the data center, or a new 10 GB one. */
export function volumeIn(api: ApiClient): VolumeSource {
  return async (dataCenterId) => {
    const list = await api.op('listNetworkVolumes');
    const found = listOf<NetworkVolume>(list.body, 'networkVolumes').find((v) => v?.dataCenter === dataCenterId);
    if (found) return found;
    const made = await api.op<NetworkVolume>('createNetworkVolume', { body: { name: `cpc-property-${dataCenterId.toLowerCase()}`, size: 10, dataCenter: dataCenterId } });
    if (made.status !== 201) throw new VolumeUnavailableError(dataCenterId, made.status);
    return made.body;
  };
}
