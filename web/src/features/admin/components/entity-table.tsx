import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A column of a backoffice table: its header and what a row shows in it. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

/**
 * A backoffice table of entities: one row per entity, the columns given, and (with
 * `onEdit` / `onDelete`) an actions column with Edit and Delete.
 */
export function EntityTable<T extends { id: string }>({
  columns,
  rows,
  onEdit,
  onDelete,
}: {
  columns: Column<T>[];
  rows: T[];
  onEdit?: (row: T) => void;
  onDelete?: (row: T) => void;
}) {
  const { t } = useTranslation();
  const actions = onEdit || onDelete;
  return (
    <table className="admin-table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
          {actions && <th scope="col">{t('admin.common.actions')}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            {columns.map((column) => (
              <td key={column.header}>{column.cell(row)}</td>
            ))}
            {actions && (
              <td>
                {onEdit && (
                  <button type="button" className="link-button" onClick={() => onEdit(row)}>
                    {t('admin.common.edit')}
                  </button>
                )}
                {onDelete && (
                  <button type="button" className="link-button link-button--danger" onClick={() => onDelete(row)}>
                    {t('admin.common.delete')}
                  </button>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
