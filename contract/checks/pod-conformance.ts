import type { Pod } from '../../lib/types.gen.js';
import { validate, type ValidationIssue } from '../../lib/schema-registry.js';
import type { Finding } from '../support/rules.js';

/**
 * Which rule a Pod schema issue breaks, first match wins. The schema (`schemas/pod.schema.json`)
 * holds the constraints; this table only names the rule each one comes from, so a report says
 * "cost is not 0.0 while EXITED", not "pod schema failed".
 */
const ISSUE_RULES: readonly { test: (i: ValidationIssue) => boolean; rule: string }[] = [
  { test: (i) => i.path === '' && i.keyword === 'required', rule: 'POD.RESPONSE.REQUIRED_FIELDS' },
  { test: (i) => i.path === '' && i.keyword === 'oneOf', rule: 'POD.RESPONSE.GPU_FOR_GPU_PODS' },
  { test: (i) => i.path === '' , rule: 'POD.RESPONSE.REQUIRED_FIELDS' },
  { test: (i) => i.path === '/id', rule: 'POD.RESPONSE.ID' },
  { test: (i) => i.path === '/name', rule: 'POD.RESPONSE.NAME' },
  { test: (i) => i.path === '/status' && i.keyword === 'type', rule: 'POD.RESPONSE.STATUS' },
  { test: (i) => i.path === '/status', rule: 'POD.STATUS.VALUES' },
  { test: (i) => i.path.startsWith('/actions'), rule: 'POD.RESPONSE.ACTIONS_VALUES' },
  { test: (i) => i.path === '/image', rule: 'POD.RESPONSE.IMAGE' },
  { test: (i) => i.path === '/args', rule: 'POD.RESPONSE.ARGS' },
  { test: (i) => i.path === '/disk', rule: 'POD.RESPONSE.DISK' },
  { test: (i) => i.path.startsWith('/ports'), rule: 'POD.RESPONSE.PORTS_FORMAT' },
  { test: (i) => i.path.startsWith('/env'), rule: 'POD.RESPONSE.ENV' },
  { test: (i) => i.path === '/registry', rule: 'POD.RESPONSE.REGISTRY' },
  { test: (i) => i.path === '/mounts/persistent' && i.keyword === 'false schema', rule: 'MOUNT.PERSISTENT.CPU_INVALID' },
  { test: (i) => i.path.startsWith('/mounts/persistent/'), rule: 'MOUNT.PERSISTENT.SIZE_IN_RESPONSE' },
  { test: (i) => i.path === '/mounts/network' && i.keyword === 'maxItems', rule: 'MOUNT.NETWORK.AT_MOST_ONE' },
  { test: (i) => i.path.startsWith('/mounts'), rule: 'POD.RESPONSE.MOUNTS' },
  { test: (i) => i.path === '/gpu/count', rule: 'POD.GPU.RESPONSE' },
  { test: (i) => i.path.startsWith('/gpu'), rule: 'POD.GPU.RESPONSE' },
  { test: (i) => i.path === '/cpu/memory' && i.keyword !== 'required', rule: 'LIMIT.POD.CPU_MEMORY_MIN_1' },
  { test: (i) => i.path.startsWith('/cpu'), rule: 'POD.CPU.RESPONSE' },
  { test: (i) => i.path === '/cloud', rule: 'POD.RESPONSE.CLOUD' },
  { test: (i) => i.path === '/dataCenterId', rule: 'POD.RESPONSE.DATA_CENTER_ID' },
  { test: (i) => i.path === '/template', rule: 'POD.RESPONSE.TEMPLATE' },
  { test: (i) => i.path === '/cost' && i.keyword === 'const', rule: 'POD.RESPONSE.COST_ZERO_WHEN_STOPPED' },
  { test: (i) => i.path === '/cost', rule: 'POD.RESPONSE.COST' },
  { test: (i) => i.path === '/locked', rule: 'POD.RESPONSE.LOCKED' },
  { test: (i) => i.path === '/globalNetworking/enabled', rule: 'POD.GLOBAL_NETWORKING.ENABLED' },
  { test: (i) => i.path === '/globalNetworking/ip' && i.keyword === 'false schema', rule: 'POD.GLOBAL_NETWORKING.IP_ONLY_WHEN_ENABLED' },
  { test: (i) => i.path === '/globalNetworking/internalDns' && i.keyword === 'false schema', rule: 'POD.GLOBAL_NETWORKING.DNS_ONLY_WHEN_ENABLED' },
  { test: (i) => i.path === '/globalNetworking/internalDns', rule: 'POD.GLOBAL_NETWORKING.DNS_FORM' },
  { test: (i) => i.path === '/globalNetworking/ip', rule: 'POD.GLOBAL_NETWORKING.ENABLED_MEANS_ADDRESS' },
  { test: (i) => i.path.startsWith('/globalNetworking'), rule: 'POD.RESPONSE.GLOBAL_NETWORKING' },
  { test: (i) => i.path === '/runtime' && i.keyword === 'type', rule: 'POD.RESPONSE.RUNTIME_NULL_UNLESS_RUNNING' },
  { test: (i) => i.path.startsWith('/runtime/uptime'), rule: 'POD.RUNTIME.UPTIME' },
  { test: (i) => i.path.startsWith('/runtime/gpus'), rule: 'POD.RUNTIME.GPUS' },
  { test: (i) => i.path.startsWith('/runtime/cpu'), rule: 'POD.RUNTIME.CPU_UTIL' },
  { test: (i) => i.path.startsWith('/runtime/memory'), rule: 'POD.RUNTIME.MEMORY_UTIL' },
  { test: (i) => i.path.startsWith('/runtime/ports'), rule: 'POD.RUNTIME.PORTS' },
  { test: (i) => i.path.startsWith('/runtime'), rule: 'POD.RESPONSE.RUNTIME_NULL_UNLESS_RUNNING' },
  { test: (i) => i.path === '/createdAt', rule: 'POD.RESPONSE.CREATED_AT' },
  { test: (i) => i.path === '/startedAt', rule: 'POD.RESPONSE.STARTED_AT' },
];

export const ruleOfPodIssue = (issue: ValidationIssue): string =>
  ISSUE_RULES.find((r) => r.test(issue))?.rule ?? 'POD.RESPONSE.REQUIRED_FIELDS';

export interface PodExpectation {
  /** The kind the pod was created as: its Pod must carry that object and not the other. */
  kind?: 'gpu' | 'cpu';
  /** Where the pod came from, for messages (`createPod → 201`). */
  where?: string;
}

/**
 * A Pod in any answer (createPod, getPod, listPods, updatePod, podAction) conforms to the Pod
 * response rules: the schema, each issue attributed to its rule, plus what a schema cannot say
 * (the `internalDns` names the pod's own id; an enabled pod has an address; `uptime` is not
 * negative; the pod carries the object of the kind it was created as).
 */
export function podConformance(value: unknown, expect: PodExpectation = {}): Finding[] {
  const where = expect.where ?? 'pod';
  const findings: Finding[] = [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ rule: 'POD.RESPONSE.REQUIRED_FIELDS', message: `${where}: not a JSON object: ${JSON.stringify(value)?.slice(0, 200)}` }];
  }
  const result = validate('pod', value);
  if (!result.valid) for (const i of result.issues) findings.push({ rule: ruleOfPodIssue(i), message: `${where}: ${i.path || '(root)'}: ${i.message}` });
  const pod = value as Partial<Pod>;
  const gn = pod.globalNetworking;
  if (gn?.enabled === true && !(typeof gn.ip === 'string' && gn.ip.length > 0)) {
    findings.push({ rule: 'POD.GLOBAL_NETWORKING.ENABLED_MEANS_ADDRESS', message: `${where}: globalNetworking is enabled but ip is ${JSON.stringify(gn.ip)}` });
  }
  if (typeof gn?.internalDns === 'string' && !gn.internalDns.startsWith(`${pod.id}.`)) {
    findings.push({ rule: 'POD.GLOBAL_NETWORKING.DNS_FORM', message: `${where}: internalDns "${gn.internalDns}" is not <pod_id>.<internal_domain> for pod ${pod.id}` });
  }
  if (typeof gn?.internalDns === 'string' && gn.internalDns.length <= `${pod.id}.`.length) {
    findings.push({ rule: 'POD.GLOBAL_NETWORKING.DNS_FORM', message: `${where}: internalDns "${gn.internalDns}" has no domain after the pod id` });
  }
  const uptime = pod.runtime?.uptime;
  if (typeof uptime === 'number' && uptime < 0) findings.push({ rule: 'POD.RUNTIME.UPTIME', message: `${where}: runtime.uptime is negative (${uptime})` });
  if (expect.kind === 'gpu') {
    if (pod.gpu === undefined) findings.push({ rule: 'POD.RESPONSE.GPU_FOR_GPU_PODS', message: `${where}: a GPU pod has no gpu object` });
    if (pod.cpu !== undefined) findings.push({ rule: 'POD.RESPONSE.CPU_FOR_CPU_PODS', message: `${where}: a GPU pod carries a cpu property` });
  } else if (expect.kind === 'cpu') {
    if (pod.cpu === undefined) findings.push({ rule: 'POD.RESPONSE.CPU_FOR_CPU_PODS', message: `${where}: a CPU pod has no cpu object` });
    if (pod.gpu !== undefined) findings.push({ rule: 'POD.RESPONSE.GPU_FOR_GPU_PODS', message: `${where}: a CPU pod carries a gpu property` });
  }
  return findings;
}
