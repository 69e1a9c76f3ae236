import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField } from '@/components/form';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { Notice } from '../components/admin-page';
import { FormMessages } from '../components/form-messages';
import { useEntityForm } from '../components/use-entity-form';

export const SHOP_NAME = 'core.basicInformation.shopName';
export const SHOP_EMAIL = 'core.basicInformation.email';

interface Language {
  id: string;
  name: string | null;
  locale?: { code?: string | null; name?: string | null } | null;
}

interface Domain {
  id: string;
  url: string;
  languageId: string;
}

interface SalesChannel {
  id: string;
  name: string;
  languageId: string;
  languages?: Language[] | null;
}

/**
 * The shop itself: its name and the sender address of its mails (the system
 * configuration, `core.basicInformation`), the addresses (domains) customers open it at
 * with each one's language, and the languages it offers.
 */
export function ShopBasics() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const [channel, setChannel] = useState<SalesChannel | null>(null);
  const [domains, setDomains] = useState<Domain[]>([]);
  const [basics, setBasics] = useState<{ name: string; email: string } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [newDomain, setNewDomain] = useState({ url: '', languageId: '' });
  const form = useEntityForm([SHOP_NAME, SHOP_EMAIL, 'name']);
  const domainForm = useEntityForm(['url', 'languageId']);
  const languageForm = useEntityForm(['languages', 'languageId']);
  const [installed, setInstalled] = useState<Language[]>([]);
  const [offered, setOffered] = useState<{ ids: string[]; defaultId: string }>({ ids: [], defaultId: '' });

  const load = useCallback(
    () =>
      Promise.all([
        api.systemConfig('core.basicInformation'),
        api.search<SalesChannel>('sales-channel', { limit: 1, associations: { languages: {} } }),
        api.search<Language>('language', { limit: 50, associations: { locale: {} } }),
      ])
        .then(async ([config, channels, all]) => {
          const current = channels.data[0] ?? null;
          const found = current ? await api.search<Domain>('sales-channel-domain', { limit: 100, filter: [{ type: 'equals', field: 'salesChannelId', value: current.id }] }) : null;
          setChannel(current);
          setBasics({
            name: typeof config[SHOP_NAME] === 'string' ? config[SHOP_NAME] : (current?.name ?? ''),
            email: typeof config[SHOP_EMAIL] === 'string' ? config[SHOP_EMAIL] : '',
          });
          setDomains(found?.data ?? []);
          setInstalled(all.data);
          if (current) setOffered({ ids: (current.languages ?? []).map((language) => language.id), defaultId: current.languageId });
          if (current) setNewDomain((draft) => ({ ...draft, languageId: draft.languageId || current.languageId }));
          setLoadError(null);
        })
        .catch((failure: unknown) => setLoadError(errorText(failure, t('admin.common.failed')))),
    [api, t],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const saveBasics = async (event: FormEvent) => {
    event.preventDefault();
    if (!basics) return;
    const ok = await form.run(async () => {
      await api.saveSystemConfig({ [SHOP_NAME]: basics.name, [SHOP_EMAIL]: basics.email });
      // The sales channel carries the same name (what an integration reads as the shop's).
      if (channel && basics.name.trim() && channel.name !== basics.name.trim()) await api.patch('sales-channel', channel.id, { name: basics.name.trim() });
    });
    if (ok) await load();
  };

  const addDomain = async (event: FormEvent) => {
    event.preventDefault();
    if (!channel) return;
    const ok = await domainForm.run(async () => {
      await api.create('sales-channel-domain', { salesChannelId: channel.id, url: newDomain.url.trim().replace(/\/+$/, ''), languageId: newDomain.languageId || channel.languageId });
    });
    if (ok) {
      setNewDomain({ url: '', languageId: channel.languageId });
      await load();
    }
  };

  const removeDomain = async (domain: Domain) => {
    if (!window.confirm(t('admin.common.confirmDelete', { name: domain.url }))) return;
    if (await domainForm.run(() => api.remove('sales-channel-domain', domain.id), t('admin.common.deleted'))) await load();
  };

  const saveLanguages = async (event: FormEvent) => {
    event.preventDefault();
    if (!channel) return;
    const ok = await languageForm.run(
      async () => {
        await api.patch('sales-channel', channel.id, { languages: offered.ids.map((id) => ({ id })), languageId: offered.defaultId });
      },
      t('admin.common.saved'),
    );
    if (ok) await load();
  };

  const toggleLanguage = (id: string, on: boolean) =>
    setOffered((draft) => ({ ...draft, ids: on ? [...draft.ids.filter((known) => known !== id), id] : draft.ids.filter((known) => known !== id) }));

  const languages = channel?.languages ?? [];
  const languageName = (id: string) => {
    const language = languages.find((entry) => entry.id === id);
    return language?.name ?? language?.locale?.name ?? id;
  };

  if (loadError) return <Notice>{loadError}</Notice>;
  if (!basics) {
    return (
      <p className="muted" role="status">
        {t('admin.common.loading')}
      </p>
    );
  }

  return (
    <div className="admin-stack">
      <form className="admin-form" onSubmit={(event) => void saveBasics(event)} noValidate>
        <fieldset>
          <legend>{t('admin.settings.basics.title')}</legend>
          <p className="muted field--wide">{t('admin.settings.basics.hint')}</p>
          <FormMessages lines={form.general} />
          <Field
            label={t('admin.settings.basics.name')}
            value={basics.name}
            onChange={(event) => setBasics({ ...basics, name: event.target.value })}
            error={form.errors[SHOP_NAME] ?? form.errors.name}
            required
          />
          <Field
            label={t('admin.settings.basics.email')}
            type="email"
            value={basics.email}
            onChange={(event) => setBasics({ ...basics, email: event.target.value })}
            error={form.errors[SHOP_EMAIL]}
            required
          />
          <div className="admin-toolbar field--wide">
            <button type="submit" className="button button--primary" disabled={form.busy} aria-busy={form.busy}>
              {form.busy ? t('admin.common.working') : t('admin.common.save')}
            </button>
          </div>
        </fieldset>
      </form>

      <section aria-labelledby="settings-domains">
        <h2 id="settings-domains">{t('admin.settings.basics.domain')}</h2>
        <p className="muted">{t('admin.settings.basics.domainHint')}</p>
        {domains.length === 0 ? (
          <p className="admin-empty">{t('admin.settings.basics.noDomains')}</p>
        ) : (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.settings.basics.domain')}</th>
                <th scope="col">{t('admin.language')}</th>
                <th scope="col">{t('admin.common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {domains.map((domain) => (
                <tr key={domain.id}>
                  <td>
                    <code>{domain.url}</code>
                  </td>
                  <td>{languageName(domain.languageId)}</td>
                  <td>
                    <button type="button" className="link-button link-button--danger" disabled={domainForm.busy} onClick={() => void removeDomain(domain)}>
                      {t('admin.common.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <form className="admin-form" onSubmit={(event) => void addDomain(event)} noValidate>
          <fieldset>
            <legend>{t('admin.common.new')}</legend>
            <FormMessages lines={domainForm.general} />
            <Field
              label={t('admin.settings.basics.domain')}
              type="url"
              placeholder="https://"
              value={newDomain.url}
              onChange={(event) => setNewDomain({ ...newDomain, url: event.target.value })}
              error={domainForm.errors.url}
              required
            />
            <SelectField
              label={t('admin.language')}
              value={newDomain.languageId}
              onChange={(event) => setNewDomain({ ...newDomain, languageId: event.target.value })}
              error={domainForm.errors.languageId}
              options={languages.map((language) => ({ value: language.id, label: language.name ?? language.id }))}
            />
            <div className="admin-toolbar field--wide">
              <button type="submit" className="button" disabled={domainForm.busy} aria-busy={domainForm.busy}>
                {domainForm.busy ? t('admin.common.working') : t('admin.common.create')}
              </button>
            </div>
          </fieldset>
        </form>
      </section>

      <section aria-labelledby="settings-languages">
        <h2 id="settings-languages">{t('admin.settings.basics.languages')}</h2>
        <p className="muted">{t('admin.settings.basics.languagesHint')}</p>
        <ul className="admin-list">
          {languages.map((language) => (
            <li key={language.id}>{language.id === channel?.languageId ? t('admin.settings.basics.defaultLanguage', { name: language.name ?? language.id }) : (language.name ?? language.id)}</li>
          ))}
        </ul>
        <form className="admin-form" onSubmit={(event) => void saveLanguages(event)} noValidate data-testid="shop-languages">
          <fieldset>
            <legend>{t('admin.settings.basics.offered')}</legend>
            <p className="muted field--wide">{t('admin.settings.basics.languagesHintEdit')}</p>
            <FormMessages lines={languageForm.general} />
            {installed.map((language) => (
              <label key={language.id} className="admin-inline-check field--wide">
                <input
                  type="checkbox"
                  checked={offered.ids.includes(language.id)}
                  onChange={(event) => toggleLanguage(language.id, event.target.checked)}
                />{' '}
                {language.name ?? language.locale?.name ?? language.id}
              </label>
            ))}
            {languageForm.errors.languages && <p className="field__error field--wide">{languageForm.errors.languages}</p>}
            <SelectField
              label={t('admin.settings.basics.defaultLanguageField')}
              value={offered.defaultId}
              onChange={(event) => setOffered({ ...offered, defaultId: event.target.value })}
              error={languageForm.errors.languageId}
              options={installed.map((language) => ({ value: language.id, label: language.name ?? language.id }))}
            />
            <div className="admin-toolbar field--wide">
              <button type="submit" className="button" disabled={languageForm.busy} aria-busy={languageForm.busy}>
                {languageForm.busy ? t('admin.common.working') : t('admin.settings.basics.saveLanguages')}
              </button>
            </div>
          </fieldset>
        </form>
      </section>
    </div>
  );
}
