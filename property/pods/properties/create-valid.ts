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
import { isNvidia, maxGpusOf, onOtherGpuTypes } from '../../../lib/pod-catalog.js';

/**
 * The other GPU types a GPU body refused 400 may be placed on, as the live platform's
 * description advises (try the next candidate; its 400 may be capacity): every catalog type
 * that can take the body (NVIDIA where it asks global networking, enough GPUs per pod),
 * NVIDIA first. A body every one of them refuses is the target's problem with the request.
 */
function otherCandidates(ctx: PodContext, body: CreatePodRequest): string[] {
  const count = body.gpu?.count ?? 1;
  return ctx.catalog.gpus
    .filter((g) => g.id !== body.gpu?.id && (body.globalNetworking !== true || isNvidia(g)) && (maxGpusOf(g) ?? count) >= count)
    .sort((a, b) => Number(isNvidia(b)) - Number(isNvidia(a)))
    .map((g) => g.id);
}

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
  return fc.asyncProperty(validCreatePodRequest(ctx), async (generated) => {
    const send = (b: CreatePodRequest) => api.op<Pod>('createPod', { body: b });
    // A 400 to a GPU body may be capacity: the same body on the other types decides.
    const { res, body } = await onOtherGpuTypes(await send(generated), generated, otherCandidates(ctx, generated), send);
    if (res.status >= 200 && res.status < 300 && typeof res.body?.id === 'string') onCreated(res.body.id);
    throwFindings(statusCodeConformance('POD.CREATE.201_POD', res, 201));
    throwFindings(
      podConformance(res.body, { kind: body.gpu ? 'gpu' : 'cpu', where: 'createPod → 201' }),
      createdPodConformance(body, res.body),
      placementConformance(ctx, body, res.body),
    );
  });
}
