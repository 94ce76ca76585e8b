import { Kind, visit, type DocumentNode } from 'graphql';

/** The input field that carries a secret (`SecretInput.value`). */
const SECRET_FIELD = 'value';

/**
 * Every string a request sends as a `value` input field, as a literal or in its variables.
 * Errors are scrubbed of them before the answer leaves, since graphql-js quotes rejected
 * variable values in its messages and a secret's value must never come back. Env values of
 * templates are `value` fields too; scrubbing them from errors costs nothing.
 */
export function sensitiveStrings(document: DocumentNode, variables: unknown): string[] {
  const out = new Set<string>();
  visit(document, {
    ObjectField(node) {
      if (node.name.value === SECRET_FIELD && node.value.kind === Kind.STRING) out.add(node.value.value);
    },
  });
  const walk = (v: unknown, depth: number): void => {
    if (depth > 64 || typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) { for (const item of v) walk(item, depth + 1); return; }
    for (const [k, inner] of Object.entries(v)) {
      if (k === SECRET_FIELD && typeof inner === 'string') out.add(inner);
      else walk(inner, depth + 1);
    }
  };
  walk(variables, 0);
  return [...out];
}
