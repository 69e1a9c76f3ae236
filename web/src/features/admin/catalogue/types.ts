/** Admin API records as the catalogue pages read them (fields the backoffice uses). */

export interface Translation {
  languageId: string;
  name?: string | null;
  description?: string | null;
}

export interface Price {
  gross: number;
  net: number | null;
  listPrice?: { gross: number; net: number | null } | null;
}

export interface Product {
  id: string;
  parentId: string | null;
  productNumber: string;
  name: string | null;
  description: string | null;
  active: boolean;
  stock: number;
  manufacturerId: string | null;
  price: Price[] | null;
  childCount: number;
  categories: { id: string }[] | null;
  options: { id: string }[] | null;
  media: { id: string; mediaId: string; position: number }[] | null;
  translations: Translation[];
}

export interface Category {
  id: string;
  parentId: string | null;
  name: string | null;
  level: number;
  position: number;
  active: boolean;
  visible: boolean;
  translations: Translation[];
}

export interface Manufacturer {
  id: string;
  name: string | null;
  link: string | null;
  translations: Translation[];
}

export interface PropertyOption {
  id: string;
  groupId: string;
  name: string | null;
  position: number;
}

export interface PropertyGroup {
  id: string;
  name: string | null;
  options: PropertyOption[] | null;
}

export interface Media {
  id: string;
  url: string | null;
  alt: string | null;
  fileName: string | null;
}

export interface Promotion {
  id: string;
  name: string | null;
  code: string | null;
  active: boolean;
  useCodes: boolean;
  validFrom: string | null;
  validUntil: string | null;
  maxRedemptionsGlobal: number | null;
  discounts: { type: 'percentage' | 'absolute'; value: number; scope?: string }[] | null;
}
