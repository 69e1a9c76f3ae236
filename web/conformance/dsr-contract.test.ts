/**
 * The DSR contract as documented (issue #17, item 2): every operation of the official
 * Store and Admin API documents for Digital Sales Rooms (the extract in
 * `storefront-proxy/tests/reference/dsr-openapi.json`) is called with its documented
 * minimal body — only the required properties, each variant of a `oneOf` on its own —
 * and must be accepted, and its answer must hold every property the document lists as
 * required, at every depth (null where unset, as Shopware answers). Operations this shop
 * does not serve are listed with the reason, and must answer 404.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, test } from 'vitest';
import { ACCESS_KEY } from './client';

type Schema = Record<string, unknown>;
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }>; $ref?: string }>;
}
type Api = 'storeApi' | 'adminApi';
interface Document {
  storeApi: { paths: Record<string, Record<string, Operation>>; schemas: Record<string, Schema> };
  adminApi: { paths: Record<string, Record<string, Operation>>; schemas: Record<string, Schema> };
}

const DOCUMENT = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../storefront-proxy/tests/reference/dsr-openapi.json'), 'utf8'),
) as Document;

/**
 * Documented operations the shop does not serve (yet), with the reason. Each must answer 404.
 * None since session 19: the default-info mark and the shared shopping lists are served.
 */
const NOT_SERVED: Record<string, string> = {};

/** Documented refusals the minimal call meets on purpose, with the reason. */
const REFUSED: Record<string, { status: number; why: string }> = {
  'POST /store-api/dsr/account/update-default-info': {
    status: 403,
    why: 'marks a customer with an account; the suite’s attendee is a guest (a logged-in customer is checked below)',
  },
  'POST /store-api/dsr/customer/generate-login-token': {
    status: 403,
    why: 'a login token is for a logged-in customer attending; the suite’s attendee is a guest',
  },
  'POST /store-api/dsr/customer/automatic-login': {
    status: 400,
    why: 'the token must be one generate-login-token answered (one use, 5 minutes); the documented minimal body has none',
  },
  'POST /store-api/dsr/customer/migrate-visitor-session': {
    status: 400,
    why: 'contextToken must be a guest attendee’s room session other than the caller’s; the documented minimal body has none',
  },
  'POST /store-api/dsr/appointment/{appointmentId}/download-ics': {
    status: 404,
    why: 'the token must be one an invitation mail of the appointment carries; the documented minimal body has none',
  },
  'GET /api/_action/dsr/appointment/attendee/{attendeeId}/sw-context-token': {
    status: 403,
    why: 'only while the attendee granted cart access, which a fresh attendee has not',
  },
  'GET /api/_action/dsr/appointment/attendee/{attendeeId}/load-temp-cart': {
    status: 403,
    why: 'a discount on the attendee’s cart: only while they granted cart access, as sw-context-token',
  },
  'POST /api/_action/dsr/appointment/attendee/{attendeeId}/add-temp-discount': {
    status: 403,
    why: 'a discount on the attendee’s cart: only while they granted cart access, as sw-context-token',
  },
  'POST /api/_action/dsr/appointment/attendee/{attendeeId}/remove-temp-discount': {
    status: 403,
    why: 'a discount on the attendee’s cart: only while they granted cart access, as sw-context-token',
  },
  'POST /api/_action/dsr/appointment/attendee/{attendeeId}/apply-temp-discount': {
    status: 403,
    why: 'a discount on the attendee’s cart: only while they granted cart access, as sw-context-token',
  },
  'POST /api/_action/dsr/appointment/attendee/{attendeeId}/add-cart-discount': {
    status: 403,
    why: 'a discount on the attendee’s cart: only while they granted cart access, as sw-context-token',
  },
};

/** Changes the shared servers' demo appointment for good: left to the browser tests on their own servers. */
const LEFT_OUT = new Set(['POST /api/_action/dsr/appointment/{appointmentId}/start', 'POST /api/_action/dsr/appointment/{appointmentId}/end']);

const origin = () => inject('origin');

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${origin()}${url}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: parsed(text) };
}

/** The body as JSON; as text when it is none. */
function parsed(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function resolve(api: Api, schema: unknown): Schema | undefined {
  let current = schema as Schema | undefined;
  for (let depth = 0; current && typeof current.$ref === 'string' && depth < 20; depth += 1) {
    current = DOCUMENT[api].schemas[current.$ref.split('/').pop()!];
  }
  return current;
}

/**
 * The interaction each variant of `DynamicInteractionBody` stands for: the document types
 * `name` as any string; these are the names of the reference's interactions.
 */
const INTERACTION_NAMES: Record<string, string> = {
  EmptyInteraction: 'keep.alive',
  ProductInteraction: 'product.viewed',
  DynamicPageOpenedInteraction: 'dynamicPage.opened',
  DynamicPageClosedInteraction: 'dynamicPage.closed',
  DynamicProductPageOpenedInteraction: 'dynamicProductPage.opened',
  PageViewedInteraction: 'page.viewed',
  GuideHoveredInteraction: 'guide.hovered',
  ToggleBroadcastModeInteraction: 'broadcastMode.toggled',
  ViewModeChangedInteraction: 'viewMode.changed',
  ScreenSharingToggledInteraction: 'screenSharing.toggled',
};

/** Every minimal body of `schema`: one per `oneOf` variant, else one. */
function minimalBodies(api: Api, schema: unknown): unknown[] {
  const resolved = resolve(api, schema);
  if (!resolved) return [{}];
  if (Array.isArray(resolved.oneOf)) {
    return (resolved.oneOf as Schema[]).flatMap((variant) => {
      const reference = typeof variant.$ref === 'string' ? variant.$ref : '';
      const name = INTERACTION_NAMES[reference.split('/').pop()!];
      return minimalBodies(api, variant).map((body) => (name ? { ...(body as object), name } : body));
    });
  }
  const body: Record<string, unknown> = {};
  for (const part of (resolved.allOf as unknown[] | undefined) ?? []) {
    Object.assign(body, minimalBodies(api, part)[0] as object);
  }
  const required = Array.isArray(resolved.required) ? (resolved.required as string[]) : [];
  const properties = (resolved.properties ?? {}) as Record<string, Schema>;
  for (const name of required) body[name] = sample(api, name, resolve(api, properties[name]) ?? {});
  return [body];
}

/** The required properties `value` lacks, by JSON pointer, at every depth. */
function missingRequired(api: Api, schema: unknown, value: unknown, at = '', depth = 0): string[] {
  const resolved = resolve(api, schema);
  if (!resolved || depth > 12 || value === null || value === undefined) return [];
  const missing: string[] = [];
  for (const part of (resolved.allOf as unknown[] | undefined) ?? []) missing.push(...missingRequired(api, part, value, at, depth + 1));
  if (Array.isArray(value)) {
    if (resolved.items) value.forEach((item, index) => missing.push(...missingRequired(api, resolved.items, item, `${at}/${index}`, depth + 1)));
    return missing;
  }
  if (typeof value !== 'object') return missing;
  const object = value as Record<string, unknown>;
  if (Array.isArray(resolved.required)) {
    for (const name of resolved.required as string[]) if (!(name in object)) missing.push(`${at}/${name}`);
  }
  for (const [name, property] of Object.entries((resolved.properties ?? {}) as Record<string, unknown>)) {
    if (name in object) missing.push(...missingRequired(api, property, object[name], `${at}/${name}`, depth + 1));
  }
  return missing;
}

/** Ids of the demo the calls are made with. */
const ids: Record<string, string> = {};
/** The demo customer's logged-in session. */
let customerHeaders: Record<string, string> = {};
const headers: Record<Api, Record<string, string>> = { storeApi: {}, adminApi: {} };

beforeAll(async () => {
  const token = await call('POST', '/api/oauth/token', {}, {
    grant_type: 'password',
    client_id: 'administration',
    username: 'admin',
    password: 'shopware',
  });
  headers.adminApi = { authorization: `Bearer ${(token.body as { access_token: string }).access_token}` };
  const appointments = await call('POST', '/api/search/dsr-appointment', headers.adminApi, {
    filter: [{ type: 'equals', field: 'presentationPath', value: 'demo' }],
  });
  ids.appointmentId = (appointments.body as { data: { id: string }[] }).data[0]!.id;
  ids.presentationPath = 'demo';
  const join = await call('POST', '/store-api/dsr/appointment/demo/join-as-client', { 'sw-access-key': ACCESS_KEY }, { attendeeName: 'Contract' });
  const joined = join.body as { newContextToken: string; attendeeId: string };
  headers.storeApi = { 'sw-access-key': ACCESS_KEY, 'sw-context-token': joined.newContextToken };
  ids.attendeeId = joined.attendeeId;
  await call('POST', `/api/_action/dsr/appointment/${ids.appointmentId}/join-as-guide`, headers.adminApi, {});
  const structure = (await call('GET', '/store-api/dsr/appointment/presentation', headers.storeApi)).body as {
    cmsPageResults: { cmsPage: { id: string; type: string; sections: { id: string }[] } }[];
    navigation: { groupId: string }[];
  };
  const first = structure.cmsPageResults[0]!.cmsPage;
  ids.presentationCmsPageId = first.id;
  ids.sectionId = first.sections[0]!.id;
  ids.currentPageGroupId = structure.navigation[0]!.groupId;
  // A product with variants, so that configurators and options are in the answers.
  const products = (
    await call('POST', '/store-api/product', { 'sw-access-key': ACCESS_KEY }, {
      limit: 1,
      filter: [{ type: 'range', field: 'childCount', parameters: { gt: 0 } }],
    })
  ).body as { elements: { id: string }[] };
  ids.productId = products.elements[0]!.id;
  // The quickview layout: the presentation's product detail layout.
  const detail = structure.cmsPageResults.find((result) => result.cmsPage.type === 'presentation_product_detail');
  ids.cmsPageLayoutId = (detail ?? structure.cmsPageResults[0]!).cmsPage.id;
  ids.alias = 'liked';
  ids.layoutName = 'tos';
  // A shopping list of the demo customer, for a guide to share into the appointment.
  const login = await fetch(`${origin()}/store-api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sw-access-key': ACCESS_KEY },
    body: JSON.stringify({ username: 'demo@example.com', password: 'salesroom' }),
  });
  customerHeaders = { 'sw-access-key': ACCESS_KEY, 'sw-context-token': login.headers.get('sw-context-token')! };
  const simple = (
    await call('POST', '/store-api/product', { 'sw-access-key': ACCESS_KEY }, { limit: 1, filter: [{ type: 'equals', field: 'childCount', value: 0 }] })
  ).body as { elements: { id: string }[] };
  ids.sharedProductId = simple.elements[0]!.id;
  const list = await call('POST', '/store-api/shopping-list', customerHeaders, {
    name: 'Contract',
    lineItems: { a: { id: ids.sharedProductId, quantity: 2 } },
  });
  ids.shoppingListId = (list.body as { id: string }).id;
  const salutations = (await call('GET', '/store-api/salutation', { 'sw-access-key': ACCESS_KEY })).body as { elements: { id: string }[] };
  ids.salutationId = salutations.elements[0]!.id;
});

function sample(api: Api, name: string, property: Schema): unknown {
  if (name === 'productIds' || name === 'addProductIds') return [ids.productId];
  if (name === 'removeProductIds') return [];
  if (name in ids) return ids[name];
  if (Array.isArray(property.enum)) return property.enum[0];
  if (property.type === undefined && (property.allOf || property.oneOf || property.properties)) return minimalBodies(api, property)[0];
  if (property.const !== undefined) return property.const;
  if (property.format === 'email') return 'contract@example.com';
  switch (property.type) {
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'object':
      return minimalBodies(api, property)[0];
    default:
      return property.pattern === '^[0-9a-f]{32}$' ? ids.productId : 'contract';
  }
}

const operations: { api: Api; method: string; path: string; operation: Operation }[] = [];
for (const api of ['storeApi', 'adminApi'] as const) {
  for (const [documentPath, methods] of Object.entries(DOCUMENT[api].paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (typeof operation === 'object' && operation) operations.push({ api, method: method.toUpperCase(), path: documentPath, operation });
    }
  }
}

describe('every documented DSR operation', () => {
  test.each(operations.map((o) => [`${o.method} ${o.api === 'storeApi' ? '/store-api' : '/api'}${o.path}`, o] as const))(
    '%s',
    async (name, { api, method, path: documentPath, operation }) => {
      if (LEFT_OUT.has(name)) return;
      if (name === 'PATCH /api/_action/dsr/appointment/{appointmentId}/instant-listing') {
        // The listing the documented POST made (the admin operations run after the store ones).
        const structure = (await call('GET', '/store-api/dsr/appointment/presentation', headers.storeApi)).body as {
          navigation: { groupId: string; isInstantListing: boolean }[];
        };
        ids.currentPageGroupId = structure.navigation.findLast((entry) => entry.isInstantListing)?.groupId ?? ids.currentPageGroupId!;
      }
      const url = (api === 'storeApi' ? '/store-api' : '/api') + documentPath.replace(/\{(\w+)\}/g, (_, key: string) => ids[key] ?? key);
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const bodies = schema ? minimalBodies(api, schema) : method === 'GET' || method === 'DELETE' ? [undefined] : [{}];
      for (const body of bodies) {
        const answer = await call(method, url, headers[api], body);
        const context = `${name} with ${JSON.stringify(body)} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 400)}`;
        if (name in NOT_SERVED) {
          expect(answer.status, context).toBe(404);
          continue;
        }
        const refused = REFUSED[name];
        if (refused) {
          expect(answer.status, context).toBe(refused.status);
          continue;
        }
        expect(answer.status, context).toBeLessThan(300);
        let documented = operation.responses?.[String(answer.status)];
        if (documented?.$ref) documented = undefined;
        const responseSchema = documented?.content?.['application/json']?.schema;
        if (responseSchema) expect(missingRequired(api, responseSchema, answer.body), context).toEqual([]);
      }
    },
  );
});

describe('login tokens from the room to the storefront, as documented', () => {
  test('a customer attendee’s token logs a storefront session in once; a guest’s cart moves over', async () => {
    const store = { 'sw-access-key': ACCESS_KEY };
    const login = await fetch(`${origin()}/store-api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...store },
      body: JSON.stringify({ username: 'demo@example.com', password: 'salesroom' }),
    });
    expect(login.status).toBe(200);
    const customer = { ...store, 'sw-context-token': login.headers.get('sw-context-token')! };
    expect((await call('POST', '/store-api/dsr/appointment/demo/join-as-client', customer, { attendeeName: 'Contract customer' })).status).toBe(200);
    const generated = await call('POST', '/store-api/dsr/customer/generate-login-token', customer, { storefrontUrl: origin() });
    expect(generated.status).toBe(200);
    const { apiAlias, token } = generated.body as { apiAlias: string; token: string };
    expect(apiAlias).toBe('dsr.storefront-login.response');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const storefront = await call('GET', '/store-api/context', store);
    const session = { ...store, 'sw-context-token': (storefront.body as { token: string }).token };
    const loggedIn = await call('POST', '/store-api/dsr/customer/automatic-login', session, { token });
    expect(loggedIn.status).toBe(200);
    expect(typeof (loggedIn.body as { contextToken?: unknown }).contextToken).toBe('string');
    const reused = await call('POST', '/store-api/dsr/customer/automatic-login', session, { token });
    expect(reused.status).toBe(401);
    // The suite's guest attendee hands its (empty) cart to a fresh storefront session.
    const other = await call('GET', '/store-api/context', store);
    const moved = await call(
      'POST',
      '/store-api/dsr/customer/migrate-visitor-session',
      { ...store, 'sw-context-token': (other.body as { token: string }).token },
      { contextToken: headers.storeApi['sw-context-token'] },
    );
    expect(moved.status).toBe(204);
  });
});

describe('the default-info mark and shared shopping lists, as documented', () => {
  test('a logged-in customer is marked once; the mark is read back with the customer', async () => {
    const marked = await call('POST', '/store-api/dsr/account/update-default-info', customerHeaders, {});
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ success: true });
    const customer = await call('POST', '/store-api/account/customer', customerHeaders, {});
    expect((customer.body as { customFields: Record<string, unknown> }).customFields.dsrDefaultInfoUpdatedAt).toEqual(expect.any(String));
  });

  test('the list a guide shared is what the attendees load', async () => {
    const shared = await call('POST', `/api/_action/dsr/appointment/${ids.appointmentId}/shopping-lists/${ids.shoppingListId}`, headers.adminApi, {});
    expect(shared.status).toBe(200);
    expect(shared.body).toEqual({ data: { [ids.sharedProductId!]: { quantity: 2 } } });
    // A new attendee: the documented calls above removed the suite's own.
    const join = await call('POST', '/store-api/dsr/appointment/demo/join-as-client', { 'sw-access-key': ACCESS_KEY }, { attendeeName: 'Lists' });
    const attendee = { 'sw-access-key': ACCESS_KEY, 'sw-context-token': (join.body as { newContextToken: string }).newContextToken };
    const loaded = await call('GET', `/store-api/dsr/appointment/${ids.appointmentId}/shopping-lists`, attendee);
    expect(loaded.body).toEqual({ apiAlias: 'dsr.appointment.load-shopping-lists', data: { [ids.sharedProductId!]: { quantity: 2 } } });
  });
});
