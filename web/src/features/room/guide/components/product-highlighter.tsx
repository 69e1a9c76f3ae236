import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '@/config/runtime';
import { getProductLabels, type ProductLabel } from '@/lib/api/products';
import { modalStore } from '@/lib/ui/modal';
import './product-highlighter.css';

const ID = /^[0-9a-f]{32}$/;

/** Picks a product (from the catalogue's first products, or by id) to show to everyone. */
function Highlighter({ onHighlight }: { onHighlight: (productId: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  const [products, setProducts] = useState<ProductLabel[]>([]);
  const [productId, setProductId] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    getProductLabels(config, { limit: 24 })
      .then((found) => !cancelled && setProducts(found))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [config]);

  const valid = ID.test(productId.trim());
  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!valid) return;
    setBusy(true);
    setFailed(false);
    try {
      await onHighlight(productId.trim());
      modalStore.getState().close();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <form className="highlighter" onSubmit={submit} noValidate>
      {products.length > 0 && (
        <label className="field">
          <span className="field__label">{t('cockpit.product')}</span>
          <select value={valid ? productId : ''} onChange={(event) => setProductId(event.target.value)}>
            <option value="">—</option>
            {products.map((product) => (
              <option key={product.id} value={product.id}>
                {product.name} ({product.productNumber})
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field">
        <span className="field__label">{t('cockpit.productId')}</span>
        <input
          value={productId}
          onChange={(event) => setProductId(event.target.value)}
          aria-invalid={submitted && !valid}
          spellCheck={false}
        />
      </label>
      {submitted && !valid && <p className="field__error">{t('errors.required')}</p>}
      {failed && (
        <p className="alert" role="alert">
          {t('cockpit.actionFailed')}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {t('cockpit.highlightSend')}
      </button>
    </form>
  );
}

export function openProductHighlighter(title: string, onHighlight: (productId: string) => Promise<unknown>): void {
  modalStore.getState().open(<Highlighter onHighlight={onHighlight} />, { title, size: 'medium' });
}
