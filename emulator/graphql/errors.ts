import type { DocumentNode, GraphQLError, GraphQLFormattedError } from 'graphql';
import { GqlOpError, type GqlErrorCode } from '../../lib/errors.js';

/**
 * A refusal a resolver throws on purpose (graphql-js turns it into one `errors[]` entry), and the
 * codes the GraphQL surface puts in `errors[].extensions.code` (Apollo's names, which GraphQL
 * clients already understand; the spec leaves the error format "not shown", the choice is
 * recorded in emulator/graphql/CHOICES.md). Both live in the error catalog, lib/errors.ts.
 */
export { GqlOpError, type GqlErrorCode };

/** An error of the request as a whole (nothing executed): its entries carry no `path`. */
export interface RequestFailure {
  kind: 'request-failure';
  errors: GraphQLFormattedError[];
  /** The parsed document, when the failure came after parsing (for redaction). */
  document?: DocumentNode;
}

export const requestFailure = (code: GqlErrorCode, messages: readonly string[]): RequestFailure => ({
  kind: 'request-failure',
  errors: messages.map((message) => ({ message, extensions: { code } })),
});

/**
 * The wire form of an execution error. A {@link GqlOpError} gives its code and details; any
 * other original error is a bug in the emulator and is rethrown so the app answers 500 and
 * logs it, never a stack trace in the body.
 */
export function formatExecutionError(error: GraphQLError): GraphQLFormattedError {
  const original = error.originalError;
  if (original && !(original instanceof GqlOpError) && !isGraphqlError(original)) throw original;
  const code = original instanceof GqlOpError ? original.extensionCode : 'BAD_USER_INPUT';
  const details = original instanceof GqlOpError && original.details.length > 0 ? { details: [...original.details] } : {};
  return {
    message: error.message,
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions: { code, ...details },
  };
}

const isGraphqlError = (e: Error): boolean => e.name === 'GraphQLError';

/**
 * Removes sensitive strings (secret values sent in this request) from error messages:
 * graphql-js quotes rejected values in its messages (`got invalid value { value: "..." }`,
 * `found "..."`), and a secret's value must never come back in any answer. Quoted forms are
 * replaced whatever their length; bare occurrences of values of 8 characters or more too
 * (shorter bare strings would garble ordinary words).
 */
export function redactErrors(errors: readonly GraphQLFormattedError[], sensitive: readonly string[]): GraphQLFormattedError[] {
  if (sensitive.length === 0) return [...errors];
  const forms = sensitive.flatMap((s) => [JSON.stringify(s), ...(s.length >= 8 ? [s] : [])]).sort((a, b) => b.length - a.length);
  const scrub = (text: string): string => forms.reduce((t, s) => (t.includes(s) ? t.split(s).join(s.startsWith('"') ? '"[REDACTED]"' : '[REDACTED]') : t), text);
  return errors.map((e) => {
    const ext = e.extensions as { details?: unknown } | undefined;
    const details = Array.isArray(ext?.details) ? { details: ext.details.map((d) => scrub(String(d))) } : {};
    return { ...e, message: scrub(e.message), ...(e.extensions ? { extensions: { ...e.extensions, ...details } } : {}) };
  });
}
