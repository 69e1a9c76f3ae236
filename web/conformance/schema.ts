/**
 * Validates Store API responses against the official OpenAPI document that ships with
 * `@shopware/api-client` (OpenAPI 3.2: JSON Schema 2020-12).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// The package does not export the file; it is read from its place in node_modules.
const SCHEMA_FILE = path.resolve(import.meta.dirname, '../node_modules/@shopware/api-client/api-types/storeApiSchema.json');
const document = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as OpenApiDocument;

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  };
}

type Schema = Record<string, unknown>;
type Schemas = Record<string, Schema>;

/**
 * Places where the official document is known to disagree with what Shopware itself
 * answers. Each one patches the document before validation; anything not patched here
 * must validate as documented.
 */
export const KNOWN_SCHEMA_QUIRKS: { why: string; patch: (schemas: Schemas, document: OpenApiDocument) => void }[] = [
  {
    // e.g. `mediaId`, `media`, `linkType`, unloaded associations: Shopware serialises
    // unset fields as null, the document types most of them without null.
    why: 'unset fields are null, typed as non-nullable in the document',
    patch: (_, document) => allowNullProperties([document.components, document.paths]),
  },
  {
    // PHP encodes an empty keyed collection as [], a filled one as an object.
    why: 'aggregations are an object keyed by name ([] when empty); the document says array or object',
    patch: (schemas, document) => {
      const keyed = () => ({ anyOf: [{ type: 'object' }, { type: 'array', maxItems: 0 }, { type: 'null' }] });
      eachNode([document.components, document.paths], (node) => {
        const properties = node.properties as Schemas | undefined;
        if (properties && typeof properties === 'object' && properties.aggregations) properties.aggregations = keyed();
      });
      (schemas.Cart!.properties as Schemas).errors = keyed();
    },
  },
  {
    why: "a country's addressFormat is a list of lines (arrays of snippet keys); the document says object",
    patch: (schemas) => {
      (schemas.Country!.properties as Schemas).addressFormat = { type: ['array', 'object', 'null'] };
    },
  },
  {
    why: "PropertyGroupOption lists `option` as required; Shopware's entity has no such field",
    patch: (schemas) => {
      schemas.PropertyGroupOption!.required = (schemas.PropertyGroupOption!.required as string[]).filter((name) => name !== 'option');
    },
  },
  {
    why: "a line item's payload is the product's cart payload (productNumber, options …), documented as a whole product",
    patch: (schemas) => {
      (schemas.LineItem!.properties as Schemas).payload = { type: 'object' };
    },
  },
  {
    why: "an order's calculatedTaxes and taxRules are lists (as in the cart); the order's prices document them as objects",
    patch: (_, document) =>
      eachNode(document.components, (node) => {
        const properties = node.properties as Schemas | undefined;
        for (const name of ['calculatedTaxes', 'taxRules']) {
          const property = properties?.[name];
          if (property && typeof property === 'object' && property.type !== undefined && !property.items) {
            properties[name] = { type: ['array', 'object', 'null'] };
          }
        }
      }),
  },
  {
    why: 'weights are decimals (kg), documented as integers',
    patch: (schemas) => {
      ((schemas.CartDeliveryInformation!.properties as Schemas).weight as Schema).type = ['number', 'null'];
    },
  },
];

/** Calls `visit` for every object below `root` (example values excluded). */
function eachNode(root: unknown, visit: (node: Schema) => void): void {
  if (Array.isArray(root)) return root.forEach((item) => eachNode(item, visit));
  if (typeof root !== 'object' || root === null) return;
  visit(root as Schema);
  for (const [key, value] of Object.entries(root)) {
    if (key !== 'enum' && key !== 'const' && key !== 'example' && key !== 'examples') eachNode(value, visit);
  }
}

/** Lets every property of every schema below `root` be null as well. */
function allowNullProperties(root: unknown): void {
  eachNode(root, (node) => {
  const properties = node.properties as Schemas | undefined;
  if (properties && typeof properties === 'object') {
    for (const [name, property] of Object.entries(properties)) {
      if (typeof property !== 'object' || property === null) continue;
      if (typeof property.$ref === 'string') {
        properties[name] = { anyOf: [property, { type: 'null' }] };
      } else if (typeof property.type === 'string' && property.type !== 'null') {
        property.type = [property.type, 'null'];
        if (Array.isArray(property.enum)) property.enum = [...(property.enum as unknown[]), null];
        if ('const' in property) {
          property.enum = [property.const, null];
          delete property.const;
        }
      }
    }
  }
  });
}

for (const quirk of KNOWN_SCHEMA_QUIRKS) quirk.patch(document.components.schemas, document);

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

// Not strict: OpenAPI keywords (example, discriminator, xml …) are ignored.
const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
addFormats(ajv);
ajv.addSchema(document, 'store');

const cache = new Map<string, ValidateFunction | null>();

/** The JSON schema of `method path` for `status`, as a `$ref` into the document; null when the document has none. */
function responseSchemaRef(path: string, method: string, status: number): string | null {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the Store API document has no operation ${method.toUpperCase()} ${path}`);
  const responses = operation.responses ?? {};
  const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : null;
  if (!key) return null;
  const pointer = `/paths/${escape(path)}/${method.toLowerCase()}/responses/${key}`;
  let response = responses[key] as { $ref?: string; content?: Record<string, { schema?: unknown }> };
  let base = pointer;
  if (response.$ref) {
    const name = response.$ref.replace('#/components/responses/', '');
    response = document.components.responses[name] ?? {};
    base = `/components/responses/${escape(name)}`;
  }
  if (!response.content?.['application/json']?.schema) return null;
  return `store#${base}/content/application~1json/schema`;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The schema violations of `body` as the answer of `method path` with `status`; empty
 * when it conforms. Throws when the document has no such operation.
 */
export function violations(path: string, method: string, status: number, body: unknown): string[] {
  const id = `${method} ${path} ${status}`;
  if (!cache.has(id)) {
    const ref = responseSchemaRef(path, method, status);
    cache.set(id, ref ? ajv.compile({ $ref: ref }) : null);
  }
  const validate = cache.get(id);
  if (!validate || validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword} (${error.schemaPath})`);
}
