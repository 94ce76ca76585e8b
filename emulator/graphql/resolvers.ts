import type { GqlContext, RootResolver } from './context.js';
import { deleteEndpoint, endpointsOf, saveEndpoint, updateEndpointTemplate } from './endpoints.js';
import { secretCreate, secretDelete } from './secrets.js';
import { deleteTemplate, saveTemplate } from './templates.js';

/** The discount of the variant `graphql.discount-other-types`: its fields in the other legal types of that variant's schema. */
const OTHER_TYPED_DISCOUNT = { discountFactor: '0.85', type: 'SERVERLESS', expirationDate: 1798761600 } as const;

/**
 * `myself`: the calling account. `serverlessDiscount` is the spec's "nullable object"; the
 * emulator's accounts have no discount, so it is null (CHOICES.md), but for the variant above.
 */
const myself: RootResolver<Record<string, never>> = (_args, ctx: GqlContext) => ({
  id: ctx.account.id,
  endpoints: () => endpointsOf(ctx),
  serverlessDiscount: ctx.world.variant('graphql.discount-other-types') ? { ...OTHER_TYPED_DISCOUNT } : null,
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
