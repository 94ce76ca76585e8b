import { test } from '../../contract/specs/pods/support/fixtures.js';
import { creates, rules } from '../../contract/support/rules.js';
import { PROBLEM_RULES } from '../../contract/specs/pods/support/rule-sets.js';
import { checkProperty, runSeed } from '../support/run.js';
import { loadPodContext } from './support/context.js';
import { invalidCreateProperty } from './properties/create-invalid.js';
import { MUTATIONS } from './arbitraries/mutations.js';
import { buildable } from './arbitraries/invalid-create-pod-request.js';
import { fastClient } from './support/fast-client.js';
import { podPropertyCreates, propertyRuns, realTargetSkip } from './support/budget.js';

// One property per labelled mutation, so each rule gets its own runs and its own verdict.
for (const m of MUTATIONS) {
  test(`createPod refuses a valid request with ${m.label} (seed ${runSeed()})`, rules(m.rule, 'POD.CREATE.ERRORS_HAVE_BODY', ...PROBLEM_RULES,
    // A conforming target refuses every body, so only the context's volumes are made.
    creates(podPropertyCreates({ volumes: 2 }))), async ({ api, emu, pods }) => {
    const skip = realTargetSkip(emu.available, 'sends an invalid createPod');
    test.skip(skip !== undefined, skip ?? '');
    const ctx = await loadPodContext(api, (dc) => pods.volume(dc));
    test.skip(!buildable(m, ctx), `setup: the target's catalog and volumes cannot build "${m.label}" (needs ${m.needs.join(', ')}; a CPU flavor needs a vcpu range with a power-of-two count)`);
    const fast = fastClient(api);
    try {
      await checkProperty(invalidCreateProperty(fast.api, ctx, (x) => x === m, (id) => pods.track(id)), { numRuns: propertyRuns() });
    } finally {
      await fast.close();
    }
  });
}
