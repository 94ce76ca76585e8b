/**
 * The chaos options are written down once (lib/chaos/options.ts): the written form of `--chaos`
 * and CPC_EMULATOR_CHAOS and the control surface's world option `chaos` read the same table, so
 * whatever the parser gives, the world schema takes, and what the schema refuses, the parser
 * refuses in the same words. A fault, variant or chaos the emulator would refuse is a
 * configuration error naming its setting (run/emulator-settings.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CHAOS_MEMBERS, chaosProblems, formatChaos, parseChaos, type ChaosOptions } from '../lib/chaos/options.js';
import { ConfigError } from '../lib/errors.js';
import { checkEmulatorSettings } from '../run/emulator-settings.js';

const SEED = 20_361;

/** Every chaos option the table allows. */
const chaosOptions: fc.Arbitrary<ChaosOptions> = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  realTime: fc.constant(true),
  latencyMs: fc.integer({ min: 0, max: 5000 }),
  capacityShare: fc.integer({ min: 0, max: 90 }).map((n) => n / 100),
  capacityOnly: fc.constant(true),
}, { requiredKeys: ['seed'], noNullPrototype: true });

test(`chaos options: the written form round-trips and the world schema takes what the parser gives (seed ${SEED})`, () => {
  fc.assert(fc.property(chaosOptions, (o) => {
    const written = formatChaos(o);
    assert.deepEqual(parseChaos(written, '--chaos'), o, written);
    assert.deepEqual(chaosProblems({ ...o, key: 'test-1' }), [], written);
  }), { seed: SEED, numRuns: 300 });
  assert.equal(formatChaos({ seed: 7, capacityShare: 0.5 }), '7,capacity=0.5');
  assert.deepEqual(parseChaos('7,capacity=0.5', '--chaos'), { seed: 7, capacityShare: 0.5 }, 'the documented form that the world schema once refused');
  assert.deepEqual(parseChaos('3,capacity=0.5,capacity-only', '--chaos'), { seed: 3, capacityShare: 0.5, capacityOnly: true });
});

test('chaos options: each member the schema refuses, the parser refuses too, naming the setting', () => {
  const refusedBoth: [string, Record<string, unknown>][] = [
    ['7,capacity=0.95', { seed: 7, capacityShare: 0.95 }],
    ['7,latency=5001', { seed: 7, latencyMs: 5001 }],
    ['7,latency=1.5', { seed: 7, latencyMs: 1.5 }],
    [String(2 ** 31), { seed: 2 ** 31 }],
  ];
  for (const [written, object] of refusedBoth) {
    assert.ok(chaosProblems(object).length > 0, `the schema refuses ${JSON.stringify(object)}`);
    assert.throws(() => parseChaos(written, 'CPC_EMULATOR_CHAOS'), (e: unknown) => e instanceof ConfigError && e.setting === 'CPC_EMULATOR_CHAOS' && !e.message.includes('\n'), written);
  }
  assert.deepEqual(chaosProblems({ seed: 1, warp: true }), ['/chaos/warp: unknown member']);
  assert.deepEqual(chaosProblems({ seed: 1, realTime: 'yes' }), ['/chaos/realTime: must be a boolean']);
  for (const bad of ['7,real-time=1', '7,capacity', '7,latency=1=2', '7,warp']) assert.throws(() => parseChaos(bad, '--chaos'), /unknown part/, bad);
  // Every member of the table is written and read by its own part.
  for (const m of CHAOS_MEMBERS) assert.match(formatChaos({ seed: 1, [m.member]: m.kind === 'flag' ? true : 0.5 > m.max ? m.max : m.kind === 'integer' ? 1 : 0.5 }), new RegExp(`,${m.part}`));
});

test('emulator settings: an unknown fault or variant, or a refused chaos, is a configuration error naming its setting', () => {
  const named = (setting: string, pattern: RegExp) => (e: unknown) => e instanceof ConfigError && e.setting === setting && pattern.test(e.message) && !e.message.includes('\n');
  assert.doesNotThrow(() => checkEmulatorSettings({ faults: ['pods.no-capacity'], variants: ['lists.bare'], chaos: { seed: 7, capacityShare: 0.5 } }));
  assert.throws(() => checkEmulatorSettings({ faults: ['nope'], variants: [], from: { faults: '--faults' } }), named('--faults', /unknown fault\(s\): nope/));
  assert.throws(() => checkEmulatorSettings({ faults: [], variants: ['nope'] }), named('CPC_EMULATOR_VARIANTS', /unknown variant\(s\): nope/));
  assert.throws(() => checkEmulatorSettings({ faults: [], variants: [], chaos: { seed: 7, capacityShare: 2 }, from: { chaos: '--chaos' } }), named('--chaos', /capacityShare: must be a number from 0 to 0.9/));
});
