import { execute, type ExecutionResult, type GraphQLFormattedError } from 'graphql';
import { json, problem, type Reply } from '../http/reply.js';
import type { Ctx } from '../types.js';
import type { GqlContext } from './context.js';
import { formatExecutionError, redactErrors } from './errors.js';
import { prepareRequest } from './request.js';
import { rootValue } from './resolvers.js';
import { schemaFor } from './schema.js';
import { sensitiveStrings } from './sensitive.js';

/**
 * HTTP status of a GraphQL answer (the spec leaves it "not shown"; CHOICES.md): a request
 * that could not run at all (body, parse, validation, variables) is 400; a request that ran
 * is 200, with refused operations as entries of `errors` and their fields null in `data`.
 */
const REQUEST_ERROR_STATUS = 400;

/** With the variant `graphql.errors-400`: a request that ran but had an operation refused. */
const REFUSED_OPERATION_400 = 400;

const errorReply = (status: number, errors: readonly GraphQLFormattedError[]): Reply => json(status, { errors });

/**
 * `POST {base_url}/graphql`: graphql-js over the SDL in schemas/schema.graphql. The app has
 * authenticated the key (`api_key` or `Authorization: Bearer`); queries need `read`, and
 * mutations `write`, which this handler checks since a route's scope is static.
 */
export async function handleGraphql(ctx: Ctx): Promise<Reply> {
  const { world } = ctx;
  const schema = schemaFor(world);
  const prepared = prepareRequest(ctx.body, schema);
  if (prepared.kind === 'request-failure') {
    if (world.fault('graphql.bad-document-500')) return problem('internal', 'The GraphQL document could not be processed.');
    // Validation messages print rejected literals; a secret's value must not come back.
    const sensitive = prepared.document ? sensitiveStrings(prepared.document, (ctx.body as { variables?: unknown } | undefined)?.variables) : [];
    return errorReply(REQUEST_ERROR_STATUS, redactErrors(prepared.errors, sensitive));
  }
  if (prepared.operation.operation === 'mutation' && !ctx.apiKey.scopes.has('write') && !world.fault('graphql.readonly-can-mutate')) {
    return problem('forbidden', 'This API key does not grant write access, which GraphQL mutations need.');
  }

  const sensitive = sensitiveStrings(prepared.document, prepared.variables);
  const contextValue: GqlContext = { world, account: ctx.account, apiKey: ctx.apiKey, rawVariables: prepared.variables, sensitive };
  const result: ExecutionResult = await execute({
    schema, document: prepared.document, rootValue, contextValue,
    variableValues: prepared.variables, operationName: prepared.operationName,
  });
  const errors = redactErrors((result.errors ?? []).map(formatExecutionError), contextValue.sensitive);
  // No `data` at all: the variables did not coerce, so nothing ran.
  if (result.data === undefined) return errorReply(REQUEST_ERROR_STATUS, errors);

  let data: unknown = result.data;
  if (world.fault('graphql.result-not-wrapped') && result.data !== null) {
    const values = Object.values(result.data);
    if (values.length === 1) data = values[0];
  }
  const silent = world.fault('graphql.failure-silent');
  if (errors.length > 0 && !silent) return json(world.variant('graphql.errors-400') ? REFUSED_OPERATION_400 : 200, { data, errors });
  return json(200, { data });
}

