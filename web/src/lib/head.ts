import { useEffect } from 'react';

const SHOP_NAME = 'Salesroom';

/** Sets the document title (`{title} | Salesroom`) while the calling page is shown. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} | ${SHOP_NAME}` : SHOP_NAME;
  }, [title]);
}
