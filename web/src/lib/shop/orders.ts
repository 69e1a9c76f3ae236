import type { Schemas } from '@shopware/api-client/store-api-types';
import { localeFromPath, localePrefix } from '@/lib/i18n';
import { paymentTarget, paymentUrls } from './checkout-rules';
import { shopClient } from './session';

export type ShippingMethod = Schemas['ShippingMethod'];
export type PaymentMethod = Schemas['PaymentMethod'];
export type Order = Schemas['Order'];

const byPosition = <T extends { position?: number; translated?: { name?: string }; name?: string }>(list: T[]): T[] =>
  [...list].sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || (a.translated?.name ?? a.name ?? '').localeCompare(b.translated?.name ?? b.name ?? ''));

export async function getShippingMethods(): Promise<ShippingMethod[]> {
  const { data } = await shopClient().invoke('readShippingMethod post /shipping-method', {
    query: { onlyAvailable: true },
    body: { associations: { deliveryTime: {} } },
  });
  return byPosition((data as { elements?: ShippingMethod[] }).elements ?? []);
}

export async function getPaymentMethods(): Promise<PaymentMethod[]> {
  const { data } = await shopClient().invoke('readPaymentMethod post /payment-method', { body: { onlyAvailable: true } });
  return byPosition((data as { elements?: PaymentMethod[] }).elements ?? []);
}

/** Starts the payment of an order; a `redirectUrl` names the payment provider's page. */
export async function handlePayment(orderId: string, finishUrl: string, errorUrl: string): Promise<string | null> {
  if (!orderId) throw new Error('handlePayment needs an orderId');
  const { data } = await shopClient().invoke('handlePaymentMethod post /handle-payment', {
    body: { orderId, finishUrl, errorUrl },
  });
  return (data as { redirectUrl?: string | null }).redirectUrl ?? null;
}

/** What the order pages show besides the order itself (the Store API loads these only when asked). */
const ORDER_ASSOCIATIONS = { lineItems: {}, deliveries: {}, transactions: {}, documents: {} };

/** One of the customer's orders with everything the confirmation shows; null if unknown. */
export async function getOrder(id: string): Promise<{ order: Order | null; paymentChangeable: boolean }> {
  const { data } = await shopClient().invoke('readOrder post /order', {
    body: { ids: [id], checkPromotion: true, limit: 1, associations: ORDER_ASSOCIATIONS },
  });
  const order = data.orders?.elements?.[0] ?? null;
  const changeable = (data as { paymentChangeable?: Record<string, boolean> }).paymentChangeable ?? {};
  return { order, paymentChangeable: !!(order && changeable[order.id]) };
}

/** The customer's orders, newest first, a page at a time. */
export async function listOrders(page: number, limit = 10): Promise<{ orders: Order[]; total: number; paymentChangeable: Record<string, boolean> }> {
  const { data } = await shopClient().invoke('readOrder post /order', {
    body: { page, limit, checkPromotion: true, 'total-count-mode': 'exact', associations: ORDER_ASSOCIATIONS } as never,
  });
  return {
    orders: data.orders?.elements ?? [],
    total: data.orders?.total ?? 0,
    paymentChangeable: (data as { paymentChangeable?: Record<string, boolean> }).paymentChangeable ?? {},
  };
}

export async function cancelOrder(orderId: string): Promise<void> {
  await shopClient().invoke('cancelOrder post /order/state/cancel', { body: { orderId } });
}

/** Another payment method for an open order. */
export async function changeOrderPayment(orderId: string, paymentMethodId: string): Promise<void> {
  if (!orderId || !paymentMethodId) throw new Error('changeOrderPayment needs an order and a payment method');
  await shopClient().invoke('orderSetPayment post /order/payment', { body: { orderId, paymentMethodId } });
}

/** An invoice or other document of an order, as a file. */
export async function downloadDocument(documentId: string, deepLinkCode: string): Promise<Blob> {
  const { data } = await shopClient().invoke('download post /document/download/{documentId}/{deepLinkCode}', {
    pathParams: { documentId, deepLinkCode },
    headers: { accept: 'application/pdf, */*' },
    fetchOptions: { responseType: 'blob' },
  } as never);
  return data as unknown as Blob;
}

/** A digital product of a paid order, as a file. */
export async function downloadOrderFile(orderId: string, downloadId: string): Promise<Blob> {
  const { data } = await shopClient().invoke('orderDownloadFile get /order/download/{orderId}/{downloadId}', {
    pathParams: { orderId, downloadId },
    headers: { accept: '*/*' },
    fetchOptions: { responseType: 'blob' },
  } as never);
  return data;
}

/** Hands a file to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Pays an order again (maybe with another method): to the provider's page or back to the confirmation. */
export async function payAgain(orderId: string, navigate: (path: string) => void): Promise<void> {
  const urls = paymentUrls(window.location.origin, localePrefix(localeFromPath(window.location.pathname)), orderId);
  const target = paymentTarget(await handlePayment(orderId, urls.finishUrl, urls.errorUrl), urls.success);
  if (target.kind === 'external') window.location.assign(target.url);
  else navigate(target.path);
}
