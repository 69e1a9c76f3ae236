import { AdminApiError, type AdminErrorEntry } from './errors';
import { adminSessionStore, type AdminSession } from './session';

/** Admin API entity names as the URL has them (`product-manufacturer`); sync takes `product_manufacturer`. */
export type EntityName =
  | 'product'
  | 'category'
  | 'product-manufacturer'
  | 'property-group'
  | 'property-group-option'
  | 'promotion'
  | 'media'
  | 'user'
  | 'dsr-appointment'
  | 'dsr-presentation'
  | 'cms-page'
  | 'order'
  | 'customer'
  | 'customer-address'
  | 'state-machine-history'
  | 'tax'
  | 'currency'
  | 'language'
  | 'sales-channel'
  | 'sales-channel-domain'
  | 'payment-method'
  | 'shipping-method'
  | 'shipping-method-price';

/** Shopware's criteria, as far as the backoffice uses them. */
export interface Criteria {
  page?: number;
  limit?: number;
  term?: string;
  ids?: string[];
  filter?: unknown[];
  sort?: { field: string; order?: 'ASC' | 'DESC'; naturalSorting?: boolean }[];
  /** Associations to load with each record, each with its own criteria (`{ lineItems: {} }`). */
  associations?: Record<string, Criteria>;
  /** Shopware's aggregations, computed over every record the filters select. */
  aggregations?: Aggregation[];
  'total-count-mode'?: 'exact' | 'none' | 'next-pages';
}

/** One criteria aggregation (`terms` may name one metric per bucket; `filter` narrows one). */
export type Aggregation =
  | { name: string; type: 'sum' | 'avg' | 'min' | 'max' | 'stats' | 'count'; field: string }
  | { name: string; type: 'terms'; field: string; limit?: number; aggregation?: Aggregation }
  | { name: string; type: 'filter'; filter: unknown[]; aggregation: Aggregation };

/** A `terms` aggregation's bucket; a nested metric comes under its name. */
export interface AggregationBucket {
  key: string;
  count: number;
  [nested: string]: unknown;
}

/** Aggregation results by name (`{ sum }`, `{ count }`, `{ buckets }`, …); `[]` when none were asked for. */
export type AggregationResults = Record<string, { sum?: number; avg?: number | null; min?: number | string | null; max?: number | string | null; count?: number; buckets?: AggregationBucket[] }>;

/** The state machines of an order: the order's own, its payment's, its delivery's (Shopware's entity names). */
export type StateMachineEntity = 'order' | 'order_transaction' | 'order_delivery';

/** A state of a state machine as Shopware answers it. */
export interface MachineState {
  id?: string;
  technicalName: string;
  name?: string | null;
  translated?: { name?: string | null } | null;
}

/** One allowed transition of `GET /api/_action/state-machine/{entity}/{id}/state`. */
export interface StateTransition {
  name: string;
  technicalName: string;
  actionName: string;
  fromStateName: string;
  toStateName: string;
}

/** A file the browser saves: its bytes and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

export interface SearchResult<T> {
  data: T[];
  total: number;
  aggregations?: AggregationResults | [];
}

/** One operation of `POST /api/_action/sync`. */
export interface SyncOperation {
  entity: string;
  action: 'upsert' | 'delete';
  payload: Record<string, unknown>[];
}

export interface SyncResult {
  data: Record<string, string[]>;
  deleted?: Record<string, string[]>;
  notFound?: Record<string, string[]>;
}

/** Upload limits of `POST /api/_action/media/{id}/upload`. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_TYPES: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** Refresh this long before the access token ends. */
const REFRESH_MARGIN_MS = 30_000;

interface Store {
  getState(): { session: AdminSession | null };
  setState(state: { session: AdminSession | null }): void;
}

/**
 * A small typed client of the Admin API on `fetch`: OAuth password login and refresh
 * (tokens in sessionStorage through `adminSessionStore`), criteria searches, single
 * writes, sync and media upload. Every refusal is an `AdminApiError` with Shopware's list.
 */
export class AdminApi {
  private refreshing: Promise<AdminSession | null> | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly fetchFn: typeof fetch = (...args) => fetch(...args),
    private readonly store: Store = adminSessionStore,
  ) {}

  get session(): AdminSession | null {
    return this.store.getState().session;
  }

  /**
   * Logs in with the password grant and finds the user's role (admins may list users,
   * guides may not); the session is published once, with its role, so nothing renders
   * a half-known login.
   */
  async login(username: string, password: string): Promise<AdminSession> {
    const tokens = await this.tokenRequest({ grant_type: 'password', client_id: 'administration', scopes: 'write', username, password });
    const probe = await this.send('GET', '/user?limit=1', undefined, tokens.accessToken);
    if (!probe.ok && probe.status !== 403) await this.answer(probe);
    const session: AdminSession = { ...tokens, username, role: probe.ok ? 'admin' : 'guide' };
    this.store.setState({ session });
    return session;
  }

  /**
   * Logs out here at once and ends the login on the server too (`POST /api/oauth/revoke`:
   * the access and the refresh token stop working), so that a copied token is worthless.
   */
  logout(): void {
    const session = this.session;
    this.store.setState({ session: null });
    if (session) {
      void this.send('POST', '/oauth/revoke', { token: session.refreshToken }, session.accessToken).catch(() => undefined);
    }
  }

  search<T>(entity: EntityName, criteria: Criteria = {}): Promise<SearchResult<T>> {
    return this.request<SearchResult<T>>('POST', `/search/${entity}`, { 'total-count-mode': 'exact', ...criteria });
  }

  async get<T>(entity: EntityName, id: string): Promise<T> {
    return (await this.request<{ data: T }>('GET', `/${entity}/${id}`)).data;
  }

  /** Creates a record and answers it as stored. */
  async create<T>(entity: EntityName, body: Record<string, unknown>): Promise<T> {
    return (await this.request<{ data: T }>('POST', `/${entity}?_response=basic`, body)).data;
  }

  async patch(entity: EntityName, id: string, body: Record<string, unknown>): Promise<void> {
    await this.request('PATCH', `/${entity}/${id}`, body);
  }

  async remove(entity: EntityName, id: string): Promise<void> {
    await this.request('DELETE', `/${entity}/${id}`);
  }

  /** One transaction: every operation is written, or (any refused) none. */
  sync(operations: Record<string, SyncOperation>): Promise<SyncResult> {
    return this.request<SyncResult>('POST', '/_action/sync', operations);
  }

  /** The current state of an order, its payment or its delivery and the transitions allowed from it. */
  async stateOf(entity: StateMachineEntity, id: string): Promise<{ currentState: MachineState; transitions: StateTransition[] }> {
    return this.request('GET', `/_action/state-machine/${entity}/${id}/state`);
  }

  /** Runs a transition (`process`, `pay`, `ship`, `cancel`, …); answers the new state. */
  transition(entity: StateMachineEntity, id: string, transition: string): Promise<MachineState> {
    return this.request<MachineState>('POST', `/_action/${entity}/${id}/state/${transition}`, {});
  }

  /** Creates a document of the order (`invoice`, `delivery_note`, `credit_note`, `storno`); answers its id and deep link code. */
  createDocument(orderId: string, documentType: string): Promise<{ documentId: string; documentDeepLink: string }> {
    return this.request('POST', `/_action/order/${orderId}/document/${documentType}`, { fileType: 'pdf', static: false, config: {} });
  }

  /** A document's file (the PDF), for the browser to save. */
  downloadDocument(documentId: string, deepLinkCode: string): Promise<DownloadedFile> {
    return this.file('GET', `/_action/document/${documentId}/${deepLinkCode}?download=1`, `${documentId}.pdf`);
  }

  /** Everything the shop keeps about a customer, as one JSON file (GDPR: the customer's right of access). */
  gdprExport(customerId: string): Promise<DownloadedFile> {
    return this.file('POST', `/_action/customer/${customerId}/gdpr-export`, `customer-${customerId}.json`);
  }

  /** Deletes the customer and anonymises their orders (which keep their snapshots). */
  async anonymize(customerId: string): Promise<void> {
    await this.request('POST', `/_action/customer/${customerId}/anonymize`, {});
  }

  /** The shop's settings of a domain (`core.basicInformation`): an object keyed by the full key. */
  systemConfig(domain: string): Promise<Record<string, unknown>> {
    return this.request('GET', `/_action/system-config?${new URLSearchParams({ domain })}`);
  }

  /** Stores shop-wide settings (`{ 'core.basicInformation.shopName': 'Kites' }`; null removes one). */
  async saveSystemConfig(values: Record<string, unknown>): Promise<void> {
    await this.request('POST', '/_action/system-config', values);
  }

  /** Creates a media record and uploads `file` into it; answers the media id. */
  async upload(file: File | Blob, fileName: string, alt = ''): Promise<string> {
    const extension = UPLOAD_TYPES[file.type] ?? fileName.split('.').pop()?.toLowerCase() ?? '';
    const media = await this.create<{ id: string }>('media', { alt });
    const base = fileName.replace(/\.[^.]*$/, '').replace(/[^\w-]+/g, '-') || 'image';
    const query = new URLSearchParams({ extension, fileName: `${base}-${media.id.slice(0, 8)}` });
    try {
      await this.request('POST', `/_action/media/${media.id}/upload?${query}`, file);
    } catch (error) {
      await this.remove('media', media.id).catch(() => undefined);
      throw error;
    }
    return media.id;
  }

  /**
   * A call to `/api{path}` with a fresh token; a 401 refreshes once and retries.
   * `extra` adds headers; a path starting with `/store-api` goes to the Store API (with
   * the bearer too: the backoffice's previews).
   */
  async request<T = unknown>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
    const session = await this.validSession();
    let response = await this.send(method, path, body, session?.accessToken, extra);
    if (response.status === 401 && session) {
      const renewed = await this.refresh();
      if (renewed) response = await this.send(method, path, body, renewed.accessToken, extra);
    }
    if (response.status === 401) this.store.setState({ session: null });
    return this.answer<T>(response);
  }

  /** A call whose answer is a file (a 401 refreshes once, as `request` does); a refusal is an `AdminApiError`. */
  private async file(method: string, path: string, fallbackName: string): Promise<DownloadedFile> {
    const session = await this.validSession();
    let response = await this.send(method, path, undefined, session?.accessToken, { Accept: '*/*' });
    if (response.status === 401 && session) {
      const renewed = await this.refresh();
      if (renewed) response = await this.send(method, path, undefined, renewed.accessToken, { Accept: '*/*' });
    }
    if (response.status === 401) this.store.setState({ session: null });
    if (!response.ok) return this.answer<never>(response);
    return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('Content-Disposition')) ?? fallbackName };
  }

  private async validSession(): Promise<AdminSession | null> {
    const session = this.session;
    if (session && session.expiresAt - REFRESH_MARGIN_MS < Date.now()) return this.refresh();
    return session;
  }

  /** The refresh grant; one at a time. No session (or a refused refresh) logs out. */
  private refresh(): Promise<AdminSession | null> {
    this.refreshing ??= (async () => {
      const session = this.session;
      if (!session) return null;
      try {
        const tokens = await this.tokenRequest({ grant_type: 'refresh_token', client_id: 'administration', refresh_token: session.refreshToken });
        const renewed = { ...session, ...tokens };
        this.store.setState({ session: renewed });
        return renewed;
      } catch {
        this.store.setState({ session: null });
        return null;
      }
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async tokenRequest(body: Record<string, string>): Promise<Pick<AdminSession, 'accessToken' | 'refreshToken' | 'expiresAt'>> {
    const response = await this.send('POST', '/oauth/token', body);
    const answer = await this.answer<{ access_token: string; refresh_token: string; expires_in: number }>(response);
    return { accessToken: answer.access_token, refreshToken: answer.refresh_token, expiresAt: Date.now() + answer.expires_in * 1000 };
  }

  private send(method: string, path: string, body: unknown, token?: string, extra: Record<string, string> = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...extra };
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof Blob) {
      headers['Content-Type'] = body.type || 'application/octet-stream';
      payload = body;
    } else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const url = path.startsWith('/store-api/') ? `${this.baseUrl}${path}` : `${this.baseUrl}/api${path}`;
    return this.fetchFn(url, { method, headers, body: payload });
  }

  private async answer<T>(response: Response): Promise<T> {
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok) {
      const errors = (json as { errors?: AdminErrorEntry[] } | null)?.errors;
      throw new AdminApiError(response.status, Array.isArray(errors) && errors.length ? errors : [{ status: String(response.status), detail: text.slice(0, 200) }]);
    }
    return json as T;
  }
}

/** The file name of a `Content-Disposition` header (`attachment; filename="invoice-1000.pdf"`), if it has one. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  return plain?.trim() || null;
}
