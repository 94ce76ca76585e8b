import { schemaOf, type SchemaName } from '../../../lib/schema-registry.js';
import { SchemaFactError } from '../../../lib/errors.js';

/**
 * Constraints read from `schemas/` (never copied by hand): the arbitraries ask here for a
 * bound, an enum, a pattern. A missing constraint is a programming error with a code, so a
 * schema change that removes one fails loudly ({@link SchemaFactError}) instead of widening the
 * generators silently.
 */

/** The raw schema node at a JSON pointer (`/properties/gpu`). */
export function schemaNode(name: SchemaName, pointer: string): Record<string, unknown> {
  let node: unknown = schemaOf(name);
  for (const key of pointer.split('/').slice(1)) node = (node as Record<string, unknown> | undefined)?.[key];
  if (node === null || typeof node !== 'object') throw new SchemaFactError(name, pointer, 'schema');
  return node as Record<string, unknown>;
}

function fact<T>(name: SchemaName, pointer: string, keyword: string, check: (v: unknown) => v is T): T {
  const value = schemaNode(name, pointer)[keyword];
  if (!check(value)) throw new SchemaFactError(name, pointer, `"${keyword}"`);
  return value;
}

const isNumber = (v: unknown): v is number => typeof v === 'number';
const isString = (v: unknown): v is string => typeof v === 'string';
const isArray = (v: unknown): v is unknown[] => Array.isArray(v);

export const minimumOf = (name: SchemaName, pointer: string): number => fact(name, pointer, 'minimum', isNumber);
export const minLengthOf = (name: SchemaName, pointer: string): number => fact(name, pointer, 'minLength', isNumber);
export const patternOf = (name: SchemaName, pointer: string): RegExp => new RegExp(fact(name, pointer, 'pattern', isString));
export const enumOf = <T = unknown>(name: SchemaName, pointer: string): readonly T[] => fact(name, pointer, 'enum', isArray) as T[];
export const requiredOf = (name: SchemaName, pointer: string): readonly string[] => fact(name, pointer, 'required', isArray) as string[];
/** The property names a closed object schema defines (anything else is "unknown"). */
export const propertiesOf = (name: SchemaName, pointer: string): readonly string[] => Object.keys(fact(name, pointer, 'properties', (v): v is object => typeof v === 'object' && v !== null));
