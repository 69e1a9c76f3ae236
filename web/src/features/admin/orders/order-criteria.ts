import type { Criteria } from '../api/client';
import type { AdminOrder, OrderDelivery, OrderTransaction } from './types';

/** The states of each machine the filters offer (Shopware's technical names). */
export const ORDER_STATES = ['open', 'in_progress', 'completed', 'cancelled'] as const;
export const PAYMENT_STATES = ['open', 'paid', 'paid_partially', 'authorized', 'unconfirmed', 'reminded', 'failed', 'cancelled', 'refunded', 'refunded_partially'] as const;
export const DELIVERY_STATES = ['open', 'shipped', 'shipped_partially', 'returned', 'returned_partially', 'cancelled'] as const;

/** The filters of the order list; an empty string is "any". Dates are the browser's calendar days (`2026-11-28`). */
export interface OrderFilters {
  term: string;
  status: string;
  payment: string;
  delivery: string;
  from: string;
  to: string;
  appointment: string;
}

export const NO_FILTERS: OrderFilters = { term: '', status: '', payment: '', delivery: '', from: '', to: '', appointment: '' };

const KEYS = Object.keys(NO_FILTERS) as (keyof OrderFilters)[];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[0-9a-f]{32}$/;

/** The filters a list URL holds (`?status=open&from=2026-11-01`); what is not a valid value is left out. */
export function filtersFromParams(params: URLSearchParams): OrderFilters {
  const filters = { ...NO_FILTERS };
  for (const key of KEYS) filters[key] = params.get(key)?.trim() ?? '';
  if (filters.status && !(ORDER_STATES as readonly string[]).includes(filters.status)) filters.status = '';
  if (filters.payment && !(PAYMENT_STATES as readonly string[]).includes(filters.payment)) filters.payment = '';
  if (filters.delivery && !(DELIVERY_STATES as readonly string[]).includes(filters.delivery)) filters.delivery = '';
  if (filters.from && !DAY.test(filters.from)) filters.from = '';
  if (filters.to && !DAY.test(filters.to)) filters.to = '';
  if (filters.appointment && !ID.test(filters.appointment)) filters.appointment = '';
  return filters;
}

/** The URL parameters of the filters: only those set. */
export function filtersToParams(filters: OrderFilters): Record<string, string> {
  return Object.fromEntries(KEYS.filter((key) => filters[key]).map((key) => [key, filters[key]]));
}

/** The start of a calendar day in the browser's time zone, as an ISO instant. */
export function dayStart(day: string): string {
  return new Date(`${day}T00:00:00`).toISOString();
}

/** The last millisecond of a calendar day in the browser's time zone. */
export function dayEnd(day: string): string {
  return new Date(new Date(`${day}T00:00:00`).getTime() + 86_400_000 - 1).toISOString();
}

/** The field of the order that names the appointment it was placed in. */
export const APPOINTMENT_FIELD = 'appointmentId';

/** What the list and the detail load with every order. */
export const ORDER_LIST_ASSOCIATIONS: Record<string, Criteria> = {
  stateMachineState: {},
  orderCustomer: {},
  currency: {},
  transactions: { associations: { stateMachineState: {}, paymentMethod: {} } },
  deliveries: { associations: { stateMachineState: {}, shippingMethod: {} } },
};

export const ORDER_DETAIL_ASSOCIATIONS: Record<string, Criteria> = {
  ...ORDER_LIST_ASSOCIATIONS,
  lineItems: {},
  addresses: { associations: { country: {}, countryState: {} } },
  deliveries: { associations: { stateMachineState: {}, shippingMethod: {}, shippingOrderAddress: { associations: { country: {} } } } },
  documents: { associations: { documentType: {} } },
};

/**
 * The Admin API criteria of the order list: the search term over number, customer's
 * name and e-mail; the state filters on the order, its payment and its delivery; the
 * date range on the order date (whole days of the browser's time zone); the appointment;
 * newest first.
 */
export function orderListCriteria(filters: OrderFilters, page: number, limit: number): Criteria {
  const filter: unknown[] = [];
  if (filters.status) filter.push({ type: 'equals', field: 'stateMachineState.technicalName', value: filters.status });
  if (filters.payment) filter.push({ type: 'equals', field: 'transactions.stateMachineState.technicalName', value: filters.payment });
  if (filters.delivery) filter.push({ type: 'equals', field: 'deliveries.stateMachineState.technicalName', value: filters.delivery });
  if (filters.from || filters.to) {
    const parameters: Record<string, string> = {};
    if (filters.from) parameters.gte = dayStart(filters.from);
    if (filters.to) parameters.lte = dayEnd(filters.to);
    filter.push({ type: 'range', field: 'orderDateTime', parameters });
  }
  if (filters.appointment) filter.push({ type: 'equals', field: APPOINTMENT_FIELD, value: filters.appointment });
  const term = filters.term.trim();
  return {
    page,
    limit,
    // Shopware's search term: every word in the number, the customer's names, e-mail or number.
    ...(term ? { term } : {}),
    filter,
    sort: [{ field: 'orderDateTime', order: 'DESC' }],
    associations: ORDER_LIST_ASSOCIATIONS,
  };
}

/** The payment that counts: the newest transaction (a changed payment method adds one). */
export function currentTransaction(order: Pick<AdminOrder, 'transactions'>): OrderTransaction | null {
  const list = [...(order.transactions ?? [])];
  list.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  return list[0] ?? null;
}

/** The delivery that counts: the first (Shopware's primary delivery). */
export function primaryDelivery(order: Pick<AdminOrder, 'deliveries'>): OrderDelivery | null {
  return order.deliveries?.[0] ?? null;
}
