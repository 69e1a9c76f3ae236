import type { MachineState } from '../api/client';

/** Admin API records of the order pages, as Shopware names their fields (those the pages use). */

export interface CalculatedTax {
  tax: number;
  taxRate: number;
  price: number;
}

/** A calculated price (`price` of an order or a line, `shippingCosts` of a delivery). */
export interface CalculatedPrice {
  unitPrice?: number;
  totalPrice: number;
  quantity?: number;
  calculatedTaxes?: CalculatedTax[] | null;
}

/** An order's `price`: net, gross and the taxes summed per rate. */
export interface CartPrice {
  netPrice: number;
  totalPrice: number;
  positionPrice?: number;
  rawTotal?: number;
  /** `gross`, `net` or `tax-free`. */
  taxStatus?: string;
  calculatedTaxes?: CalculatedTax[] | null;
}

export interface Named {
  id?: string;
  name?: string | null;
  translated?: { name?: string | null } | null;
}

export interface OrderAddress {
  id: string;
  company?: string | null;
  firstName: string;
  lastName: string;
  street: string;
  additionalAddressLine1?: string | null;
  zipcode?: string | null;
  city: string;
  phoneNumber?: string | null;
  country?: Named | null;
  countryState?: Named | null;
}

export interface OrderLineItem {
  id: string;
  label: string;
  type?: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
  position?: number;
  payload?: { productNumber?: string; options?: { group: string; option: string }[] } | null;
  price?: CalculatedPrice | null;
}

export interface OrderTransaction {
  id: string;
  createdAt?: string;
  amount?: CalculatedPrice | null;
  paymentMethod?: Named | null;
  stateMachineState?: MachineState | null;
}

export interface OrderDelivery {
  id: string;
  trackingCodes?: string[] | null;
  shippingCosts?: CalculatedPrice | null;
  shippingMethod?: Named | null;
  shippingOrderAddress?: OrderAddress | null;
  stateMachineState?: MachineState | null;
}

export interface OrderDocument {
  id: string;
  createdAt?: string;
  deepLinkCode: string;
  fileType?: string;
  documentNumber?: string | null;
  config?: { documentNumber?: string | null; name?: string | null } | null;
  documentType?: { technicalName: string; name?: string | null; translated?: { name?: string | null } | null } | null;
}

export interface OrderCustomer {
  id?: string;
  customerId?: string | null;
  email: string;
  firstName: string;
  lastName: string;
  customerNumber?: string | null;
}

/** The appointment an order was placed in (Shopware's Digital Sales Rooms keep the link). */
export interface OrderAppointment {
  id: string;
  name?: string | null;
  translated?: { name?: string | null } | null;
}

export interface AdminOrder {
  id: string;
  orderNumber: string;
  orderDateTime: string;
  amountTotal: number;
  amountNet: number;
  positionPrice?: number;
  shippingTotal?: number;
  taxStatus?: string;
  customerComment?: string | null;
  price?: CartPrice | null;
  shippingCosts?: CalculatedPrice | null;
  currency?: { isoCode: string; symbol?: string } | null;
  stateMachineState?: MachineState | null;
  orderCustomer?: OrderCustomer | null;
  billingAddressId?: string;
  addresses?: OrderAddress[] | null;
  lineItems?: OrderLineItem[] | null;
  transactions?: OrderTransaction[] | null;
  deliveries?: OrderDelivery[] | null;
  documents?: OrderDocument[] | null;
  appointmentId?: string | null;
  appointment?: OrderAppointment | null;
  customFields?: Record<string, unknown> | null;
}

/** One change of state of `state-machine-history`. */
export interface StateHistoryEntry {
  id: string;
  createdAt: string;
  entityName: string;
  referencedId?: string;
  transitionActionName?: string | null;
  fromStateMachineState?: MachineState | null;
  toStateMachineState?: MachineState | null;
  user?: { username?: string; firstName?: string; lastName?: string } | null;
}
