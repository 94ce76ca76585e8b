import { readFileSync } from 'node:fs';
import {
  buildASTSchema, parse, visit, Kind,
  type DocumentNode, type FieldDefinitionNode, type GraphQLSchema, type InputValueDefinitionNode,
} from 'graphql';
import type { World } from '../world.js';

/** The GraphQL surface's SDL, shared with the suite and the docs: `schemas/schema.graphql`. */
const SDL_URL = new URL('../../schemas/schema.graphql', import.meta.url);

let sdl: DocumentNode | undefined;
const built = new Map<string, GraphQLSchema>();

function sdlDocument(): DocumentNode {
  sdl ??= parse(readFileSync(SDL_URL, 'utf8'));
  return sdl;
}

/** An edit of one input field of the SDL, applied only while a fault asks for it. */
interface InputFieldEdit {
  type: string;
  field: string;
  edit(node: InputValueDefinitionNode): InputValueDefinitionNode;
}

/** Faults that live in the schema itself: a required argument made optional, another default. */
const schemaFaults: Partial<Record<Parameters<World['fault']>[0], InputFieldEdit>> = {
  'graphql.save-endpoint-name-optional': {
    type: 'EndpointInput', field: 'name',
    edit: (node) => (node.type.kind === Kind.NON_NULL_TYPE ? { ...node, type: node.type.type } : node),
  },
  'graphql.type-default-lb': {
    type: 'EndpointInput', field: 'type',
    edit: (node) => ({ ...node, defaultValue: { kind: Kind.STRING, value: 'LB' } }),
  },
};

/** Another type for a result field whose type the spec does not give, applied while a variant asks for it. */
interface ResultFieldType { type: string; field: string; to: string }

/**
 * Variants that live in the schema. `graphql.discount-other-types`: the spec lists
 * `serverlessDiscount`'s fields without types, so `discountFactor` as a String and
 * `expirationDate` as an Int (seconds since the epoch) conform as well as the SDL's Float and String.
 */
const schemaVariants: Partial<Record<Parameters<World['variant']>[0], readonly ResultFieldType[]>> = {
  'graphql.discount-other-types': [
    { type: 'ServerlessDiscount', field: 'discountFactor', to: 'String' },
    { type: 'ServerlessDiscount', field: 'expirationDate', to: 'Int' },
  ],
};

const retyped = (node: FieldDefinitionNode, to: string): FieldDefinitionNode => ({ ...node, type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: to } } });

function applyResultTypes(doc: DocumentNode, edits: readonly ResultFieldType[]): DocumentNode {
  if (edits.length === 0) return doc;
  return visit(doc, {
    ObjectTypeDefinition(node) {
      const mine = edits.filter((e) => e.type === node.name.value);
      if (mine.length === 0) return undefined;
      return { ...node, fields: node.fields?.map((f) => mine.filter((e) => e.field === f.name.value).reduce((n, e) => retyped(n, e.to), f)) };
    },
  });
}

function applyEdits(doc: DocumentNode, edits: readonly InputFieldEdit[]): DocumentNode {
  if (edits.length === 0) return doc;
  return visit(doc, {
    InputObjectTypeDefinition(node) {
      const mine = edits.filter((e) => e.type === node.name.value);
      if (mine.length === 0) return undefined;
      return {
        ...node,
        fields: node.fields?.map((f) => mine.filter((e) => e.field === f.name.value).reduce((n, e) => e.edit(n), f)),
      };
    },
  });
}

/**
 * The executable schema for a world: `buildASTSchema` over the SDL, with the schema-level
 * faults and variants the world has switched on. Built once per combination and cached.
 */
export function schemaFor(world: World): GraphQLSchema {
  const active = (Object.keys(schemaFaults) as (keyof typeof schemaFaults)[]).filter((id) => world.fault(id));
  const variants = (Object.keys(schemaVariants) as (keyof typeof schemaVariants)[]).filter((id) => world.variant(id));
  const cacheKey = [...active, ...variants].join(',');
  let schema = built.get(cacheKey);
  if (!schema) {
    const retypedDoc = applyResultTypes(sdlDocument(), variants.flatMap((id) => schemaVariants[id]!));
    schema = buildASTSchema(applyEdits(retypedDoc, active.map((id) => schemaFaults[id]!)));
    built.set(cacheKey, schema);
  }
  return schema;
}

