import type { Schemas } from '@shopware/api-client/store-api-types';
import { ApiClientError } from '@shopware/api-client';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { getCategoryListing, getProductDetail, type ProductDetail } from '@/features/catalog/api/catalog';
import { ProductDetailPage } from '@/features/catalog/components/product-detail';
import { ProductListing } from '@/features/catalog/components/product-listing';
import { CmsPage } from '@/components/cms/cms-page';
import { useDocumentTitle } from '@/lib/head';
import { stripLocale, useLocalePath } from '@/lib/i18n';
import { nonFatalNotFound, pageNotFound } from '@/lib/router/middleware';
import { categoryPath, resolvePath, SEO_ROUTES, type ResolvedPath } from '@/lib/shop/paths';
import { shopClient, shopContext } from '@/lib/shop/session';
import { setCurrency } from '@/lib/format';
import { usePagePath } from '@/lib/shop/page-path';
import { appCmsElements } from '../cms-elements';
import { useStore } from 'zustand';
import { navigationStore } from '@/features/navigation/stores/navigation';
import type { NavigationCategory } from '@/features/navigation/api/get-main-navigation';

type Category = Schemas['Category'];
type LandingPage = Schemas['LandingPage'];

export type ContentPageData =
  | { kind: 'category'; category: Category; isHome: boolean }
  | { kind: 'product'; detail: ProductDetail; taxState: string; requestedId: string }
  | { kind: 'landingPage'; landingPage: LandingPage };

/** Finds what an seo path points at (`POST /seo-url`); null when nothing does. */
export async function resolveSeoPath(seoPath: string): Promise<Exclude<ResolvedPath, { kind: 'seo' }> | null> {
  const candidates = seoPath.endsWith('/') ? [seoPath, seoPath.replace(/\/+$/, '')] : [seoPath, `${seoPath}/`];
  for (const candidate of candidates.filter(Boolean)) {
    const { data } = await shopClient().invoke('readSeoUrl post /seo-url', {
      body: { filter: [{ type: 'equals', field: 'seoPathInfo', value: candidate }], limit: 1 } as never,
    });
    const hit = data.elements?.[0];
    const kind = hit ? SEO_ROUTES[hit.routeName] : undefined;
    if (hit && kind) return { kind, id: hit.foreignKey };
  }
  return null;
}

const isNotFound = (error: unknown) => error instanceof ApiClientError && (error.status === 404 || error.status === 400);

/** Resolves the path and loads the category, product or landing page behind it. */
export async function loader({ request }: LoaderFunctionArgs): Promise<ContentPageData> {
  const url = new URL(request.url);
  const path = stripLocale(url.pathname);
  let target = resolvePath(path);
  if (target.kind === 'seo') {
    const found = await resolveSeoPath(target.seoPath);
    // No page has this path: the non-fatal 404 of a navigation no route matched.
    if (!found) throw nonFatalNotFound(url.pathname + url.search);
    target = found;
  }
  try {
    switch (target.kind) {
      case 'category': {
        const context = await shopContext();
        setCurrency(context.currency?.isoCode);
        const id = target.id ?? context.salesChannel?.navigationCategoryId;
        if (!id) throw pageNotFound(path);
        const { data } = await shopClient().invoke('readCategory post /category/{navigationId}', {
          pathParams: { navigationId: id },
          body: {},
        });
        return { kind: 'category', category: data, isHome: target.id === null || id === context.salesChannel?.navigationCategoryId };
      }
      case 'product': {
        const [detail, context] = await Promise.all([getProductDetail(target.id), shopContext().catch(() => null)]);
        setCurrency(context?.currency?.isoCode);
        return { kind: 'product', detail, taxState: context?.context?.taxState ?? 'gross', requestedId: target.id };
      }
      case 'landingPage': {
        const { data } = await shopClient().invoke('readLandingPage post /landing-page/{landingPageId}', {
          pathParams: { landingPageId: target.id },
          body: {},
        });
        return { kind: 'landingPage', landingPage: data };
      }
    }
  } catch (error) {
    if (isNotFound(error)) throw pageNotFound(path);
    throw error;
  }
}

function Breadcrumb({ category }: { category: Category }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const names = category.translated?.breadcrumb ?? category.breadcrumb ?? [];
  const ids = (category.path ?? '').split('|').filter(Boolean);
  // The first entry is the root (the home page), the last is the category itself.
  const trail = names.slice(1, -1).map((name, index) => ({ name, id: ids[index + 1] }));
  return (
    <nav className="breadcrumb" aria-label={t('shop.breadcrumb')}>
      <ol>
        <li>
          <Link to={localePath('/') || '/'}>{t('shop.home')}</Link>
        </li>
        {trail.map((entry) => (
          <li key={entry.id ?? entry.name}>{entry.id ? <Link to={localePath(`/navigation/${entry.id}`)}>{entry.name}</Link> : entry.name}</li>
        ))}
        <li aria-current="page">{category.translated?.name || category.name}</li>
      </ol>
    </nav>
  );
}

/**
 * A product's trail through the header's category tree: the path to the deepest
 * category the product is in (`categoryTree` holds its categories and their parents in
 * no particular order; `categoryIds` its own categories).
 */
export function productTrail(tree: NavigationCategory[], categoryIds: (string[] | undefined)[]): { id: string; name: string; to: string }[] {
  const wanted = new Set(categoryIds.flatMap((ids) => ids ?? []));
  let best: { id: string; name: string; to: string }[] = [];
  const walk = (level: NavigationCategory[], path: { id: string; name: string; to: string }[]) => {
    for (const entry of level) {
      const next = [...path, { id: entry.id, name: entry.translated?.name || entry.name, to: categoryPath(entry) }];
      if (wanted.has(entry.id) && next.length > best.length) best = next;
      walk(entry.children ?? [], next);
    }
  };
  walk(tree, []);
  return best;
}

function ProductBreadcrumb({ categoryIds, name }: { categoryIds: (string[] | undefined)[]; name: string }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const items = useStore(navigationStore, (state) => state.items);
  const trail = productTrail(items, categoryIds);
  return (
    <nav className="breadcrumb product-page__breadcrumb" aria-label={t('shop.breadcrumb')}>
      <ol>
        <li>
          <Link to={localePath('/') || '/'}>{t('shop.home')}</Link>
        </li>
        {trail.map((entry) => (
          <li key={entry.id}>
            <Link to={localePath(entry.to)}>{entry.name}</Link>
          </li>
        ))}
        <li aria-current="page">{name}</li>
      </ol>
    </nav>
  );
}

function CategoryPage({ category, isHome }: { category: Category; isHome: boolean }) {
  const name = category.translated?.name || category.name;
  useDocumentTitle(isHome ? null : category.translated?.metaTitle || name);
  const elements = useMemo(() => appCmsElements(category.id), [category.id]);
  return (
    <div className="category-page" data-testid="category-page">
      {!isHome && (
        <header className="container page-header">
          <Breadcrumb category={category} />
          <h1 className="page-title">{name}</h1>
          {category.translated?.description && !category.cmsPage ? <p className="page-lead">{category.translated.description}</p> : null}
        </header>
      )}
      {category.cmsPage ? (
        <CmsPage page={category.cmsPage} context={{ elements, categoryId: category.id }} />
      ) : (
        <div className="container">
          <ProductListing fetchListing={(criteria) => getCategoryListing(category.id, criteria)} />
        </div>
      )}
    </div>
  );
}

function LandingPageView({ landingPage }: { landingPage: LandingPage }) {
  const name = landingPage.translated?.name || landingPage.name;
  useDocumentTitle(landingPage.translated?.metaTitle || name);
  const elements = useMemo(() => appCmsElements(), []);
  if (!landingPage.cmsPage) {
    return (
      <div className="container page-header">
        <h1 className="page-title">{name}</h1>
      </div>
    );
  }
  return <CmsPage page={landingPage.cmsPage} context={{ elements }} />;
}

/** The catch-all content page: category, product or landing page. */
function technicalPath(data: ContentPageData): string {
  switch (data.kind) {
    case 'category':
      return data.isHome ? '/' : `/navigation/${data.category.id}`;
    case 'product':
      // The product the path named (a parent shows its first variant): a language switch keeps its seo path.
      return `/detail/${data.requestedId}`;
    case 'landingPage':
      return `/landingPage/${data.landingPage.id}`;
  }
}

export function Component() {
  const data = useLoaderData<ContentPageData>();
  usePagePath(technicalPath(data));
  switch (data.kind) {
    case 'category':
      return <CategoryPage key={data.category.id} category={data.category} isHome={data.isHome} />;
    case 'product':
      return (
        <ProductDetailPage
          key={data.detail.product.id}
          detail={data.detail}
          taxState={data.taxState}
          breadcrumb={
            <ProductBreadcrumb
              categoryIds={[data.detail.product.categoryTree, data.detail.product.categoryIds]}
              name={data.detail.product.translated?.name || data.detail.product.name}
            />
          }
        />
      );
    case 'landingPage':
      return <LandingPageView key={data.landingPage.id} landingPage={data.landingPage} />;
  }
}
