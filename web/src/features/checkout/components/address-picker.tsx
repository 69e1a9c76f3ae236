import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/spinner';
import { listAddresses, type CustomerAddress } from '@/lib/shop/addresses';
import { AddressForm } from '@/components/account/address-form';
import { AddressLines } from '@/components/address-lines';
import './address-picker.css';

/** The customer's addresses to pick one from, or a new one (in the checkout's address modal). */
export function AddressPicker({ selectedId, onPick }: { selectedId: string | null | undefined; onPick: (address: CustomerAddress) => void }) {
  const { t } = useTranslation();
  const [addresses, setAddresses] = useState<CustomerAddress[] | null>(null);
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    listAddresses()
      .then(setAddresses)
      .catch(() => setAddresses([]));
  }, []);

  if (creating) return <AddressForm onSaved={onPick} />;
  if (!addresses) return <Spinner />;
  return (
    <div className="address-picker">
      <ul className="address-picker__list">
        {addresses.map((address) => {
          const selected = address.id === selectedId;
          return (
            <li key={address.id} className={selected ? 'address-picker__item is-selected' : 'address-picker__item'}>
              <AddressLines address={address} />
              {selected ? (
                <span className="badge">{t('checkout.selected')}</span>
              ) : (
                <button type="button" className="button button--small" onClick={() => onPick(address)}>
                  {t('checkout.useAddress')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" className="button" onClick={() => setCreating(true)}>
        {t('checkout.newAddress')}
      </button>
    </div>
  );
}
