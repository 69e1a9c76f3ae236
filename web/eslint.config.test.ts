import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of eslint.config.js fire on made-up files (never written to disk)
 * that import real modules, through the `@/` alias and through relative paths alike.
 * The type-aware rules are off here: the project service knows only files on disk.
 */
const eslint = new ESLint({ cwd: import.meta.dirname, overrideConfig: [tseslint.configs.disableTypeChecked] });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const messages = result?.messages ?? [];
  // A file that does not parse reports nothing else: that must fail the test, not pass it.
  expect(messages.filter((message) => message.fatal)).toEqual([]);
  return messages.filter((message) => message.ruleId === 'import-x/no-restricted-paths').map((message) => message.message);
}

describe('import boundaries', { timeout: 60_000 }, () => {
  it('a feature may not import another feature, by alias or relative path', async () => {
    const code = [
      "import { CartPage } from '@/features/cart/components/cart-page';",
      "import { CheckoutPage } from '../checkout/components/checkout-page';",
      'export const pages = [CartPage, CheckoutPage];',
      '',
    ].join('\n');
    const errors = await boundaryErrors('src/features/catalog/boundary-probe.ts', code);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/"@\/features\/cart\/components\/cart-page".*imports no other feature/);
    expect(errors[1]).toMatch(/"\.\.\/checkout\/components\/checkout-page".*imports no other feature/);
  });

  it('a feature may import itself, components and lib', async () => {
    const code = [
      "import { getProducts } from './api/catalog';",
      "import { CartSummary } from '@/components/cart/cart-summary';",
      "import { cartStore } from '@/lib/shop/cart';",
      'export const parts = [getProducts, CartSummary, cartStore];',
      '',
    ].join('\n');
    expect(await boundaryErrors('src/features/catalog/boundary-probe.ts', code)).toEqual([]);
  });

  it('lib and components may not import a feature', async () => {
    const fromLib = await boundaryErrors('src/lib/shop/boundary-probe.ts', "import { getProducts } from '@/features/catalog/api/catalog';\nexport { getProducts };\n");
    const fromComponents = await boundaryErrors('src/components/boundary-probe.ts', "export { SearchBox } from '../features/search/components/search-box';\n");
    expect(fromLib).toEqual([expect.stringMatching(/"@\/features\/catalog\/api\/catalog".*src\/components and src\/lib import no feature/)]);
    expect(fromComponents).toEqual([expect.stringMatching(/"\.\.\/features\/search\/components\/search-box".*src\/components and src\/lib import no feature/)]);
  });
});
