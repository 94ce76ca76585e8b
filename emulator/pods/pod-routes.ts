import type { PodAction } from '../../lib/types.gen.js';
import { fail, json, noContent, problem, type Reply } from '../http/reply.js';
import type { Ctx, RouteDef } from '../types.js';
import { createPodRecord } from './create.js';
import { listAnswer } from './list-answer.js';
import { podLogs } from './logs.js';
import { ACTIONS_BY_STATUS, applyAction, availableActions, LOCK_FORBIDS } from './lifecycle.js';
import type { PodRecord } from './pod-record.js';
import { podsSlice } from './store.js';
import { planUpdate } from './update.js';
import { validateBody } from './validation.js';
import { podView } from './view.js';
import { volumesSlice } from './volumes.js';

const pod = { surface: 'rest-v2', auth: 'bearer' } as const;

/** The caller's pod, or 404: another account's pod does not exist for the caller. */
function ownPod(ctx: Ctx): PodRecord {
  const found = ctx.world.get(podsSlice).get(ctx.params.podId ?? '', ctx.account.id);
  if (!found) fail('not-found', `No pod ${ctx.params.podId} exists for this account.`);
  return found!;
}

/** Whether a lock forbids the action, and the fault that lets it through anyway. */
function lockedOut(ctx: Ctx, p: PodRecord, action: PodAction): boolean {
  if (!p.locked || !LOCK_FORBIDS.includes(action)) return false;
  if (action === 'stop' && ctx.world.fault('pods.locked-stoppable')) return false;
  if (action === 'restart' && ctx.world.fault('pods.locked-restart-stops')) return false;
  return true;
}

function act(ctx: Ctx): Reply {
  const p = ownPod(ctx);
  validateBody(ctx.world, 'pod-action-request', ctx.body);
  const action = (ctx.body as { action: PodAction }).action;
  if (lockedOut(ctx, p, action)) {
    return problem('conflict', `Pod ${p.id} is locked: it cannot be ${action === 'stop' ? 'stopped' : 'reset'}. Unlock it with PATCH {"locked": false} first.`);
  }
  if (!ACTIONS_BY_STATUS[p.status].includes(action) && !ctx.world.fault('pods.unlisted-action-accepted')) {
    return problem('conflict', `The action "${action}" is not valid for a ${p.status} pod; valid now: ${availableActions(p, ctx.world.variant('pods.locked-lists-actions')).join(', ') || 'none'}.`);
  }
  const store = ctx.world.get(podsSlice);
  if (action === 'restart' && p.locked && ctx.world.fault('pods.locked-restart-stops')) {
    applyAction(p, 'stop', ctx.world.clock.now());
    return json(200, podView(p, ctx.world));
  }
  if (action === 'terminate') {
    // The live platform removes a terminated pod, like deletePod (variant `pods.terminate-deletes`).
    if (ctx.world.variant('pods.terminate-deletes')) {
      store.delete(p);
      return noContent();
    }
    p.status = 'TERMINATED';
    p.statusSince = ctx.world.clock.now();
    store.detachVolumes(p);
    return noContent();
  }
  applyAction(p, action, ctx.world.clock.now());
  return json(200, podView(p, ctx.world));
}

/** REST v2 pod operations; paths and payloads follow the live platform (platform-notes). */
export const podOperationRoutes: RouteDef[] = [
  {
    ...pod, method: 'POST', path: '/v2/pods', operation: 'createPod', scope: 'write',
    handle: (ctx) => {
      const record = createPodRecord(ctx.world, ctx.account, ctx.body);
      ctx.world.get(podsSlice).add(record);
      return json(ctx.world.fault('pods.create-answers-200') ? 200 : 201, podView(record, ctx.world));
    },
  },
  {
    ...pod, method: 'GET', path: '/v2/pods', operation: 'listPods', scope: 'read',
    handle: (ctx) => listAnswer(ctx.world, 'pods', ctx.world.get(podsSlice).list(ctx.account.id).map((p) => podView(p, ctx.world))),
  },
  { ...pod, method: 'GET', path: '/v2/pods/:podId', operation: 'getPod', scope: 'read', handle: (ctx) => json(200, podView(ownPod(ctx), ctx.world)) },
  {
    ...pod, method: 'PATCH', path: '/v2/pods/:podId', operation: 'updatePod', scope: 'write',
    handle: (ctx) => {
      const p = ownPod(ctx);
      if (p.status === 'TERMINATED') fail('conflict', `Pod ${p.id} is TERMINATED and cannot be changed.`);
      const apply = planUpdate(ctx.world, ctx.account, p, ctx.body);
      const store = ctx.world.get(podsSlice);
      const volumes = ctx.world.get(volumesSlice);
      store.detachVolumes(p);
      apply(p);
      for (const m of p.mounts.network ?? []) volumes.attach(m.volumeId, p.id);
      return json(200, podView(p, ctx.world));
    },
  },
  {
    ...pod, method: 'DELETE', path: '/v2/pods/:podId', operation: 'deletePod', scope: 'write',
    handle: (ctx) => { ctx.world.get(podsSlice).delete(ownPod(ctx)); return noContent(); },
  },
  { ...pod, method: 'POST', path: '/v2/pods/:podId/action', operation: 'podAction', scope: 'write', handle: act },
  { ...pod, method: 'GET', path: '/v2/pods/:podId/logs', operation: 'podLogs', scope: 'read', handle: (ctx) => podLogs(ctx, ownPod(ctx)) },
];
