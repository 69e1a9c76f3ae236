import { useTranslation } from 'react-i18next';
import { formatNumber, formatPrice } from '@/lib/format';
import type { Schemas } from '@shopware/api-client/store-api-types';
import './product-price.css';

type Product = Schemas['Product'];

/** The lowest of a product's tier prices, when it has several ("from" price). */
function fromPrice(product: Product): number | null {
  const tiers = product.calculatedPrices ?? [];
  if (tiers.length > 1) return Math.min(...tiers.map((tier) => tier.unitPrice));
  const cheapest = product.calculatedCheapestPrice;
  if ((product.childCount ?? 0) > 0 && cheapest?.unitPrice !== undefined && cheapest.unitPrice !== product.calculatedPrice?.unitPrice) {
    return cheapest.unitPrice;
  }
  return null;
}

/** The price on a product card: unit price (or "from"), with the list price struck through. */
export function CardPrice({ product }: { product: Product }) {
  const { t } = useTranslation();
  const price = product.calculatedPrice;
  const from = fromPrice(product);
  const list = price?.listPrice?.price;
  return (
    <p className="card-price">
      <span className={list ? 'price price--sale' : 'price'}>
        {from !== null ? t('product.from', { price: formatPrice(from) }) : formatPrice(price?.unitPrice)}
      </span>
      {list ? (
        <s className="price price--list" aria-label={t('product.listPrice', { price: formatPrice(list) })}>
          {formatPrice(list)}
        </s>
      ) : null}
    </p>
  );
}

/**
 * The buy box price: unit price, list price and saving, the cheapest price of the last
 * 30 days, the base price per reference unit, and the tax note.
 */
export function DetailPrice({ product, taxState = 'gross' }: { product: Product; taxState?: string }) {
  const { t } = useTranslation();
  const price = product.calculatedPrice;
  const list = price?.listPrice;
  const reference = price?.referencePrice;
  const regulation = price?.regulationPrice?.price;
  const tiers = product.calculatedPrices ?? [];
  return (
    <div className="detail-price">
      <p className="detail-price__main">
        <span className={list ? 'price price--large price--sale' : 'price price--large'} data-testid="product-price">
          {tiers.length > 1
            ? t('product.from', { price: formatPrice(Math.min(...tiers.map((tier) => tier.unitPrice))) })
            : formatPrice(price?.unitPrice)}
        </span>
        {list?.price ? (
          <>
            <s className="price price--list">{t('product.listPrice', { price: formatPrice(list.price) })}</s>
            {list.percentage ? (
              <span className="badge badge--sale">{t('product.save', { percent: formatNumber(list.percentage, undefined, 0) })}</span>
            ) : null}
          </>
        ) : null}
      </p>
      {regulation ? <p className="detail-price__note">{t('product.cheapestPrice', { price: formatPrice(regulation) })}</p> : null}
      {reference?.price && reference.purchaseUnit ? (
        <p className="detail-price__note">
          {t('product.basePrice', {
            amount: formatNumber(reference.purchaseUnit),
            unit: reference.unitName,
            price: formatPrice(reference.price),
            reference: formatNumber(reference.referenceUnit ?? 1),
          })}
        </p>
      ) : null}
      {tiers.length > 1 && (
        <table className="tier-prices">
          <tbody>
            {tiers.map((tier) => (
              <tr key={tier.quantity}>
                <th scope="row">≥ {tier.quantity}</th>
                <td>{formatPrice(tier.unitPrice)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="detail-price__tax">{taxState === 'net' ? t('product.taxExcluded') : t('product.taxIncluded')}</p>
    </div>
  );
}
