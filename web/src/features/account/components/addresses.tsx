import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddressLines } from '@/components/address-lines';
import { Spinner } from '@/components/spinner';
import { customerStore, type Customer } from '@/lib/shop/customer';
import { modalStore } from '@/lib/ui/modal';
import { toast } from '@/lib/ui/toasts';
import { deleteAddress, listAddresses, setDefaultAddress, type CustomerAddress } from '@/lib/shop/addresses';
import { AddressForm } from '@/components/account/address-form';
import './addresses.css';

/** The customer's addresses: defaults marked, add and edit in a modal, delete, make default. */
export function Addresses({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const [addresses, setAddresses] = useState<CustomerAddress[] | null>(null);

  const load = useCallback(() => {
    listAddresses()
      .then(setAddresses)
      .catch(() => setAddresses([]));
  }, []);
  useEffect(load, [load]);

  const afterChange = async (message: string) => {
    toast({ content: message, variant: 'success' });
    load();
    await customerStore.getState().refresh().catch(() => undefined);
  };

  const edit = (address?: CustomerAddress) =>
    modalStore.getState().open(
      <AddressForm
        address={address}
        onSaved={() => {
          modalStore.getState().close();
          void afterChange(t('account.addressSaved'));
        }}
      />,
      { title: address ? t('account.editAddress') : t('account.addAddress'), size: 'medium' },
    );

  const run = async (work: () => Promise<void>, message: string) => {
    try {
      await work();
      await afterChange(message);
    } catch {
      toast({ content: t('account.addressActionFailed'), variant: 'danger' });
    }
  };

  return (
    <section className="addresses" aria-labelledby="addresses-title">
      <div className="addresses__header">
        <h2 id="addresses-title" className="section-title">
          {t('account.addresses')}
        </h2>
        <button type="button" className="button button--small" onClick={() => edit()}>
          {t('account.addAddress')}
        </button>
      </div>
      {!addresses ? (
        <Spinner />
      ) : (
        <ul className="account-grid addresses__list">
          {addresses.map((address) => {
            const billing = address.id === customer.defaultBillingAddressId;
            const shipping = address.id === customer.defaultShippingAddressId;
            return (
              <li key={address.id} className="account-card" data-testid="address">
                <div className="address-card__badges">
                  {billing && <span className="badge">{t('account.defaultBilling')}</span>}
                  {shipping && <span className="badge">{t('account.defaultShipping')}</span>}
                </div>
                <AddressLines address={address} />
                <div className="address-card__actions">
                  <button type="button" className="link-button" onClick={() => edit(address)} aria-label={`${t('account.editAddress')}: ${address.street}`}>
                    {t('account.edit')}
                  </button>
                  {!billing && (
                    <button type="button" className="link-button" onClick={() => void run(() => setDefaultAddress('billing', address.id), t('account.addressSaved'))}>
                      {t('account.makeDefaultBilling')}
                    </button>
                  )}
                  {!shipping && (
                    <button type="button" className="link-button" onClick={() => void run(() => setDefaultAddress('shipping', address.id), t('account.addressSaved'))}>
                      {t('account.makeDefaultShipping')}
                    </button>
                  )}
                  {!billing && !shipping && (
                    <button type="button" className="link-button link-button--danger" onClick={() => void run(() => deleteAddress(address.id), t('account.addressDeleted'))} aria-label={`${t('account.deleteAddress')}: ${address.street}`}>
                      {t('account.deleteAddress')}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
