import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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

  it("the room's shared parts import no side, by alias or relative path", async () => {
    const fromSession = await boundaryErrors('src/features/room/session/boundary-probe.ts', "export { GuideSession } from '../guide/session/guide-session';\n");
    const fromComponents = await boundaryErrors(
      'src/features/room/components/boundary-probe.ts',
      "export { AttendeeSession } from '@/features/room/attendee/session/attendee-session';\n",
    );
    const fromRealtime = await boundaryErrors('src/features/room/realtime/boundary-probe.ts', "export { GuideLogin } from '../guide/components/guide-login';\n");
    const fromApi = await boundaryErrors('src/features/room/api/boundary-probe.ts', "export { takeCartGrant } from '../attendee/stores/attendee-session';\n");
    for (const errors of [fromSession, fromComponents, fromRealtime, fromApi]) expect(errors).toEqual([expect.stringMatching(/import no side/)]);
  });

  it('a side imports nothing of the other side', async () => {
    const guide = await boundaryErrors('src/features/room/guide/components/boundary-probe.ts', "export { AttendeeSession } from '../../attendee/session/attendee-session';\n");
    const attendee = await boundaryErrors('src/features/room/attendee/components/boundary-probe.ts', "export { GuideSession } from '@/features/room/guide/session/guide-session';\n");
    expect(guide).toEqual([expect.stringMatching(/guide's side .*imports nothing of the attendee's/)]);
    expect(attendee).toEqual([expect.stringMatching(/attendee's side imports nothing of the guide's/)]);
  });

  it("the room's shared parts import only below themselves (no back-up arrow)", async () => {
    const realtime = await boundaryErrors('src/features/room/realtime/boundary-probe.ts', "export { visiblePolls } from '../engagement/polls';\n");
    const api = await boundaryErrors('src/features/room/api/boundary-probe.ts', "export { useProductSummaries } from '../components/product-summaries';\n");
    const session = await boundaryErrors('src/features/room/session/boundary-probe.ts', "export { SlideView } from '../components/slide-view';\n");
    expect(realtime).toEqual([expect.stringMatching(/realtime client imports only/)]);
    expect(api).toEqual([expect.stringMatching(/no back-up arrow/)]);
    expect(session).toEqual([expect.stringMatching(/session imports only/)]);
    const sideApi = await boundaryErrors('src/features/room/guide/api/boundary-probe.ts', "export { useProductSummaries } from '../../components/product-summaries';\n");
    const sideStore = await boundaryErrors('src/features/room/attendee/stores/boundary-probe.ts', "export { AttendeeSession } from '../session/attendee-session';\n");
    expect(sideApi).toEqual([expect.stringMatching(/REST calls and stores import no UI/)]);
    expect(sideStore).toEqual([expect.stringMatching(/REST calls and stores import no UI/)]);
  });

  it('a side may import the shared parts, and the shared parts what is below them', async () => {
    const code = [
      "import { RoomSession } from '../../session/room-session';",
      "import { EngagementPanel } from '../../engagement/engagement-panel';",
      "import { SlideView } from '../../components/slide-view';",
      "import { applyEvent } from '../../realtime/apply-event';",
      "import { getSlides } from '../../api/presentation';",
      'export const parts = [RoomSession, EngagementPanel, SlideView, applyEvent, getSlides];',
      '',
    ].join('\n');
    expect(await boundaryErrors('src/features/room/guide/components/boundary-probe.ts', code)).toEqual([]);
    const session = "import { RealtimeClient } from '../realtime/client';\nimport { getSlides } from '../api/presentation';\nexport const parts = [RealtimeClient, getSlides];\n";
    expect(await boundaryErrors('src/features/room/session/boundary-probe.ts', session)).toEqual([]);
  });
});

describe('import cycles', { timeout: 60_000 }, () => {
  it('finds a circle of TypeScript modules, also through a lazy import', async () => {
    // no-cycle follows imports through files on disk: two real files that import each other.
    const dir = `${import.meta.dirname}/src/cycle-probe-${process.pid}`;
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(`${dir}/card.tsx`, "import { lazy } from 'react';\nexport const View = lazy(() => import('./view'));\nexport const nameOf = (s: string) => s;\n");
      writeFileSync(`${dir}/view.tsx`, "import { nameOf } from './card';\nexport default function View() {\n  return nameOf('x');\n}\n");
      const results = await eslint.lintFiles([`${dir}/view.tsx`]);
      const cycles = results.flatMap((result) => result.messages).filter((message) => message.ruleId === 'import-x/no-cycle');
      expect(cycles).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
