import { test } from './support/fixtures.js';
import { conform, rules } from '../../support/rules.js';
import { errorBodyConformance, rejectionConformance } from '../../checks/rejection.js';
import { schemaVcpuCounts, type PodCatalog } from '../../../lib/pod-catalog.js';
import { PROBLEM_RULES } from './support/rule-sets.js';
import { refusals } from './support/creates.js';
import type { CpuFlavor } from '../../../lib/types.gen.js';

/** Flavors whose `vcpu.min` is above a count the request schema allows, each with such a count. */
function belowMinimum(catalog: PodCatalog): { flavor: CpuFlavor; vcpuCount: number }[] {
  return catalog.cpus.flatMap((flavor) => {
    // A catalog without a numeric range (the spec names no field of it) gives no edge to try.
    const min = (flavor as { vcpu?: { min?: unknown } }).vcpu?.min;
    if (typeof min !== 'number') return [];
    const below = schemaVcpuCounts().filter((n) => n < min);
    return below.length > 0 ? [{ flavor, vcpuCount: below[below.length - 1]! }] : [];
  });
}

// Spec, CPU configuration: `vcpuCount` "must be valid for the flavor and be a power of two". The
// flavor's range has two ends; a power of two below its minimum is no more valid than one above.
test.describe('createPod: edges of the CPU flavor range', () => {
  test('createPod with a power-of-two vcpuCount below the flavor\'s minimum is refused',
    rules('POD.CPU.VCPU_VALID_FOR_FLAVOR', 'POD.CREATE.ERRORS_HAVE_BODY', ...PROBLEM_RULES), async ({ api, pods, uniqueName }) => {
      const targets = belowMinimum(await pods.catalog());
      test.skip(targets.length === 0, 'setup: no CPU flavor of the target\'s catalog starts above a power-of-two vCPU count the schema allows');
      const base = await pods.cpuBody();
      // Each flavor's refusal is sent once; one listing afterwards tells whether any made a pod.
      const refused = refusals({ api, pods, uniqueName });
      const answers = [];
      for (const { flavor, vcpuCount } of targets) answers.push({ flavor, vcpuCount, res: await refused.send({ ...base, cpu: { id: flavor.id, vcpuCount } }) });
      conform(
        ...answers.flatMap(({ res }) => [rejectionConformance('POD.CPU.VCPU_VALID_FOR_FLAVOR', res, 'client-error'), errorBodyConformance('POD.CREATE.ERRORS_HAVE_BODY', res)]),
        await refused.madeNothing('POD.CPU.VCPU_VALID_FOR_FLAVOR',
          `${answers.map(({ flavor, vcpuCount, res }) => `vcpuCount ${vcpuCount} for ${flavor.id} (range ${flavor.vcpu.min}..${flavor.vcpu.max}) answered ${res.status}`).join('; ')}, and created a pod`),
      );
    });
});
