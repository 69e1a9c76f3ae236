import { ApiClientError, createAdminAPIClient, createAPIClient } from '@shopware/api-client';
import type { operations as AdminOperations } from '@shopware/api-client/admin-api-types';
import type { operations as StoreOperations, Schemas } from '@shopware/api-client/store-api-types';
import type { RuntimeConfig } from '@/config/runtime';
import { getCookie } from '@/lib/cookies';
import type { HubSession } from '@/lib/hub';

/** How long a shop call may take (spec section 9). */
const API_TIMEOUT_MS = 10_000;

/**
 * The reference `JoinAppointmentResponse` plus the hub session that storefront-proxy
 * mints at join, in place of the reference's Mercure fields.
 */
export type JoinAppointmentResponse = Schemas['JoinAppointmentResponse'] &
  Required<Pick<Schemas['JoinAppointmentResponse'], 'id' | 'attendeeId' | 'newContextToken' | 'appointmentName'>> & {
    /** WebSocket URL of the hub. */
    hubUrl: string;
    /** Authenticates the hub socket (offered as the subprotocol `bearer.<token>`). */
    hubToken: string;
  };

/** Where and how to open the hub socket after a join. */
export function hubSessionOf(join: JoinAppointmentResponse, config: RuntimeConfig): HubSession {
  const url = join.hubUrl || config.hubUrl;
  if (!url) throw new Error('neither the join response nor the runtime config names a hub URL');
  return { url, token: join.hubToken };
}

/** The administration's password grant, as Shopware's own administration sends it. */
export interface PasswordGrant {
  grant_type: 'password';
  client_id: 'administration';
  scopes: 'write';
  username: string;
  password: string;
}

type JoinAsClient = 'joinAppointmentAsClient post /dsr/appointment/{presentationPath}/join-as-client';
type JoinAsGuide = 'joinAppointmentAsGuide post /_action/dsr/appointment/{appointmentId}/join-as-guide';
type Token = 'token post /oauth/token';

/**
 * The proxied store API cart of an attendee (`/api/_proxy/store-api/{salesChannelId}/…`,
 * the attendee named by `attendeeId`, only while they granted cart permission); not in
 * the official admin document.
 */
type ProxiedCartOperations = {
  'readAttendeeCart get /_proxy/store-api/{salesChannelId}/checkout/cart': {
    pathParams: { salesChannelId: string };
    query: { attendeeId: string };
    response: Schemas['Cart'];
    responseCode: 200;
  };
  'updateAttendeeLineItem patch /_proxy/store-api/{salesChannelId}/checkout/cart/line-item': {
    pathParams: { salesChannelId: string };
    query: { attendeeId: string };
    body: { items: { id: string; quantity: number }[] };
    response: Schemas['Cart'];
    responseCode: 200;
  };
  'removeAttendeeLineItem delete /_proxy/store-api/{salesChannelId}/checkout/cart/line-item': {
    pathParams: { salesChannelId: string };
    query: { attendeeId: string; ids: string[] };
    response: Schemas['Cart'];
    responseCode: 200;
  };
};

/** An appointment a visitor may still join, as `GET /store-api/dsr/appointments` lists it (not in the reference). */
export interface PublicAppointment {
  id: string;
  presentationPath: string;
  name: string;
  /** Guided by a guide, or self-service: open in its window, each attendee on their own. */
  mode?: 'guided' | 'self';
  attendeeRestrictionType: 'open' | 'customer';
  accessibleFrom: string | null;
  accessibleTo: string | null;
  /** The IANA zone it is planned in; the web shows its times in the viewer's zone. */
  timeZone?: string;
  startedAt: string | null;
  live: boolean;
}

/** What an interaction template does when the guide runs it (`dsr-interaction-template`, not in the reference). */
export type InteractionTemplateType = 'highlight-product' | 'open-product-page' | 'instant-listing' | 'message';

/** A prepared interaction of an appointment, run in one click from the cockpit. */
export interface InteractionTemplate {
  id: string;
  appointmentId: string;
  name: string;
  type: InteractionTemplateType;
  productIds: string[];
  message: string | null;
  position: number;
  createdAt: string;
}

/** Our own store API additions (documented in README.md), typed like the reference's operations. */
type SalesroomStoreOperations = {
  'listPublicAppointments get /dsr/appointments': {
    response: { elements: PublicAppointment[]; total: number; limit: number };
    responseCode: 200;
  };
};

/** The guide's saved products of an appointment, in the guide's order, with notes. */
type SavedProductsAnswer = {
  productIds: string[];
  total: number;
  elements: { productId: string; position: number; note: string | null }[];
};

/** Our own Admin API additions (documented in README.md), typed like the reference's operations. */
type SalesroomAdminOperations = {
  'deleteInstantListing delete /_action/dsr/appointment/{appointmentId}/instant-listing/{pageId}': {
    pathParams: { appointmentId: string; pageId: string };
    response: never;
    responseCode: 204;
  };
  'readSavedProducts get /_action/dsr/appointment/{appointmentId}/saved-products': {
    pathParams: { appointmentId: string };
    response: SavedProductsAnswer;
    responseCode: 200;
  };
  'saveProducts post /_action/dsr/appointment/{appointmentId}/saved-products': {
    pathParams: { appointmentId: string };
    body: { productIds: string[] };
    response: SavedProductsAnswer;
    responseCode: 200;
  };
  'updateSavedProduct patch /_action/dsr/appointment/{appointmentId}/saved-products/{productId}': {
    pathParams: { appointmentId: string; productId: string };
    body: { position?: number; note?: string | null };
    response: SavedProductsAnswer;
    responseCode: 200;
  };
  'removeSavedProduct delete /_action/dsr/appointment/{appointmentId}/saved-products/{productId}': {
    pathParams: { appointmentId: string; productId: string };
    response: never;
    responseCode: 204;
  };
  'clearSavedProducts delete /_action/dsr/appointment/{appointmentId}/saved-products': {
    pathParams: { appointmentId: string };
    response: never;
    responseCode: 204;
  };
  'searchDsrInteractionTemplate post /search/dsr-interaction-template': {
    body: { filter: unknown[]; sort: unknown[]; limit: number };
    response: { data: InteractionTemplate[]; total: number };
    responseCode: 200;
  };
  'createDsrInteractionTemplate post /dsr-interaction-template': {
    query: { _response: 'basic' };
    body: Omit<InteractionTemplate, 'id' | 'createdAt'>;
    response: { data: InteractionTemplate };
    responseCode: 200;
  };
  'updateDsrInteractionTemplate patch /dsr-interaction-template/{id}': {
    pathParams: { id: string };
    query: { _response: 'basic' };
    body: Partial<Omit<InteractionTemplate, 'id' | 'createdAt' | 'appointmentId'>>;
    response: { data: InteractionTemplate };
    responseCode: 200;
  };
  'deleteDsrInteractionTemplate delete /dsr-interaction-template/{id}': {
    pathParams: { id: string };
    response: never;
    responseCode: 204;
  };
};

export type StoreApiOperations = Omit<StoreOperations, JoinAsClient> & {
  [K in JoinAsClient]: Omit<StoreOperations[K], 'response'> & { response: JoinAppointmentResponse };
} & SalesroomStoreOperations;

export type AdminApiOperations = Omit<AdminOperations, JoinAsGuide | Token> & {
  [K in JoinAsGuide]: Omit<AdminOperations[K], 'response'> & { response: JoinAppointmentResponse };
} & {
  [K in Token]: Omit<AdminOperations[K], 'body'> & { body: PasswordGrant };
} & ProxiedCartOperations & SalesroomAdminOperations;

/** A Store API client; `contextToken` is the `sw-context-token` of a session, if any. */
export function createStoreClient(config: RuntimeConfig, contextToken?: string) {
  return createAPIClient<StoreApiOperations>({
    baseURL: `${config.shopEndpoint}/store-api`,
    accessToken: config.shopAccessToken,
    contextToken,
    fetchOptions: { timeout: API_TIMEOUT_MS },
  });
}

/** An Admin API login, as the library keeps it (its own type is not exported). */
export interface AdminSession {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds. */
  expirationTime: number;
}

export type AdminClient = ReturnType<typeof createAdminClient>;

/**
 * An Admin API client; with a `session` it refreshes the access token when it expires.
 * It asks for the shop language the visitor chose (the `sw-language-id` cookie the shop
 * session keeps), so the guide's cockpit lists products in the cockpit's language.
 */
export function createAdminClient(config: RuntimeConfig, session?: AdminSession) {
  const languageId = getCookie('sw-language-id');
  return createAdminAPIClient<AdminApiOperations>({
    baseURL: `${config.shopEndpoint}/api`,
    sessionData: session,
    defaultHeaders: languageId ? { 'sw-language-id': languageId } : {},
    fetchOptions: { timeout: API_TIMEOUT_MS },
  });
}

/** The HTTP status of a failed shop call; 0 when no response came. */
export function errorStatus(error: unknown): number {
  return error instanceof ApiClientError ? error.status : 0;
}
