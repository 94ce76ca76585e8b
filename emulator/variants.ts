/**
 * The variant catalog: the dual of the fault catalog. Each variant is a choice that another
 * conforming deployment could make where the spec is silent or permissive, switched on by name
 * (`--variants`, `CPC_EMULATOR_VARIANTS`, world option `variants`, `PUT
 * /__emulator/worlds/:id/variants`). With any of them on, the suite must fail no MUST rule (the
 * variant matrix, test/variants). Each names the CHOICES.md row of the choice it switches.
 */
import type { VariantId } from './switches.js';

/** The surfaces whose answers a variant changes (the variant matrix runs their tests). */
import type { VariantSurface } from '../lib/protocol.js';

export type { VariantSurface };

export interface VariantDef {
  /** The choice it switches: `<surface folder>/CHOICES.md #<row>` or `README.md #<row>`. */
  choice: string;
  description: string;
  surfaces: readonly VariantSurface[];
}

export const variantCatalog = {
  'lists.bare': {
    choice: 'pods/CHOICES.md #26, #31, #32',
    description: 'List answers are bare JSON arrays (listPods, the three catalog lists, listNetworkVolumes) instead of the live platform\'s wrapped objects ({pods: [...]}, {gpus: [...]}, ...).',
    surfaces: ['rest-v2'],
  },
  'catalog.emulator-fields': {
    choice: 'pods/CHOICES.md #31',
    description: 'Catalog entries in the emulator\'s earlier fields: GPU {id, displayName, manufacturer, memoryInGb, maxGpuCount, securePrice, communityPrice}, CPU {id, displayName, vcpu, ramGbPerVcpu, pricePerVcpu}, data center {id, name, globalNetwork}.',
    surfaces: ['rest-v2'],
  },
  'catalog.scalar-fields': {
    choice: 'pods/CHOICES.md #31',
    description: 'Catalog entries with the live fields in the emulator\'s earlier value shapes: a GPU type\'s price and maxCount and a CPU flavor\'s price are plain numbers, a data center\'s region a short code (US, CA, EU) instead of a live region.',
    surfaces: ['rest-v2'],
  },
  'catalog.cpu-no-vcpu-range': {
    choice: 'pods/CHOICES.md #31',
    description: 'CPU flavors list no vcpu range ({id, name, group, ramGbPerVcpu, price}): the spec names no field of the CPU catalog but the RAM multiplier.',
    surfaces: ['rest-v2'],
  },
  'validation.422': {
    choice: 'pods/CHOICES.md #7, #36',
    description: 'A REST v2 body that breaks the request schema (wrong type, unknown property, out-of-range value, missing field) answers 422; 400 stays for rules across fields (both mount kinds, both or neither of gpu and cpu, persistent on a CPU pod) and handler conflicts, as the live description does.',
    surfaces: ['rest-v2'],
  },
  'jobs.submit-201': {
    choice: 'serverless/CHOICES.md "Success status of /run and /runsync"',
    description: '/run and /runsync answer 201 instead of 200.',
    surfaces: ['serverless'],
  },
  'jobs.submit-202': {
    choice: 'serverless/CHOICES.md "Success status of /run and /runsync"',
    description: '/run and /runsync answer 202 instead of 200.',
    surfaces: ['serverless'],
  },
  'serverless.other-2xx': {
    choice: 'serverless/CHOICES.md "Success status of the other job operations"',
    description: '/status, /status-sync, /stream and /health answer 203, /cancel, /retry, /purge-queue and a public model\'s /runsync answer 202, each with the body it answers with 200.',
    surfaces: ['serverless'],
  },
  'models.runsync-in-progress': {
    choice: 'serverless/CHOICES.md "Public model endpoints"',
    description: 'A public model\'s /runsync answers {id, status: "IN_PROGRESS", delayTime} without output: the model has not finished when the request stops waiting.',
    surfaces: ['serverless'],
  },
  'jobs.failed-shows-output': {
    choice: 'serverless/CHOICES.md "A failed job\'s answer"',
    description: 'A FAILED job\'s /status and /runsync answers also carry, as output, the list of the items it streamed before failing (if any); /retry removes it.',
    surfaces: ['serverless'],
  },
  'jobs.dispatch-newest-first': {
    choice: 'serverless/CHOICES.md "Moves IN_QUEUE → IN_PROGRESS → end"',
    description: 'A free worker takes the newest waiting job instead of the oldest (a job requeued by an automatic retry counts as the newest).',
    surfaces: ['serverless'],
  },
  'jobs.purged-kept-cancelled': {
    choice: 'serverless/CHOICES.md "What /purge-queue does to a removed job"',
    description: 'A job removed by /purge-queue stays readable as CANCELLED (its /status answers 200 {status: "CANCELLED"}) until its retention ends, instead of 404.',
    surfaces: ['serverless'],
  },
  'jobs.health-held-counts': {
    choice: 'serverless/CHOICES.md "health.jobs counters"',
    description: '/health counts completed, failed and retried over the jobs held now (results not yet expired), so they fall as results expire, instead of counting since the endpoint was created.',
    surfaces: ['serverless'],
  },
  'jobs.sync-prefix-other': {
    choice: 'serverless/CHOICES.md "Job ids"',
    description: 'Synchronous job ids carry the prefix `rs_` instead of `sync-`; asynchronous ids stay plain.',
    surfaces: ['serverless'],
  },
  'pods.list-203': {
    choice: 'pods/CHOICES.md #26',
    description: 'listPods answers 203 (Non-Authoritative Information, as through a caching proxy) with the same body instead of 200.',
    surfaces: ['rest-v2'],
  },
  'pods.runtime-sampled': {
    choice: 'pods/CHOICES.md #19',
    description: 'A RUNNING pod\'s runtime is its last once-a-minute metrics sample: only gpus, and from the first sample on uptime as of that sample (it advances 60 at a time); no cpu, memory or ports.',
    surfaces: ['rest-v2'],
  },
  'pods.global-address-later': {
    choice: 'pods/CHOICES.md #44',
    description: 'A pod created with globalNetworking true gets its global-network address 90 s after its container started (enabled false until then) and never shows internalDns.',
    surfaces: ['rest-v2'],
  },
  'pods.container-exits': {
    choice: 'pods/CHOICES.md #34',
    description: 'A RUNNING pod\'s container exits on its own after 10 minutes of running: the pod becomes EXITED (cost 0.0, runtime null) without an action.',
    surfaces: ['rest-v2'],
  },
  'pods.terminate-deletes': {
    choice: 'pods/CHOICES.md #22, #25',
    description: 'terminate removes the pod, like deletePod: it is then absent from listPods and getPod answers 404 (the live platform).',
    surfaces: ['rest-v2'],
  },
  'pods.locked-lists-actions': {
    choice: 'pods/CHOICES.md #21',
    description: 'A locked pod lists its status\'s actions, stop and restart included (actions by status only, as the live platform); a stop or restart is still refused.',
    surfaces: ['rest-v2'],
  },
  'v1.catalog-gpu-ids': {
    choice: 'serverless/CHOICES.md "GPU type ids"',
    description: 'REST v1 gpuTypeIds takes only the GPU type ids of GET /v2/catalog/gpus (in a serverless tier) and refuses the GraphQL tier codes (AMPERE_16 ...) and other names with 400, as the live platform.',
    surfaces: ['rest-v1'],
  },
  'ratelimit.rest-v2-only': {
    choice: 'README.md #7; graphql/CHOICES.md #29',
    description: 'RateLimit and RateLimit-Policy accompany REST v2 answers only; serverless, REST v1 and GraphQL answers carry none (a 429 still carries them).',
    surfaces: ['serverless', 'rest-v1', 'graphql'],
  },
  'description.deprecation-prose': {
    choice: 'pods/CHOICES.md #35',
    description: 'The served description has the live form: no `deprecated` keyword; Mounts.properties.persistent is only {"$ref": "#/components/schemas/PersistentMount"}, and that schema\'s description ends "Deprecated: prefer NetworkMount for any data you cannot recreate."',
    surfaces: ['rest-v2'],
  },
  'graphql.discount-other-types': {
    choice: 'graphql/CHOICES.md #17',
    description: 'myself.serverlessDiscount is an object whose discountFactor is a String ("0.85") and expirationDate an Int (seconds since the epoch): the spec lists the three fields without types.',
    surfaces: ['graphql'],
  },
  'graphql.errors-400': {
    choice: 'graphql/CHOICES.md #1',
    description: 'A refused GraphQL operation (duplicate name, unknown id, invalid input, conflicts) answers 400 with {data: {<op>: null}, errors: [...]} instead of 200.',
    surfaces: ['graphql'],
  },
} as const satisfies Record<string, VariantDef>;

declare module './switches.js' {
  // Adds the catalog's ids to the variant ids a world knows (switches.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds members
  interface VariantRegistry extends Record<keyof typeof variantCatalog, VariantDef> {}
}

/**
 * Named sets of variants, switched on by their name like one variant. `live`: the live
 * platform's published REST v2 description (spec/platform-notes.md) where the emulator's
 * default differs from it; wrapped lists and the live catalog fields are the default already.
 */
export const variantSets: Readonly<Record<string, readonly VariantId[]>> = {
  live: ['validation.422', 'pods.terminate-deletes', 'pods.locked-lists-actions', 'description.deprecation-prose', 'v1.catalog-gpu-ids'],
  /** The emulator's earlier list and catalog shapes. */
  'emulator-0.1': ['lists.bare', 'catalog.emulator-fields', 'catalog.scalar-fields'],
};

export const isVariantId = (id: string): id is VariantId => Object.hasOwn(variantCatalog, id);

/** Variant and set names to variant ids; unknown names are returned apart. */
export function expandVariants(names: readonly string[]): { ids: VariantId[]; unknown: string[] } {
  const ids = new Set<VariantId>();
  const unknown: string[] = [];
  for (const name of names) {
    if (isVariantId(name)) ids.add(name);
    else if (Object.hasOwn(variantSets, name)) for (const id of variantSets[name]!) ids.add(id);
    else unknown.push(name);
  }
  return { ids: [...ids], unknown };
}

/** The surfaces a list of variant and set names changes. */
export function variantSurfaces(names: readonly string[]): VariantSurface[] {
  return [...new Set(expandVariants(names).ids.flatMap((id) => variantCatalog[id].surfaces))];
}
