import type { ComponentType } from 'react';
import { catalogCmsElements } from '@/features/catalog/components/cms-elements';
import type { CmsElementProps } from '@/components/cms/context';
import { CategoryNavigation } from '@/features/navigation/components/category-navigation';

/** The commerce and navigation elements the CMS renderer gets from the other features. */
export function appCmsElements(categoryId?: string): Record<string, ComponentType<CmsElementProps>> {
  return {
    ...catalogCmsElements(categoryId),
    'category-navigation': CategoryNavigation,
  };
}
