import fc from 'fast-check';
import type { ApiClient } from '../../../lib/client/api.js';
import type { CreatePodRequest, Pod } from '../../../lib/types.gen.js';
import type { Finding } from '../../../contract/support/rules.js';
import { statusCodeConformance } from '../../../contract/checks/status.js';
import { podConformance } from '../../../contract/checks/pod-conformance.js';
import { createdPodConformance } from '../../../contract/checks/pod-echo.js';
import { validCreatePodRequest } from '../arbitraries/valid-create-pod-request.js';
import type { PodContext } from '../support/context.js';
import { throwFindings } from '../../../lib/errors.js';

/** Where the pod was placed agrees with its volume and its global networking (spec, Mounts; rule 5). */
function placementConformance(ctx: PodContext, sent: CreatePodRequest, pod: Pod): Finding[] {
  const dc = pod.dataCenterId;
  if (dc === null || dc === undefined) return [];
  const findings: Finding[] = [];
  const volume = ctx.volumes.find((v) => v.id === sent.mounts?.network?.[0]?.volumeId);
  if (volume && dc !== volume.dataCenter) findings.push({ rule: 'MOUNT.NETWORK.SAME_DATA_CENTER', message: `placed in ${dc}, its volume is in ${volume.dataCenter}` });
  if (sent.globalNetworking === true && !ctx.catalog.dataCenters.some((d) => d.id === dc && d.globalNetwork)) {
    findings.push({ rule: 'POD.CREATE.GLOBAL_NETWORKING_ELIGIBLE', message: `global networking pod placed in ${dc}, which has no globalNetwork` });
  }
  return findings;
}

/**
 * Every valid CreatePodRequest is answered 201 with a Pod that conforms to the Pod rules,
 * echoes the request with the spec's defaults applied, is PROVISIONING with `startedAt` and
 * `runtime` null, and is placed where its volume and global networking allow.
 * `onCreated` lets the caller delete what a real target made.
 */
export function validCreateProperty(api: ApiClient, ctx: PodContext, onCreated: (podId: string) => void = () => undefined) {
  return fc.asyncProperty(validCreatePodRequest(ctx), async (body) => {
    const res = await api.op<Pod>('createPod', { body });
    if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'string') onCreated(res.body.id);
    throwFindings(statusCodeConformance('POD.CREATE.201_POD', res, 201));
    throwFindings(
      podConformance(res.body, { kind: body.gpu ? 'gpu' : 'cpu', where: 'createPod → 201' }),
      createdPodConformance(body, res.body),
      placementConformance(ctx, body, res.body),
    );
  });
}
