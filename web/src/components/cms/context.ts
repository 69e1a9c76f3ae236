import type { Schemas } from '@shopware/api-client/store-api-types';
import { createContext, useContext, type ComponentType } from 'react';

export type CmsPageData = Schemas['CmsPage'];
export type CmsSectionData = Schemas['CmsSection'];
export type CmsBlockData = Schemas['CmsBlock'];
export type CmsSlotData = Schemas['CmsSlot'];

export interface CmsElementProps {
  slot: CmsSlotData;
  block: CmsBlockData;
}

export interface CmsRenderContext {
  /** Element components the app adds (product box, listing …), by element type. */
  elements: Partial<Record<string, ComponentType<CmsElementProps>>>;
  /** The category whose page this is, for its product listing. */
  categoryId?: string;
  /** Stands in for an element type nobody renders (the room says it is not supported); default: Unresolved. */
  unsupported?: ComponentType<{ type: string }>;
}

export const CmsContext = createContext<CmsRenderContext>({ elements: {} });

export const useCmsContext = () => useContext(CmsContext);
