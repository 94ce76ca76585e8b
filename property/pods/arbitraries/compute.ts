import fc from 'fast-check';
import type { CpuFlavor } from '../../../lib/types.gen.js';
import { maxGpusOf, vcpuCounts, type GpuEntry } from '../../../lib/pod-catalog.js';
import { minimumOf } from './schema-facts.js';

/** The most GPUs to ask for when the catalog gives no `maxGpuCount` (the spec gives no maximum). */
const DEFAULT_MAX_GPUS = 4;

/** vCPU counts valid for a flavor: the schema's power-of-two enum within the flavor's range; none when the catalog lists no range. */
export function validVcpuCounts(flavor: CpuFlavor): number[] {
  return vcpuCounts(flavor);
}

/**
 * A GpuConfig for one GPU type (spec: `id` required; `count` "Minimum 1, default 1"); `count`
 * is sometimes omitted so the default is exercised.
 */
export function gpuConfigOf(g: GpuEntry): fc.Arbitrary<{ id: string; count?: number }> {
  return fc.record({
    id: fc.constant(g.id),
    count: fc.integer({ min: minimumOf('gpu-config', '/properties/count'), max: maxGpusOf(g) ?? DEFAULT_MAX_GPUS }),
  }, { requiredKeys: ['id'], noNullPrototype: true });
}

/** A CreateCpuConfig: a catalog flavor and a vCPU count valid for it; never `memory`. */
export function cpuConfig(flavors: readonly CpuFlavor[]): fc.Arbitrary<{ id: string; vcpuCount: number }> {
  const usable = flavors.filter((f) => validVcpuCounts(f).length > 0);
  return fc.oneof(...usable.map((f) => fc.record({ id: fc.constant(f.id), vcpuCount: fc.constantFrom(...validVcpuCounts(f)) }, { noNullPrototype: true })));
}
