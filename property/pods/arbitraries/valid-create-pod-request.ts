import fc from 'fast-check';
import type { CreatePodRequest, NetworkVolume } from '../../../lib/types.gen.js';
import { isNvidia } from '../../../lib/pod-catalog.js';
import { SetupError } from '../../../lib/errors.js';
import type { PodContext } from '../support/context.js';
import { containerFields } from './container-fields.js';
import { cpuConfig, gpuConfigOf, validVcpuCounts } from './compute.js';
import { minimumOf } from './schema-facts.js';

// Built once, on first use: compiling a regular-expression arbitrary costs far more than drawing
// from it, and a process that only lists the tests never draws.
let mountPathArb: fc.Arbitrary<string> | undefined;

/** A mount path inside the container (the schema allows any string; these read well). */
export const mountPath = (): fc.Arbitrary<string> => (mountPathArb ??= fc.stringMatching(/^\/[a-z0-9_-]{1,12}(\/[a-z0-9_-]{1,8})?$/));

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
 * `globalNetworking` and `dataCenterIds` are sometimes omitted, and the list sometimes empty
 * ("let the scheduler choose").
 */
function placement(ctx: PodContext, gpuId: string | undefined): fc.Arbitrary<Placement> {
  const dcs = ctx.catalog.dataCenters;
  const nvidia = gpuId !== undefined && ctx.catalog.gpus.some((g) => g.id === gpuId && isNvidia(g));
  const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  return fc.tuple(mounts(ctx, gpuId !== undefined), optional(fc.boolean()), optional(fc.subarray(dcs.map((d) => d.id))))
    .map(([{ mounts: m, volume }, wantGlobal, preferred]): Placement => {
      const globalOk = nvidia && dcs.some((d) => d.globalNetwork) && (!volume || dcs.some((d) => d.id === volume.dataCenter && d.globalNetwork));
      const globalNetworking = wantGlobal === undefined ? undefined : wantGlobal && globalOk;
      let ids = preferred;
      if (ids && ids.length > 0) {
        if (volume && !ids.includes(volume.dataCenter)) ids = [...ids, volume.dataCenter];
        if (globalNetworking && !ids.some((id) => dcs.find((d) => d.id === id)?.globalNetwork)) ids = [...ids, dcs.find((d) => d.globalNetwork)!.id];
      }
      return { ...(m !== undefined ? { mounts: m } : {}), ...(globalNetworking !== undefined ? { globalNetworking } : {}), ...(ids !== undefined ? { dataCenterIds: ids } : {}) };
    });
}

/** Whether some CPU flavor offers a vCPU count the schema allows. */
export const hasCpuFlavors = (ctx: PodContext): boolean => ctx.catalog.cpus.some((f) => validVcpuCounts(f).length > 0);

const cache = new WeakMap<PodContext, Map<string, fc.Arbitrary<CreatePodRequest>>>();

/**
 * A valid CreatePodRequest, derived from the schemas (bounds, enums, patterns) and the target's
 * catalog and volumes: every one must be answered 201 with a Pod that echoes it (spec,
 * createPod). Exactly one of `gpu` and `cpu` is set; `kind` picks which. Built once per
 * context and kind.
 */
export function validCreatePodRequest(ctx: PodContext, options: { kind?: 'gpu' | 'cpu' } = {}): fc.Arbitrary<CreatePodRequest> {
  const key = options.kind ?? 'any';
  const perCtx = cache.get(ctx) ?? new Map<string, fc.Arbitrary<CreatePodRequest>>();
  cache.set(ctx, perCtx);
  const cached = perCtx.get(key);
  if (cached) return cached;
  const computes: fc.Arbitrary<Record<string, unknown>>[] = [];
  // GPU and CPU pods equally often, whatever the number of GPU types.
  if (options.kind !== 'cpu' && ctx.catalog.gpus.length > 0) {
    computes.push(fc.oneof(...ctx.catalog.gpus.map((g) => fc.tuple(gpuConfigOf(g), placement(ctx, g.id)).map(([gpu, p]) => ({ gpu, ...p })))));
  }
  if (options.kind !== 'gpu' && hasCpuFlavors(ctx)) computes.push(fc.tuple(cpuConfig(ctx.catalog.cpus), placement(ctx, undefined)).map(([cpu, p]) => ({ cpu, ...p })));
  if (computes.length === 0) throw new SetupError(`the catalog offers no ${options.kind ?? 'GPU type or usable CPU flavor'}`);
  const arb = fc.tuple(containerFields(), fc.oneof(...computes)).map(([fields, compute]) => ({ ...fields, ...compute }) as unknown as CreatePodRequest);
  perCtx.set(key, arb);
  return arb;
}
