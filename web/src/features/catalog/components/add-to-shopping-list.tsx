import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { customerStore, isLoggedIn } from '@/lib/shop/customer';
import { addToShoppingList, createShoppingList, listShoppingLists, type ShoppingList } from '@/lib/shop/shopping-lists';
import { toast } from '@/lib/ui/toasts';

/**
 * A logged-in customer puts the product on one of their shopping lists (a first list is
 * made when there is none). Shown to customers only: guests have no lists.
 */
export function AddToShoppingList({ productId, quantity }: { productId: string; quantity: number }) {
  const { t } = useTranslation();
  const { customer } = useStore(customerStore);
  const loggedIn = isLoggedIn(customer);
  const [lists, setLists] = useState<ShoppingList[]>([]);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!loggedIn) return;
    listShoppingLists()
      .then((found) => {
        setLists(found);
        setChosen((previous) => previous || (found[0]?.id ?? ''));
      })
      .catch(() => undefined);
  }, [loggedIn]);
  if (!loggedIn) return null;

  const add = async () => {
    setBusy(true);
    try {
      let list = lists.find((candidate) => candidate.id === chosen);
      if (!list) {
        list = await createShoppingList(t('shoppingLists.newList'));
        setLists([list]);
        setChosen(list.id);
      }
      await addToShoppingList(list.id, productId, quantity);
      toast({ content: t('shoppingLists.added', { name: list.name }), variant: 'success' });
    } catch {
      toast({ content: t('errors.generic'), variant: 'danger' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="buy-box__shopping-list">
      {lists.length > 0 && (
        <label className="select">
          <span className="visually-hidden">{t('shoppingLists.choose')}</span>
          <select value={chosen} onChange={(event) => setChosen(event.target.value)} aria-label={t('shoppingLists.choose')}>
            {lists.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="button" className="button" disabled={busy} onClick={() => void add()}>
        {t('shoppingLists.addTo')}
      </button>
    </div>
  );
}
