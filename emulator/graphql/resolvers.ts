import type { GqlContext, RootResolver } from './context.js';
import { deleteEndpoint, endpointsOf, saveEndpoint, updateEndpointTemplate } from './endpoints.js';
import { secretCreate, secretDelete } from './secrets.js';
import { deleteTemplate, saveTemplate } from './templates.js';

/**
 * `myself`: the calling account. `serverlessDiscount` is the spec's "nullable object"; the
 * emulator's accounts have no discount, so it is null (CHOICES.md).
 */
const myself: RootResolver<Record<string, never>> = (_args, ctx: GqlContext) => ({
  id: ctx.account.id,
  endpoints: () => endpointsOf(ctx),
  serverlessDiscount: null,
});

/**
 * The root value handed to graphql-js `execute`: one resolver per root field of the SDL's
 * Query and Mutation types. graphql-js calls each with (args, context, info).
 */
export const rootValue: Record<string, RootResolver<never>> = {
  myself,
  saveEndpoint,
  deleteEndpoint,
  updateEndpointTemplate,
  saveTemplate,
  deleteTemplate,
  secretCreate,
  secretDelete,
} as Record<string, RootResolver<never>>;
