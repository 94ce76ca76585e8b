import type { ApiClient } from '../../../lib/client/api.js';
import type { CreatePodRequest, NetworkVolume, Pod, PodStatus } from '../../../lib/types.gen.js';
import type { Finding } from '../../../contract/support/rules.js';
import { throwFindings } from '../../../lib/errors.js';
import { podConformance } from '../../../contract/checks/pod-conformance.js';
import { EMULATED_READY_BOUND_MS } from '../../../contract/specs/pods/support/wait.js';

/**
 * The model of a pod's life that the commands check the target against: only what the spec
 * states. The spec shows no timings and no effects of actions, so the model learns the status
 * from the target after the clock moves or an action is accepted, and checks that what it
 * learns is allowed: automatic moves go forward only (PROVISIONING → STARTING → RUNNING, or
 * ERROR, or a container exiting: EXITED); mounts change only as the PATCH semantics say; a lock blocks stop and restart; an
 * action the pod lists is accepted; every Pod answered conforms to the Pod rules. A pod still
 * PROVISIONING or STARTING longer than the contract suite's readiness bound
 * (`EMULATED_READY_BOUND_MS` of virtual time) diverges, as it fails readiness there.
 */
export interface ModelPod {
  id: string;
  kind: 'gpu' | 'cpu';
  mounts: NonNullable<CreatePodRequest['mounts']>;
  status: PodStatus;
  /** Actions the pod listed when last read. */
  actions: readonly string[];
  locked: boolean;
  startedAt: string | null;
  /** Model time of the creation or of the last accepted action: the pod should be ready within the bound after it. */
  since: number;
}

/** The pods, and the virtual time the commands have moved the clock by. */
export interface PodModel { pods: ModelPod[]; clock: number }

/** What the commands act on: the API, the clock, two volumes of one data center and valid base bodies. */
export interface PodReal {
  api: ApiClient;
  advance(ms: number): Promise<void>;
  volume: NetworkVolume;
  otherVolume: NetworkVolume;
  gpuBody: CreatePodRequest;
  cpuBody: CreatePodRequest;
  /** The GPU types a GPU create is tried on, in order, when one is refused 400 (capacity). */
  gpuCandidates: readonly string[];
}

/**
 * Where a status may go on its own (spec, States and transitions): forward along PROVISIONING →
 * STARTING → RUNNING, or to ERROR; and, since "Transitions for `EXITED`, `ERROR` ...: not shown"
 * and a container may exit, from RUNNING (or through it, unseen between two reads) to EXITED.
 * From EXITED and ERROR nothing is stated, so any status is allowed.
 */
const AUTOMATIC: Partial<Record<PodStatus, readonly PodStatus[]>> = {
  PROVISIONING: ['PROVISIONING', 'STARTING', 'RUNNING', 'ERROR', 'EXITED'],
  STARTING: ['STARTING', 'RUNNING', 'ERROR', 'EXITED'],
  RUNNING: ['RUNNING', 'ERROR', 'EXITED'],
};

/** The pod commands may act on: not terminated, chosen by a generated index. */
export function livePod(m: PodModel, index: number): ModelPod | undefined {
  const live = m.pods.filter((p) => p.status !== 'TERMINATED');
  return live.length === 0 ? undefined : live[index % live.length];
}

/**
 * Checks a Pod read from the target against the model, then learns its status. `automatic`
 * (the default) means nothing but the clock moved since the model last saw the pod, so the
 * status may only have moved forward; after an accepted action the spec shows no effect.
 */
export function observe(model: ModelPod, pod: Pod, where: string, now: number, automatic = true): void {
  const allowed = automatic ? AUTOMATIC[model.status] : undefined;
  const findings: Finding[] = [...podConformance(pod, { kind: model.kind, where })];
  if (automatic && (pod.status === 'PROVISIONING' || pod.status === 'STARTING') && now - model.since > EMULATED_READY_BOUND_MS) {
    findings.push({ rule: pod.status === 'STARTING' ? 'POD.STATUS.STARTING_TO_RUNNING' : 'POD.STATUS.PROVISIONING_TO_STARTING', message: `${where}: still ${pod.status} ${now - model.since} ms after it began` });
  }
  if (allowed && !allowed.includes(pod.status)) {
    findings.push({ rule: model.status === 'RUNNING' ? 'POD.STATUS.STARTING_TO_RUNNING' : 'POD.STATUS.PROVISIONING_TO_STARTING', message: `${where}: ${model.status} became ${pod.status} on its own` });
  }
  if (JSON.stringify(pod.mounts) !== JSON.stringify(model.mounts)) {
    findings.push({ rule: 'MOUNT.UPDATE.OMITTED_UNCHANGED', message: `${where}: mounts are ${JSON.stringify(pod.mounts)}, the model has ${JSON.stringify(model.mounts)}` });
  }
  if (pod.locked !== model.locked) findings.push({ rule: 'POD.RESPONSE.LOCKED', message: `${where}: locked is ${pod.locked}, the model has ${model.locked}` });
  throwFindings(findings);
  model.status = pod.status;
  model.actions = pod.actions;
  model.startedAt = pod.startedAt;
}
