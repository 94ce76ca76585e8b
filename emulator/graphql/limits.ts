import { Kind, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * Bounds on one GraphQL request, so that bad input can never hang the emulator. The spec
 * gives none; these are the emulator's choices (CHOICES.md). The standard introspection
 * query (depth 13, about 150 fields) stays well inside them.
 */
export const GRAPHQL_LIMITS = {
  /** Lexer tokens in one document (graphql-js `maxTokens`). */
  maxTokens: 20_000,
  /** Nesting of selection sets, fragments expanded. */
  maxDepth: 15,
  /** Fields the operation selects, fragments expanded and counted each time they are spread. */
  maxFields: 2_000,
  /** Validation stops after this many errors. */
  maxErrors: 25,
  /** Nesting of `{`, `[` and `(` in the text: graphql-js parses and validates recursively. */
  maxTextNesting: 64,
} as const;

/**
 * Deepest nesting of brackets in a GraphQL document's text, strings and comments skipped,
 * counted before parsing: graphql-js's recursive descent would overflow the stack on a few
 * thousand levels. Stops counting once past `stopAt`.
 */
export function textNesting(text: string, stopAt = GRAPHQL_LIMITS.maxTextNesting + 1): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === '"') {
      if (text.startsWith('"""', i)) {
        // Block string: ends at the first """ not escaped as \""".
        let end = text.indexOf('"""', i + 3);
        while (end !== -1 && text[end - 1] === '\\') end = text.indexOf('"""', end + 3);
        i = end === -1 ? text.length : end + 2;
      } else {
        for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      depth++;
      if (depth > max) max = depth;
      if (max >= stopAt) return max;
    } else if (c === '}' || c === ']' || c === ')') {
      depth--;
    }
  }
  return max;
}

export interface Cost { depth: number; fields: number }

/**
 * Depth and field count of an operation with every fragment spread expanded. Each fragment
 * is measured once (memoised), so the walk stays linear in the document even when the
 * expanded operation would be exponential; counts saturate just past the limit.
 */
export function operationCost(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): Cost {
  const memo = new Map<string, Cost>();
  const visiting = new Set<string>();
  const cap = (n: number): number => Math.min(n, GRAPHQL_LIMITS.maxFields + 1);

  const measure = (set: SelectionSetNode | undefined): Cost => {
    if (!set) return { depth: 0, fields: 0 };
    let depth = 0;
    let fields = 0;
    for (const sel of set.selections) {
      let inner: Cost;
      if (sel.kind === Kind.FIELD) {
        const sub = measure(sel.selectionSet);
        inner = { depth: sel.selectionSet ? sub.depth + 1 : 1, fields: sub.fields + 1 };
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        inner = measure(sel.selectionSet);
      } else {
        inner = fragmentCost(sel.name.value);
      }
      depth = Math.max(depth, inner.depth);
      fields = cap(fields + inner.fields);
    }
    return { depth, fields };
  };

  const fragmentCost = (name: string): Cost => {
    const known = memo.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    // Unknown or cyclic spreads are left to validation, which rejects them.
    if (!fragment || visiting.has(name)) return { depth: 0, fields: 0 };
    visiting.add(name);
    const cost = measure(fragment.selectionSet);
    visiting.delete(name);
    memo.set(name, cost);
    return cost;
  };

  return measure(operation.selectionSet);
}

/** Messages for each limit the operation exceeds (none when within limits). */
export function limitViolations(cost: Cost): string[] {
  const out: string[] = [];
  if (cost.depth > GRAPHQL_LIMITS.maxDepth) out.push(`The operation nests ${cost.depth} levels deep; at most ${GRAPHQL_LIMITS.maxDepth} are allowed.`);
  if (cost.fields > GRAPHQL_LIMITS.maxFields) out.push(`The operation selects more than ${GRAPHQL_LIMITS.maxFields} fields (fragments expanded).`);
  return out;
}
