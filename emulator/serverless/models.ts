import { fail, json, problem, ProblemError } from '../http/reply.js';
import type { Ctx, RouteDef } from '../types.js';
import { jobInput } from './access.js';
import { syncId } from './job.js';
import { okStatus } from './ops-submit.js';

/**
 * Public model endpoints (spec: "pre-deployed models reachable with the same job operation
 * style (for example `runsync`) under a model-named endpoint identifier", "with bearer
 * authentication"). The models and their inputs are "not shown": the emulator offers one
 * image model whose `output` holds an image URL (CHOICES.md).
 */
export interface PublicModel {
  id: string;
  description: string;
  run(input: Record<string, unknown>, jobId: string): { output: unknown; executionTime: number };
}

const SIZE = { min: 64, max: 2048 } as const;

function sizeField(input: Record<string, unknown>, key: 'width' | 'height', errors: string[]): number {
  const v = input[key];
  if (v === undefined) return 1024;
  if (!Number.isInteger(v) || (v as number) < SIZE.min || (v as number) > SIZE.max) errors.push(`/input/${key}: must be an integer from ${SIZE.min} to ${SIZE.max}`);
  return v as number;
}

export const PUBLIC_MODELS: readonly PublicModel[] = [
  {
    id: 'image-gen-turbo',
    description: 'Text-to-image. Input: prompt (string, required), width and height (64 to 2048, default 1024), seed (integer).',
    run(input, jobId) {
      const errors: string[] = [];
      if (typeof input.prompt !== 'string' || input.prompt.trim() === '') errors.push('/input/prompt: must be a non-empty string');
      const width = sizeField(input, 'width', errors);
      const height = sizeField(input, 'height', errors);
      if (input.seed !== undefined && !Number.isInteger(input.seed)) errors.push('/input/seed: must be an integer');
      if (errors.length) fail('validation-failed', 'The input does not suit image-gen-turbo.', errors);
      const seed = (input.seed as number | undefined) ?? 42;
      return {
        output: { image_url: `https://models.compute-platform.test/image-gen-turbo/${jobId}.png`, width, height, seed },
        executionTime: Math.round((width * height) / 1024),
      };
    },
  },
];

/** Public model runsync demands `Authorization: Bearer <key>` (spec, Authentication). */
function requireBearer(ctx: Ctx): void {
  if (/^Bearer\s/i.test(ctx.headers.authorization ?? '') || ctx.world.fault('model.raw-key-accepted')) return;
  throw new ProblemError(problem('unauthorized', 'Public model endpoints take the key as "Authorization: Bearer <API_KEY>".', undefined, { 'WWW-Authenticate': 'Bearer' }));
}

/**
 * One static route per model: static paths win over the parametric serverless ones in the
 * router. The route reads keys in both forms (`serverless` style) so that the handler, not
 * the pipeline, refuses a key without the Bearer scheme (and the fault can let it through).
 */
export const modelRoutes: RouteDef[] = PUBLIC_MODELS.map((model): RouteDef => ({
  method: 'POST', path: `/v2/${model.id}/runsync`, operation: 'runSync', surface: 'serverless', auth: 'serverless', scope: 'write',
  handle(ctx) {
    requireBearer(ctx);
    const input = jobInput(ctx);
    const id = syncId(ctx.world, ctx.world.nextId('img-'));
    const { output, executionTime } = model.run(input, id);
    // Variant `models.runsync-in-progress`: the model is still working when /runsync answers.
    if (ctx.world.variant('models.runsync-in-progress')) return json(okStatus(ctx), { id, status: 'IN_PROGRESS', delayTime: 0 });
    const body: Record<string, unknown> = { id, status: 'COMPLETED', delayTime: 0, executionTime };
    if (!ctx.world.fault('model.output-missing')) body.output = output;
    return json(okStatus(ctx), body);
  },
}));
