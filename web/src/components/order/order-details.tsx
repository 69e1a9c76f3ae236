import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPrice } from '@/lib/format';
import { toast } from '@/lib/ui/toasts';
import { downloadDocument, downloadOrderFile, saveBlob, type Order } from '@/lib/shop/orders';
import { AddressLines } from '@/components/address-lines';
import { lineItemOptions } from '@/lib/shop/line-item-options';
import './order-details.css';

type Named = { name?: string; translated?: { name?: string } } | null | undefined;
const nameOf = (entity: Named) => entity?.translated?.name ?? entity?.name ?? '';

/** The last transaction of an order: its payment method and state. */
export function lastTransaction(order: Order) {
  const transactions = order.transactions ?? [];
  return transactions[transactions.length - 1];
}

/** A file button that downloads through the Store API (a blob) and names the file. */
function DownloadButton({ label, fileName, fetchFile }: { label: string; fileName: string; fetchFile: () => Promise<Blob> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      saveBlob(await fetchFile(), fileName);
    } catch {
      toast({ content: t('account.downloadFailed'), variant: 'danger' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="link-button"
      disabled={busy}
      onClick={() => void download()}
    >
      {label}
    </button>
  );
}

/** An order: line items, addresses, methods, totals, documents and downloads. */
export function OrderDetails({ order }: { order: Order }) {
  const { t } = useTranslation();
  const delivery = order.deliveries?.[0];
  const transaction = lastTransaction(order);
  const shippingAddress = (delivery as { shippingOrderAddress?: Parameters<typeof AddressLines>[0]['address'] } | undefined)?.shippingOrderAddress;
  const documents = (order.documents ?? []) as { id: string; deepLinkCode: string; documentNumber?: string; fileType?: string; documentType?: Named; config?: { title?: string; fileName?: string } }[];
  return (
    <div className="order-details">
      <table className="order-items">
        <caption className="visually-hidden">{t('checkout.items')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('checkout.items')}</th>
            <th scope="col" className="numeric">
              {t('product.quantity')}
            </th>
            <th scope="col" className="numeric">
              {t('cart.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {(order.lineItems ?? []).map((item) => {
            const downloads = ((item as { downloads?: { id: string; accessGranted?: boolean; media?: { fileName?: string; fileExtension?: string } }[] }).downloads ?? []);
            const options = lineItemOptions(item);
            return (
              <tr key={item.id} data-testid="order-line-item">
                <td>
                  <span className="order-items__label">{item.label}</span>
                  {options.length > 0 && <span className="order-items__options">{options.join(' · ')}</span>}
                  {downloads.length > 0 && (
                    <ul className="order-items__downloads" aria-label={t('account.downloads')}>
                      {downloads.map((download) => {
                        const fileName = [download.media?.fileName, download.media?.fileExtension].filter(Boolean).join('.');
                        return (
                          <li key={download.id}>
                            {download.accessGranted ? (
                              <DownloadButton label={fileName} fileName={fileName} fetchFile={() => downloadOrderFile(order.id, download.id)} />
                            ) : (
                              <span className="muted">
                                {fileName} · {t('account.downloadAfterPayment')}
                              </span>
                            )}
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </td>
                <td className="numeric">{item.quantity}</td>
                <td className="numeric">{formatPrice(item.totalPrice)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="order-details__grid">
        <div data-testid="order-billing-address">
          <h3>{t('checkout.billingAddress')}</h3>
          <AddressLines address={order.billingAddress} />
        </div>
        <div data-testid="order-shipping-address">
          <h3>{t('checkout.shippingAddress')}</h3>
          <AddressLines address={shippingAddress ?? order.billingAddress} />
        </div>
        <div>
          <h3>{t('checkout.paymentMethod')}</h3>
          <p>{nameOf(transaction?.paymentMethod)}</p>
          <p className="muted">{nameOf(transaction?.stateMachineState)}</p>
          <h3>{t('checkout.shippingMethod')}</h3>
          <p>{nameOf(delivery?.shippingMethod)}</p>
        </div>
        <dl className="cart-summary order-details__totals">
          <div>
            <dt>{t('cart.subtotal')}</dt>
            <dd>{formatPrice(order.positionPrice)}</dd>
          </div>
          <div>
            <dt>{t('cart.shipping')}</dt>
            <dd>{formatPrice(order.shippingTotal)}</dd>
          </div>
          <div className="cart-summary__total">
            <dt>{t('cart.total')}</dt>
            <dd data-testid="order-total">{formatPrice(order.amountTotal)}</dd>
          </div>
          {(order.price?.calculatedTaxes ?? []).map((tax) => (
            <div key={tax.taxRate} className="cart-summary__tax">
              <dt>{t('cart.tax', { rate: formatNumber(tax.taxRate) })}</dt>
              <dd>{formatPrice(tax.tax)}</dd>
            </div>
          ))}
        </dl>
      </div>
      {documents.length > 0 && (
        <div className="order-details__documents">
          <h3>{t('account.documents')}</h3>
          <ul>
            {documents.map((document) => {
              const fileName = `${document.config?.fileName ?? document.documentNumber ?? document.id}.${document.fileType ?? 'pdf'}`;
              const label = document.config?.title ?? `${nameOf(document.documentType)} ${document.documentNumber ?? ''}`.trim();
              return (
                <li key={document.id}>
                  <DownloadButton label={label} fileName={fileName} fetchFile={() => downloadDocument(document.id, document.deepLinkCode)} />
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
