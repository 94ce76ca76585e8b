import type { FaultDef } from '../switches.js';

/**
 * Faults of the pods surface (see emulator/faults.ts). Each breaks one MUST rule of
 * `schemas/rules/rest-v2.json`; the contract specs under `contract/specs/pods` fail that rule
 * when the fault is on (`CPC_EMULATOR_FAULTS=<id> npx playwright test --project=contract contract/specs/pods`).
 */
export const podFaults = {
  // createPod validation
  'pods.persistent-not-deprecated': { rule: 'VERSION.PERSISTENT_DEPRECATED', description: 'The served description marks mounts.persistent deprecated neither by the keyword nor in prose.' },
  'pods.mounts-both-accepted': { rule: 'MOUNT.BOTH_KINDS_400', description: 'A body with both mounts.persistent and mounts.network is accepted.' },
  'pods.network-two-accepted': { rule: 'LIMIT.POD.NETWORK_MAX_1', description: 'mounts.network with 2 items is accepted (the maximum of 1 is not enforced).' },
  'pods.persistent-size-9-accepted': { rule: 'LIMIT.POD.PERSISTENT_SIZE_MIN_10', description: 'mounts.persistent.size minimum is 9 instead of 10.' },
  'pods.persistent-on-cpu-accepted': { rule: 'MOUNT.PERSISTENT.CPU_INVALID', description: 'A CPU pod with mounts.persistent is accepted.' },
  'pods.incomplete-mount-400': { rule: 'ERR.CREATE_POD.422_INCOMPLETE_MOUNT', description: 'createPod answers an incomplete mount entry with 400 instead of 422.' },
  'pods.network-object-accepted': { rule: 'MOUNT.NETWORK.ARRAY', description: 'mounts.network given as one NetworkMount object instead of an array is accepted.' },
  'pods.ports-format-accepted': { rule: 'POD.CREATE.PORTS_FORMAT', description: 'A request ports entry not of the form <port>/<protocol> is accepted.' },
  'pods.cloud-any-accepted': { rule: 'POD.CREATE.CLOUD_VALUES', description: 'A cloud other than SECURE or COMMUNITY is accepted.' },
  'pods.errors-first-only': { rule: 'ERR.REST_V2.ERRORS_PER_FAILURE', description: 'A refused body\'s errors[] names only its first validation failure.' },
  'pods.gpu-count-0-accepted': { rule: 'LIMIT.POD.GPU_COUNT_MIN_1', description: 'gpu.count 0 is accepted.' },
  'pods.vcpu-not-power-of-two-accepted': { rule: 'POD.CPU.VCPU_POWER_OF_TWO', description: 'A vcpuCount of at least 2 that is not a power of two (3, 6...) is accepted.' },
  'pods.vcpu-beyond-flavor-accepted': { rule: 'POD.CPU.VCPU_VALID_FOR_FLAVOR', description: 'A power-of-two vcpuCount outside the flavor\'s vcpu range is accepted.' },
  'pods.cpu-memory-accepted': { rule: 'POD.CPU.MEMORY_NOT_ACCEPTED', description: 'cpu.memory is accepted in createPod requests.' },
  'pods.unknown-root-property-accepted': { rule: 'POD.CREATE.UNKNOWN_PROPERTY_REJECTED', description: 'Top-level properties outside CreatePodRequest are ignored instead of rejected.' },
  'pods.gpu-unknown-property-accepted': { rule: 'POD.CREATE.GPU_UNKNOWN_PROPERTY', description: 'Unknown properties inside gpu are ignored instead of rejected.' },
  'pods.empty-name-accepted': { rule: 'POD.CREATE.NAME_MIN_LENGTH_1', description: 'An empty name is accepted.' },
  'pods.image-not-required': { rule: 'POD.CREATE.IMAGE_REQUIRED', description: 'A body without image is accepted.' },
  'pods.both-gpu-and-cpu-accepted': { rule: 'POD.CREATE.GPU_AND_CPU_REJECTED', description: 'A body with both gpu and cpu is accepted.' },
  'pods.volume-other-dc-accepted': { rule: 'MOUNT.NETWORK.OTHER_DATA_CENTER_REJECTED', description: 'A pod whose network volume lies outside its preferred data centers is placed in a preferred data center, away from its volume.' },
  'pods.global-networking-without-nvidia-accepted': { rule: 'POD.CREATE.GLOBAL_NETWORKING_REQUIRES_NVIDIA', description: 'globalNetworking true is accepted on a CPU pod or a non-NVIDIA GPU.' },
  // createPod response
  'pods.no-capacity': { rule: 'POD.CREATE.201_POD', description: 'Every valid GPU createPod is answered 400 problem+json as the live platform answers a type without capacity, on every GPU type and data center.' },
  'pods.create-answers-200': { rule: 'POD.CREATE.201_POD', description: 'A successful createPod answers 200 instead of 201.' },
  'pods.cloud-default-community': { rule: 'POD.CREATE.CLOUD_DEFAULT_SECURE', description: 'cloud defaults to COMMUNITY.' },
  'pods.gpu-count-default-2': { rule: 'POD.GPU.COUNT_DEFAULT_1', description: 'gpu.count defaults to 2.' },
  'pods.cloud-ignored': { rule: 'POD.CREATE.201_POD', description: 'cloud is ignored: a pod asked for on COMMUNITY is created on SECURE.' },
  'pods.gpu-count-ignored': { rule: 'POD.GPU.RESPONSE', description: 'gpu.count is ignored: every GPU pod gets 1 GPU.' },
  'pods.network-path-pinned': { rule: 'MOUNT.NETWORK.CUSTOM_PATH', description: 'Every network volume is mounted at /data, whatever path createPod sent.' },
  'pods.persistent-min-20': { rule: 'MOUNT.PERSISTENT.ACCEPTED_ON_GPU', description: 'A persistent mount under 20 GB is refused 400 (a minimum of 20 instead of 10).' },
  'pods.created-at-not-date-time': { rule: 'POD.RESPONSE.CREATED_AT', description: 'createdAt is epoch milliseconds as a string, not an RFC 3339 date-time.' },
  'pods.started-at-on-create': { rule: 'POD.RESPONSE.STARTED_AT_NULL_ON_CREATE', description: 'startedAt is set in the creation response.' },
  'pods.cpu-memory-missing': { rule: 'POD.CPU.MEMORY_DERIVED', description: 'A CPU pod\'s cpu carries no memory.' },
  'pods.dns-wrong-pod-id': { rule: 'POD.GLOBAL_NETWORKING.DNS_FORM', description: 'internalDns names another id than the pod\'s own.' },
  'pods.ip-when-disabled': { rule: 'POD.GLOBAL_NETWORKING.IP_ONLY_WHEN_ENABLED', description: 'globalNetworking.ip is present when globalNetworking is disabled.' },
  // lifecycle
  'pods.runtime-while-provisioning': { rule: 'POD.RESPONSE.RUNTIME_NULL_UNLESS_RUNNING', description: 'runtime is populated while the pod is PROVISIONING.' },
  'pods.runtime-null-when-running': { rule: 'POD.STATUS.RUNTIME_POPULATED_WHEN_RUNNING', description: 'runtime stays null once the pod is RUNNING.' },
  'pods.stuck-in-starting': { rule: 'POD.STATUS.STARTING_TO_RUNNING', description: 'Pods never leave STARTING.' },
  'pods.cost-when-exited': { rule: 'POD.RESPONSE.COST_ZERO_WHEN_STOPPED', description: 'An EXITED pod still reports its hourly cost.' },
  'pods.locked-stoppable': { rule: 'POD.LOCKED.CANNOT_STOP', description: 'A locked pod can be stopped.' },
  'pods.locked-restart-stops': { rule: 'POD.LOCKED.CANNOT_STOP', description: 'restart of a locked pod is answered 200 and leaves it EXITED: stopped.' },
  'pods.unlisted-action-accepted': { rule: 'POD.ACTIONS.UNLISTED_REFUSED', description: 'An action the pod does not list for its status is carried out (start on a RUNNING pod provisions it again).' },
  // updatePod mount semantics
  'pods.patch-network-empty-accepted': { rule: 'MOUNT.UPDATE.NETWORK_EMPTY_ARRAY_400', description: 'PATCH mounts {network: []} is accepted and detaches the volume.' },
  'pods.patch-other-volume-accepted': { rule: 'MOUNT.UPDATE.DIFFERENT_VOLUME_ID_400', description: 'PATCH naming another volumeId swaps the volume.' },
  'pods.patch-mount-on-unmounted-accepted': { rule: 'MOUNT.UPDATE.MOUNT_ON_UNMOUNTED_POD_400', description: 'PATCH adds a mount to a pod created without mounts.' },
  'pods.patch-persistent-on-network-accepted': { rule: 'MOUNT.UPDATE.PERSISTENT_ON_NETWORK_POD_400', description: 'PATCH replaces a network mount with a persistent one.' },
  'pods.patch-empty-mounts-clears': { rule: 'MOUNT.UPDATE.EMPTY_OBJECT_UNCHANGED', description: 'PATCH mounts {} removes every mount.' },
  'pods.patch-incomplete-network-400': { rule: 'MOUNT.UPDATE.INCOMPLETE_NETWORK_422', description: 'PATCH with a network entry lacking volumeId or path answers 400 instead of 422.' },
  'pods.patch-network-path-ignored': { rule: 'MOUNT.UPDATE.NETWORK_PATH_CHANGEABLE', description: 'PATCH of a network mount path answers 200 but keeps the old path.' },
  'pods.patch-drops-mounts': { rule: 'MOUNT.UPDATE.OMITTED_UNCHANGED', description: 'A PATCH that changes another field and omits mounts removes every mount.' },
  'pods.patch-path-once': { rule: 'MOUNT.UPDATE.PERSISTENT_PATH_CHANGEABLE', description: 'A pod\'s mount path can be changed once: a second change is refused 400.' },
  // isolation
  'pods.other-account-visible': { rule: 'POD.ACCOUNT.OTHER_INVISIBLE', description: 'getPod answers another account\'s pod.' },
} as const satisfies Record<string, FaultDef>;

declare module '../switches.js' {
  // Adds this table's ids to the fault ids a world knows (switches.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds members
  interface FaultRegistry extends Record<keyof typeof podFaults, FaultDef> {}
}
