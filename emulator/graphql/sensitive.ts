import { Kind, visit, type DocumentNode, type ValueNode } from 'graphql';

/** The input field that carries a secret (`SecretInput.value`). */
const SECRET_FIELD = 'value';
const MAX_DEPTH = 64;

/** Every string literal inside a value node (a secret sent as a list is still a secret). */
function literalStrings(node: ValueNode, out: Set<string>, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  if (node.kind === Kind.STRING) out.add(node.value);
  else if (node.kind === Kind.LIST) for (const v of node.values) literalStrings(v, out, depth + 1);
  else if (node.kind === Kind.OBJECT) for (const f of node.fields) literalStrings(f.value, out, depth + 1);
}

/** Every string inside a JSON value. */
function jsonStrings(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') out.add(value);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) jsonStrings(v, out, depth + 1);
}

/**
 * Every string a request sends under a `value` input field, as a literal or in its variables.
 * Errors are scrubbed of them before the answer leaves: graphql-js quotes rejected values in
 * its messages, and a secret's value must never come back. Env values of templates are
 * `value` fields too; scrubbing them from errors costs nothing.
 */
export function sensitiveStrings(document: DocumentNode, variables: unknown): string[] {
  const out = new Set<string>();
  visit(document, {
    ObjectField(node) {
      if (node.name.value === SECRET_FIELD) literalStrings(node.value, out);
    },
  });
  const walk = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || typeof v !== 'object' || v === null) return;
    for (const [k, inner] of Object.entries(v)) {
      if (k === SECRET_FIELD) jsonStrings(inner, out);
      else walk(inner, depth + 1);
    }
  };
  walk(variables, 0);
  return [...out];
}
