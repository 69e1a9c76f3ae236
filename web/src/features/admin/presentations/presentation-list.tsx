import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAdminApi } from '../api/context';
import { useAdminPath } from '../components/admin-path';
import { SearchListPage } from '../components/search-list-page';
import type { PageEntity } from './slides';

interface PresentationEntity {
  id: string;
  name: string;
  pages: PageEntity[];
}

/** Presentations: search by name, how many pages each has. */
export function PresentationList() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();

  const search = useCallback(
    (term: string, page: number, limit: number) =>
      api.search<PresentationEntity>('dsr-presentation', {
        page,
        limit,
        sort: [{ field: 'name' }],
        ...(term ? { filter: [{ type: 'contains', field: 'name', value: term }] } : {}),
      }),
    [api],
  );

  return (
    <SearchListPage
      title={t('admin.presentations.title')}
      newLink={{ to: adminPath('presentations/new'), label: t('admin.presentations.new') }}
      searchId="presentation-search"
      searchLabel={t('admin.presentations.searchLabel')}
      search={search}
      columns={[
        {
          header: t('admin.presentations.name'),
          cell: (presentation) => <Link to={adminPath(`presentations/${presentation.id}`)}>{presentation.name}</Link>,
        },
        { header: t('admin.presentations.pages'), cell: (presentation) => presentation.pages.length },
      ]}
    />
  );
}
