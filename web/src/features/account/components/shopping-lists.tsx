import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cartStore } from '@/lib/shop/cart';
import { cartUi } from '@/lib/shop/cart-ui';
import { createShoppingList, listShoppingLists, renameShoppingList, shoppingListsToCart, type ShoppingList } from '@/lib/shop/shopping-lists';
import { toast } from '@/lib/ui/toasts';
import './shopping-lists.css';

const productName = (line: NonNullable<ShoppingList['lineItems']>[number]) =>
  line.product?.translated?.name || line.product?.name || line.product?.productNumber || line.productId;

function ListCard({ list, onChanged }: { list: ShoppingList; onChanged: () => void }) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(list.name);
  const [busy, setBusy] = useState(false);
  const lines = list.lineItems ?? [];

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await renameShoppingList(list.id, name.trim());
      setRenaming(false);
      onChanged();
    } catch {
      toast({ content: t('errors.generic'), variant: 'danger' });
    } finally {
      setBusy(false);
    }
  };
  const toCart = async () => {
    setBusy(true);
    try {
      await shoppingListsToCart([list.id]);
      await cartStore.getState().refresh();
      toast({ content: t('shoppingLists.addedToCart', { name: list.name }), variant: 'success', actionText: t('cart.show'), actionFn: () => cartUi.getState().open() });
    } catch {
      toast({ content: t('errors.generic'), variant: 'danger' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="card shopping-list" aria-label={list.name}>
      {renaming ? (
        <form className="shopping-list__rename" onSubmit={(event) => void rename(event)}>
          <label className="field">
            <span className="field__label">{t('shoppingLists.name')}</span>
            <input className="input" value={name} maxLength={255} required onChange={(event) => setName(event.target.value)} autoFocus />
          </label>
          <button type="submit" className="button button--primary button--small" disabled={busy || !name.trim()}>
            {t('shoppingLists.save')}
          </button>
          <button type="button" className="button button--small" onClick={() => setRenaming(false)}>
            {t('shoppingLists.cancel')}
          </button>
        </form>
      ) : (
        <div className="shopping-list__head">
          <h3 className="shopping-list__name">{list.name}</h3>
          <button type="button" className="button button--small" onClick={() => setRenaming(true)} aria-label={t('shoppingLists.rename', { name: list.name })}>
            {t('shoppingLists.renameShort')}
          </button>
        </div>
      )}
      {lines.length === 0 ? (
        <p className="muted">{t('shoppingLists.emptyList')}</p>
      ) : (
        <ul className="shopping-list__lines">
          {lines.map((line) => (
            <li key={line.id} data-testid="shopping-list-line">
              {productName(line)} × {line.quantity}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="button button--primary button--small"
        disabled={busy || lines.length === 0}
        title={lines.length === 0 ? t('shoppingLists.emptyList') : undefined}
        onClick={() => void toCart()}
      >
        {t('shoppingLists.toCart')}
      </button>
    </li>
  );
}

/** The account's shopping lists: create, rename, put a whole list into the cart. */
export function ShoppingLists() {
  const { t } = useTranslation();
  const [lists, setLists] = useState<ShoppingList[] | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    listShoppingLists()
      .then(setLists)
      .catch(() => setLists([]));
  }, []);
  useEffect(load, [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await createShoppingList(name.trim());
      setName('');
      load();
    } catch {
      toast({ content: t('errors.generic'), variant: 'danger' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="shopping-lists" aria-labelledby="shopping-lists-title">
      <h2 className="section-title" id="shopping-lists-title">
        {t('shoppingLists.title')}
      </h2>
      <form className="shopping-lists__create" onSubmit={(event) => void create(event)}>
        <label className="field">
          <span className="field__label">{t('shoppingLists.newName')}</span>
          <input className="input" value={name} maxLength={255} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" className="button" disabled={busy || !name.trim()} title={name.trim() ? undefined : t('shoppingLists.nameFirst')}>
          {t('shoppingLists.create')}
        </button>
      </form>
      {lists === null ? null : lists.length === 0 ? (
        <p className="muted">{t('shoppingLists.none')}</p>
      ) : (
        <ul className="shopping-lists__list">
          {lists.map((list) => (
            <ListCard key={list.id} list={list} onChanged={load} />
          ))}
        </ul>
      )}
    </section>
  );
}
