import { schemaOf } from '../../../../lib/schema-registry.js';
import { SchemaFactError } from '../../../../lib/errors.js';

/** The `enum` of one property of a schema (the schemas are the source of allowed values). */
function enumOf(schema: 'endpoint-input', property: string): readonly unknown[] {
  const properties = schemaOf(schema).properties as Record<string, { enum?: unknown[] }>;
  const values = properties[property]?.enum;
  if (!values) throw new SchemaFactError(schema, `/properties/${property}`, 'enum');
  return values;
}

/**
 * Allowed values of the endpoint fields, from endpoint-input.schema.json (which quotes the
 * spec's Serverless endpoint (GraphQL view) table).
 */
export const allowed = {
  gpuIds: enumOf('endpoint-input', 'gpuIds') as string[],
  /** The six regions; the "any region" values (empty, null) are listed apart. */
  locations: (enumOf('endpoint-input', 'locations') as (string | null)[]).filter((v): v is string => typeof v === 'string' && v !== ''),
  anyRegion: (enumOf('endpoint-input', 'locations') as (string | null)[]).filter((v) => v === '' || v === null),
  scalerType: enumOf('endpoint-input', 'scalerType') as string[],
  type: enumOf('endpoint-input', 'type') as string[],
  flashBootType: enumOf('endpoint-input', 'flashBootType') as string[],
};
