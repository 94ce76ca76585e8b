import { Kind, type GraphQLResolveInfo } from 'graphql';
import type { Account, ApiKey, World } from '../world.js';

/** What every resolver sees: the caller and its world, plus the request's raw variables. */
export interface GqlContext {
  world: World;
  account: Account;
  apiKey: ApiKey;
  /** Variables as the client sent them (before defaults), to tell "omitted" from "defaulted". */
  rawVariables: Readonly<Record<string, unknown>>;
  /** Strings that must never come back in this answer (secret values); errors are scrubbed of them. */
  sensitive: string[];
}

/** A root field's resolver with graphql-js's root-value signature: (args, context, info). */
export type RootResolver<A = Record<string, unknown>, R = unknown> = (args: A, ctx: GqlContext, info: GraphQLResolveInfo) => R;

/**
 * Names of the fields of the input-object argument `argName` that the client wrote, whether
 * as a literal or through variables. graphql-js fills input defaults (`type: String = "QB"`)
 * before resolvers run, so an update needs this to keep omitted fields as they are.
 */
export function providedInputFields(info: GraphQLResolveInfo, argName: string, raw: Readonly<Record<string, unknown>>): Set<string> {
  const out = new Set<string>();
  const arg = info.fieldNodes[0]?.arguments?.find((a) => a.name.value === argName);
  if (!arg) return out;
  if (arg.value.kind === Kind.VARIABLE) {
    const value = raw[arg.value.name.value];
    if (typeof value === 'object' && value !== null) for (const k of Object.keys(value)) out.add(k);
    return out;
  }
  if (arg.value.kind === Kind.OBJECT) {
    for (const f of arg.value.fields) {
      if (f.value.kind !== Kind.VARIABLE || Object.hasOwn(raw, f.value.name.value)) out.add(f.name.value);
    }
  }
  return out;
}
