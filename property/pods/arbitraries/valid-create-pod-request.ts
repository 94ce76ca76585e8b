import fc from 'fast-check';
import type { CreatePodRequest, NetworkVolume } from '../../../lib/types.gen.js';
import { isNvidia } from '../../../contract/specs/pods/support/catalog.js';
import type { PodContext } from '../support/context.js';
import { containerFields } from './container-fields.js';
import { cpuConfig, gpuConfig, validVcpuCounts } from './compute.js';
import { minimumOf } from './schema-facts.js';

/** A mount path inside the container (the schema allows any string; these read well). */
export const mountPath = (): fc.Arbitrary<string> => fc.stringMatching(/^\/[a-z0-9_-]{1,12}(\/[a-z0-9_-]{1,8})?$/);

type Mounts = NonNullable<CreatePodRequest['mounts']>;
type Placement = Pick<CreatePodRequest, 'mounts' | 'dataCenterIds' | 'globalNetworking'>;

/** Mounts valid for the pod kind: none, `{}`, a persistent mount (GPU pods only) or one network mount. */
function mounts(ctx: PodContext, gpu: boolean): fc.Arbitrary<{ mounts?: Mounts; volume?: NetworkVolume }> {
  const options: fc.Arbitrary<{ mounts?: Mounts; volume?: NetworkVolume }>[] = [fc.constant({}), fc.constant({ mounts: {} })];
  if (gpu) {
    const size = fc.integer({ min: minimumOf('persistent-mount', '/properties/size'), max: 500 });
    options.push(fc.record({ size, path: mountPath() }, { noNullPrototype: true }).map((persistent) => ({ mounts: { persistent } })));
  }
  if (ctx.volumes.length > 0) {
    options.push(fc.tuple(fc.constantFrom(...ctx.volumes), mountPath()).map(([v, path]) => ({ mounts: { network: [{ volumeId: v.id, path }] }, volume: v })));
  }
  return fc.oneof(...options);
}

/**
 * Where the pod may run, consistent with its constraints (spec, CreatePodRequest rule 5 and
 * Mounts): `globalNetworking: true` only on an NVIDIA GPU, with preferred data centers that
 * include one with `globalNetwork`; a network volume's data center among the preferred ones.
 * `dataCenterIds` is sometimes omitted or empty ("let the scheduler choose").
 */
function placement(ctx: PodContext, gpuId: string | undefined): fc.Arbitrary<Placement> {
  const dcs = ctx.catalog.dataCenters;
  const nvidia = gpuId !== undefined && ctx.catalog.gpus.some((g) => g.id === gpuId && isNvidia(g));
  return mounts(ctx, gpuId !== undefined).chain(({ mounts: m, volume }) => {
    const globalOk = nvidia && dcs.some((d) => d.globalNetwork) && (!volume || dcs.some((d) => d.id === volume.dataCenter && d.globalNetwork));
    return fc.record({
      globalNetworking: globalOk ? fc.boolean() : fc.constant(false),
      dataCenterIds: fc.subarray(dcs.map((d) => d.id)),
    }, { requiredKeys: [], noNullPrototype: true }).map(({ globalNetworking, dataCenterIds }): Placement => {
      let ids = dataCenterIds;
      if (ids && ids.length > 0) {
        if (volume && !ids.includes(volume.dataCenter)) ids = [...ids, volume.dataCenter];
        if (globalNetworking && !ids.some((id) => dcs.find((d) => d.id === id)?.globalNetwork)) ids = [...ids, dcs.find((d) => d.globalNetwork)!.id];
      }
      return { ...(m !== undefined ? { mounts: m } : {}), ...(globalNetworking !== undefined ? { globalNetworking } : {}), ...(ids !== undefined ? { dataCenterIds: ids } : {}) };
    });
  });
}

/** Whether some CPU flavor offers a vCPU count the schema allows. */
export const hasCpuFlavors = (ctx: PodContext): boolean => ctx.catalog.cpus.some((f) => validVcpuCounts(f).length > 0);

/**
 * A valid CreatePodRequest, derived from the schemas (bounds, enums, patterns) and the target's
 * catalog and volumes: every one must be answered 201 with a Pod that echoes it (spec,
 * createPod). Exactly one of `gpu` and `cpu` is set; `kind` picks which.
 */
export function validCreatePodRequest(ctx: PodContext, options: { kind?: 'gpu' | 'cpu' } = {}): fc.Arbitrary<CreatePodRequest> {
  const kinds: fc.Arbitrary<{ gpu?: { id: string; count?: number }; cpu?: { id: string; vcpuCount: number } }>[] = [];
  if (options.kind !== 'cpu' && ctx.catalog.gpus.length > 0) kinds.push(gpuConfig(ctx.catalog.gpus).map((gpu) => ({ gpu })));
  if (options.kind !== 'gpu' && hasCpuFlavors(ctx)) kinds.push(cpuConfig(ctx.catalog.cpus).map((cpu) => ({ cpu })));
  if (kinds.length === 0) throw new RangeError(`the catalog offers no ${options.kind ?? 'GPU type or usable CPU flavor'}`);
  return fc.tuple(containerFields(), fc.oneof(...kinds))
    .chain(([fields, compute]) => placement(ctx, compute.gpu?.id).map((p) => ({ ...fields, ...compute, ...p }) as unknown as CreatePodRequest));
}
