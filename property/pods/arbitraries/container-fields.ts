import fc from 'fast-check';
import { enumOf, minimumOf, minLengthOf, patternOf } from './schema-facts.js';

const REQ = 'create-pod-request' as const;

/** Upper bounds the schema leaves open; kept small so requests stay quick to send and read. */
const MAX_DISK_GB = 2048;
const MAX_TEXT = 40;

/**
 * The name and container configuration of a CreatePodRequest (spec: `name` "Minimum length 1",
 * `image` string, `args` string, `disk` "integer, minimum 1", `ports` "`<port>/<protocol>`",
 * `env` string to string, `registry` string or null, `cloud` SECURE or COMMUNITY). Optional
 * fields are sometimes omitted so the spec's defaults are exercised too. Bounds, the port
 * pattern and the cloud values come from `schemas/create-pod-request.schema.json`.
 *
 * It depends on the schemas alone, so it is built once per process: building the port pattern's
 * `stringMatching` is costly next to drawing from it, and every pod property test builds its
 * arbitraries anew.
 */
export function containerFields(): fc.Arbitrary<Record<string, unknown>> {
  built ??= build();
  return built;
}

let built: fc.Arbitrary<Record<string, unknown>> | undefined;

function build(): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({
    name: fc.string({ minLength: minLengthOf(REQ, '/properties/name'), maxLength: MAX_TEXT }),
    image: fc.string({ maxLength: MAX_TEXT }),
    args: fc.string({ maxLength: MAX_TEXT }),
    disk: fc.integer({ min: minimumOf(REQ, '/properties/disk'), max: MAX_DISK_GB }),
    ports: fc.uniqueArray(fc.stringMatching(patternOf(REQ, '/properties/ports/items'), { maxLength: 12 }), { maxLength: 4 }),
    // Environment-variable style keys: any string key is valid, these read well in counterexamples.
    env: fc.dictionary(fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,11}$/), fc.string({ maxLength: 20 }), { maxKeys: 4, noNullPrototype: true }),
    registry: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null }),
    cloud: fc.constantFrom(...enumOf<string>('cloud', '')),
  }, { requiredKeys: ['name', 'image'], noNullPrototype: true });
}
