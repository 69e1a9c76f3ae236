import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { formatPrice } from '@/lib/format';
import type { StateForGuides } from '@/protocol/generated';
import { guideProductOf, type WidgetProducts } from '../api/room-admin';
import type { InsightsState } from '../stores/insights';
import type { WidgetName, WidgetsState } from '../stores/widgets';
import { insightRows } from './insight-rows';
import '../../components/product-rows.css';
import './widgets-panel.css';

/** How many attendees a widget product stands for (`customFields.attendees`-like lists). */
function attendeeCount(product: WidgetProducts['products'][number]): number {
  const fields = product.customFields ?? {};
  const list = Object.values(fields).find(Array.isArray);
  return Array.isArray(list) ? list.length : 0;
}

/** The guide's widgets: cart statistics, attendee insights, wishlist and last seen, live. */
export function WidgetsPanel({ widgets, guides, carts }: { widgets: StoreApi<WidgetsState>; guides: StateForGuides | undefined; carts: StoreApi<InsightsState> }) {
  const { t } = useTranslation();
  const { cart, insights, wishlist, lastSeen, failed } = useStore(widgets);
  const knownCarts = useStore(carts, (state) => state.carts);

  useEffect(() => {
    void widgets.getState().load();
  }, [widgets]);

  const nameOf = (attendeeId: string) =>
    guides?.clients[attendeeId]?.attendeeName ?? guides?.inactiveClients[attendeeId]?.attendeeName ?? attendeeId.slice(0, 8);
  const lineItems = cart?.lineItems ?? [];
  // Every price here is gross, as the shop shows it (the insights' own cartSum is net).
  const attendees = insightRows(insights, knownCarts);

  return (
    <section className="widgets" aria-label={t('widgets.title')} data-testid="widgets">
      <Widget name="cart" title={t('widgets.cart')} failed={failed.includes('cart')} onRetry={() => void widgets.getState().load(['cart'])}>
        {lineItems.length === 0 ? (
          <p className="room-empty">{t('widgets.cartEmpty')}</p>
        ) : (
          <>
            <ul className="widget__list">
              {lineItems.map((item) => (
                <li key={item.id} className="widget__row">
                  <span>{t('widgets.quantity', { count: item.quantity ?? 0 })}</span>
                  <span className="widget__label">{item.label}</span>
                  <span>{formatPrice(item.price?.totalPrice)}</span>
                </li>
              ))}
            </ul>
            <p className="widget__total" data-testid="widget-cart-total">
              {t('widgets.cartTotal', { total: formatPrice(cart?.price?.totalPrice) })}
            </p>
          </>
        )}
      </Widget>
      <Widget name="insights" title={t('widgets.insights')} failed={failed.includes('insights')} onRetry={() => void widgets.getState().load(['insights'])}>
        {attendees.length === 0 ? (
          <p className="room-empty">{t('widgets.insightsEmpty')}</p>
        ) : (
          <ul className="widget__list">
            {attendees.map((entry) => (
              <li key={entry.id} className="widget__row">
                <span className="widget__label">{nameOf(entry.id)}</span>
                <span>
                  {entry.total === null
                    ? t('widgets.insightsCount', { count: entry.productCount })
                    : t('widgets.insightsRow', { count: entry.productCount, total: formatPrice(entry.total) })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Widget>
      <ProductsWidget name="wishlist" title={t('widgets.wishlist')} empty={t('widgets.wishlistEmpty')} data={wishlist} widgets={widgets} failed={failed.includes('wishlist')} />
      <ProductsWidget name="lastSeen" title={t('widgets.lastSeen')} empty={t('widgets.lastSeenEmpty')} data={lastSeen} widgets={widgets} failed={failed.includes('lastSeen')} />
    </section>
  );
}

function ProductsWidget({
  name,
  title,
  empty,
  data,
  widgets,
  failed,
}: {
  name: WidgetName;
  title: string;
  empty: string;
  data: WidgetProducts | null;
  widgets: StoreApi<WidgetsState>;
  failed: boolean;
}) {
  const { t } = useTranslation();
  const products = data?.products ?? [];
  return (
    <Widget name={name} title={title} failed={failed} onRetry={() => void widgets.getState().load([name])}>
      {products.length === 0 ? (
        <p className="room-empty">{empty}</p>
      ) : (
        <ul className="widget__list">
          {products.map((product) => {
            const summary = guideProductOf(product);
            return (
              <li key={product.id} className="widget__row">
                <span className="room-row__media">{summary.coverUrl ? <img src={summary.coverUrl} alt="" loading="lazy" /> : null}</span>
                <span className="widget__label">{summary.name}</span>
                <span>{t('widgets.attendees', { count: attendeeCount(product) })}</span>
              </li>
            );
          })}
        </ul>
      )}
    </Widget>
  );
}

function Widget({ name, title, failed, onRetry, children }: { name: WidgetName; title: string; failed: boolean; onRetry: () => void; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <article className="widget" aria-label={title} data-widget={name}>
      <h3 className="widget__title">{title}</h3>
      {failed ? (
        <div className="alert" role="alert">
          <p>{t('widgets.failed')}</p>
          <button type="button" className="button button--small" onClick={onRetry}>
            {t('widgets.retry')}
          </button>
        </div>
      ) : (
        children
      )}
    </article>
  );
}
