import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { ProductRows } from '../../components/product-rows';
import { RoomSidebar } from '../../components/room-sidebar';
import { Spinner } from '@/components/spinner';
import { WishlistToggle } from '@/components/wishlist-toggle';
import { formatPrice } from '@/lib/format';
import { CartSummary } from '@/components/cart/cart-summary';
import { useLocalePath } from '@/lib/i18n';
import { cartItemCount, cartStore, quantityRange, type LineItem } from '@/lib/shop/cart';
import { wishlistStore } from '@/lib/shop/wishlist-store';
import type { AttendeeSidebar } from '../stores/sidebars';
import { LikeToggle } from './like-toggle';
import type { RoomTools } from './room-tools';

/**
 * Where the cart sidebar's checkout button leads: the shop's own checkout, in a new tab.
 *
 * A shopper in a live presentation expects the show to go on while they pay, as a
 * shop's "buy" link opens beside a live stream: leaving the room would drop the socket,
 * the video and the guide's help (the guide sees them go offline). The new tab shares
 * this tab's shop session (the same-origin context-token cookie the join set), so it
 * shows the very cart of the room, with the shop's full checkout (addresses, login or
 * registration, payment and shipping, terms); the room keeps playing in this tab and
 * follows the cart when the order empties it. An in-room checkout panel would repeat
 * all of that inside a sidebar.
 */
export const CHECKOUT_PATH = '/checkout';

function LikeList({ tools }: { tools: RoomTools }) {
  const { t } = useTranslation();
  const { liked, status, busy, failed } = useStore(tools.collections);
  if (status === 'failed') {
    return (
      <div className="alert" role="alert">
        <p>{t('room.likesFailed')}</p>
        <button type="button" className="button button--small" onClick={() => void tools.collections.getState().load()}>
          {t('room.retry')}
        </button>
      </div>
    );
  }
  if (status === 'loading' && liked.length === 0) return <Spinner />;
  return (
    <>
      {failed && (
        <p className="alert" role="alert">
          {t('room.likeFailed')}
        </p>
      )}
      <ProductRows
        ids={liked}
        contextToken={tools.contextToken}
        label={t('room.sidebars.likes')}
        empty={<p>{t('room.likesEmpty')}</p>}
        onOpen={(product) => tools.openProduct(product.id, product.name)}
        actions={(product) => (
          <button
            type="button"
            className="icon-button"
            aria-label={t('room.removeLike', { name: product.name })}
            title={t('room.remove')}
            disabled={busy.includes(product.id)}
            onClick={() => void tools.collections.getState().unlike(product.id)}
          >
            ×
          </button>
        )}
      />
    </>
  );
}

function LastSeen({ tools }: { tools: RoomTools }) {
  const { t } = useTranslation();
  const lastSeen = useStore(tools.collections, (state) => state.lastSeen);
  return (
    <ProductRows
      ids={lastSeen}
      contextToken={tools.contextToken}
      label={t('room.sidebars.lastSeen')}
      empty={<p>{t('room.lastSeenEmpty')}</p>}
      onOpen={(product) => tools.openProduct(product.id, product.name)}
      actions={(product) => <LikeToggle tools={tools} productId={product.id} name={product.name} />}
    />
  );
}

function Wishlist({ tools }: { tools: RoomTools }) {
  const { t } = useTranslation();
  const ids = useStore(wishlistStore, (state) => state.ids);
  return (
    <ProductRows
      ids={ids}
      contextToken={tools.contextToken}
      label={t('room.sidebars.wishlist')}
      empty={<p>{t('room.wishlistEmpty')}</p>}
      onOpen={(product) => tools.openProduct(product.id, product.name)}
      actions={(product) => <WishlistToggle productId={product.id} name={product.name} />}
    />
  );
}

function CartLine({ item, tools }: { item: LineItem; tools: RoomTools }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const name = item.label ?? '';
  const quantity = item.quantity ?? 1;
  const { min, max, step } = quantityRange(item);
  const isProduct = item.type === 'product';
  const options = ((item.payload as { options?: { group?: string; option?: string }[] } | undefined)?.options ?? [])
    .map((entry) => [entry.group, entry.option].filter(Boolean).join(': '))
    .filter(Boolean);

  async function act(work: () => Promise<unknown>) {
    setBusy(true);
    setFailed(false);
    try {
      await work();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="room-cart__item" aria-label={name} aria-busy={busy} data-testid="room-cart-item">
      <span className="room-row__media">{item.cover?.url ? <img src={item.cover.url} alt="" loading="lazy" /> : null}</span>
      <div className="room-cart__text">
        {isProduct && item.referencedId ? (
          <button type="button" className="link-button room-cart__name" onClick={() => item.referencedId && tools.openProduct(item.referencedId, name)}>
            {name}
          </button>
        ) : (
          <span className="room-cart__name">{name}</span>
        )}
        {options.length > 0 && <span className="room-cart__options">{options.join(' · ')}</span>}
        {isProduct && (
          <div className="stepper" role="group" aria-label={t('cart.quantityOf', { name })}>
            <button
              type="button"
              aria-label={t('cart.decrease', { name })}
              disabled={busy || quantity - step < min}
              onClick={() => void act(() => tools.session.changeCartLine(item.id, quantity - step))}
            >
              −
            </button>
            <output aria-live="polite">{quantity}</output>
            <button
              type="button"
              aria-label={t('cart.increase', { name })}
              disabled={busy || quantity + step > max}
              onClick={() => void act(() => tools.session.changeCartLine(item.id, quantity + step))}
            >
              +
            </button>
          </div>
        )}
        {failed && (
          <p className="field__error" role="alert">
            {t('room.cartChangeFailed')}
          </p>
        )}
      </div>
      <div className="room-cart__side">
        <span className="room-cart__price">{formatPrice(item.price?.totalPrice)}</span>
        {item.removable !== false && (
          <button
            type="button"
            className="icon-button"
            aria-label={t('cart.remove', { name })}
            disabled={busy}
            onClick={() => void act(() => tools.session.removeCartLine(item.id))}
          >
            ×
          </button>
        )}
      </div>
    </li>
  );
}

function Cart({ tools }: { tools: RoomTools }) {
  const { t } = useTranslation();
  const { cart, status } = useStore(cartStore);
  useEffect(() => {
    cartStore.getState().refresh().catch(() => undefined);
  }, []);
  if (status === 'failed' && !cart) {
    return (
      <div className="alert" role="alert">
        <p>{t('cart.loadFailed')}</p>
        <button type="button" className="button button--small" onClick={() => void cartStore.getState().refresh().catch(() => undefined)}>
          {t('room.retry')}
        </button>
      </div>
    );
  }
  if (!cart) return <Spinner />;
  const items = cart.lineItems ?? [];
  if (items.length === 0) {
    return (
      <div className="room-empty">
        <p>{t('cart.empty')}</p>
      </div>
    );
  }
  return (
    <ul className="room-cart" aria-label={t('room.sidebars.cart')}>
      {items.map((item) => (
        <CartLine key={item.id} item={item} tools={tools} />
      ))}
    </ul>
  );
}

function CartFooter() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const cart = useStore(cartStore, (state) => state.cart);
  if (!cart || cartItemCount(cart) === 0) return null;
  return (
    <>
      <CartSummary cart={cart} totalTestId="room-cart-total" />
      <a className="button button--primary button--wide" href={localePath(CHECKOUT_PATH)} target="_blank" rel="noopener">
        {t('room.checkout')}
        <span className="visually-hidden"> {t('room.opensInNewTab')}</span>
      </a>
    </>
  );
}

/** The open sidebar of the attendee (likes, last seen, cart or wishlist). */
export function AttendeeSidebarPanel({ tools, open }: { tools: RoomTools; open: AttendeeSidebar }) {
  const { t } = useTranslation();
  const close = () => tools.sidebars.getState().close();
  const title = t(`room.sidebars.${open}`);
  switch (open) {
    case 'likes':
      return (
        <RoomSidebar title={title} onClose={close} testId="sidebar-likes">
          <LikeList tools={tools} />
        </RoomSidebar>
      );
    case 'lastSeen':
      return (
        <RoomSidebar title={title} onClose={close} testId="sidebar-last-seen">
          <LastSeen tools={tools} />
        </RoomSidebar>
      );
    case 'cart':
      return (
        <RoomSidebar title={title} onClose={close} footer={<CartFooter />} testId="sidebar-cart">
          <Cart tools={tools} />
        </RoomSidebar>
      );
    case 'wishlist':
      return (
        <RoomSidebar title={title} onClose={close} testId="sidebar-wishlist">
          <Wishlist tools={tools} />
        </RoomSidebar>
      );
  }
}
