import {
  GraphQLError, Kind, parse, validate as validateDocument, specifiedRules, getOperationAST,
  type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import { validate, formatIssues } from '../../lib/schema-registry.js';
import { requestFailure, type RequestFailure } from './errors.js';
import { GRAPHQL_LIMITS, limitViolations, operationCost, textNesting } from './limits.js';

/** A request that parsed, validated and stayed within limits: ready to execute. */
export interface PreparedRequest {
  kind: 'prepared';
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
  operationName: string | null;
}

/** A document that parsed, stayed within limits and validated against the schema. */
interface CheckedDocument { kind: 'document'; document: DocumentNode; operations: OperationDefinitionNode[] }

/** Checked documents by schema and query text: clients repeat the same few queries. */
const documentCache = new WeakMap<GraphQLSchema, Map<string, CheckedDocument | RequestFailure>>();
const CACHE_ENTRIES = 256;
const CACHE_MAX_QUERY = 16 * 1024;

/**
 * Parse (bounded in nesting and tokens), cost limits, then validation. Cached, since graphql-js
 * validation costs far more than executing the small queries of this surface; the answers are
 * immutable ASTs and error lists.
 */
function checkedDocument(query: string, schema: GraphQLSchema): CheckedDocument | RequestFailure {
  let cache = documentCache.get(schema);
  if (!cache) documentCache.set(schema, cache = new Map());
  const hit = cache.get(query);
  if (hit) return hit;
  const result = checkDocument(query, schema);
  if (query.length <= CACHE_MAX_QUERY) {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(query, result);
  }
  return result;
}

function checkDocument(query: string, schema: GraphQLSchema): CheckedDocument | RequestFailure {
  if (textNesting(query) > GRAPHQL_LIMITS.maxTextNesting) {
    return requestFailure('GRAPHQL_PARSE_FAILED', [`The document nests brackets deeper than ${GRAPHQL_LIMITS.maxTextNesting} levels.`]);
  }
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: GRAPHQL_LIMITS.maxTokens });
  } catch (e) {
    if (e instanceof GraphQLError) {
      return { kind: 'request-failure', errors: [{ message: e.message, ...(e.locations ? { locations: e.locations } : {}), extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] };
    }
    throw e;
  }

  // Cost before validation: some validation rules are quadratic in the number of fields.
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const total = operations.map((o) => operationCost(o, fragments))
    .reduce((a, c) => ({ depth: Math.max(a.depth, c.depth), fields: a.fields + c.fields }), { depth: 0, fields: 0 });
  const tooBig = limitViolations(total);
  if (tooBig.length > 0) return requestFailure('GRAPHQL_VALIDATION_FAILED', tooBig);

  const invalid = validateDocument(schema, document, specifiedRules, { maxErrors: GRAPHQL_LIMITS.maxErrors });
  if (invalid.length > 0) {
    return {
      kind: 'request-failure', document,
      errors: invalid.map((e) => ({ message: e.message, ...(e.locations ? { locations: e.locations } : {}), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })),
    };
  }
  return { kind: 'document', document, operations };
}

/**
 * Steps before execution, each answering a GraphQL error response (never an exception) for
 * bad input: body shape (`schemas/graphql-request.schema.json`), parse (token-bounded), cost
 * limits, validation against the schema, operation selection.
 */
export function prepareRequest(body: unknown, schema: GraphQLSchema): PreparedRequest | RequestFailure {
  if (body === undefined) return requestFailure('BAD_REQUEST', ['The body must be a JSON object with a "query" string (a GraphQL document).']);
  const shape = validate('graphql-request', body);
  if (!shape.valid) {
    return requestFailure('BAD_REQUEST', [`The body is not a GraphQL request: ${formatIssues(shape.issues).replace(/\n/g, '; ')}.`]);
  }
  const { query, variables, operationName } = body as { query: string; variables?: Record<string, unknown> | null; operationName?: string | null };

  const checked = checkedDocument(query, schema);
  if (checked.kind === 'request-failure') return checked;
  const { document, operations } = checked;

  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) {
    return requestFailure('BAD_REQUEST', [operationName ? `The document has no operation named "${operationName}".`
      : operations.length === 0 ? 'The document holds no operation to run.'
      : 'The document holds several operations: name the one to run in "operationName".']);
  }
  if (operation.operation === 'subscription') return requestFailure('BAD_REQUEST', ['Subscriptions are not served.']);
  return { kind: 'prepared', document, operation, variables: variables ?? {}, operationName: operationName ?? null };
}
