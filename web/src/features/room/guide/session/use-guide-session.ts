import { useEffect, useState } from 'react';
import { useRuntimeConfig, type RuntimeConfig } from '@/config/runtime';
import type { AdminSession } from '@/lib/api/shop';
import type { Slide } from '../../api/presentation';
import { RealtimeClient, type HubSession } from '../../realtime/client';
import { presentationApi } from '../../session/presentation-api';
import { changeAttendeeCart, loadAttendeeCart, loadAttendeeCollections, loadAttendeeLikes, loadAttendeeWishlist,
  loadInvitationAnswers, removeAttendee } from '../api/attendees';
import { interactionTemplatesApi } from '../api/interaction-templates';
import { endAppointment, startAppointment } from '../api/lifecycle';
import {
  catalogueCategories,
  createInstantListing,
  deleteInstantListing,
  listingProducts,
  productsByIds,
  savedProductsApi,
  searchProducts,
  updateInstantListing,
  widgetsApi,
} from '../api/room-admin';
import { loadAdminSession } from '../stores/admin-session';
import { GuideSession } from './guide-session';

/** The wiring of the guide's session to the shop's REST endpoints; the session itself knows no HTTP. */

export interface GuideRoomProps {
  appointmentId: string;
  contextToken: string;
  salesChannelId: string;
  slides: Slide[];
  hub: HubSession;
  session: AdminSession;
}

export function createGuideSession(config: RuntimeConfig, room: GuideRoomProps): GuideSession {
  const { appointmentId, contextToken, salesChannelId } = room;
  // The login refreshes itself: the newest one is read at each call.
  const admin = () => loadAdminSession() ?? room.session;
  return new GuideSession(new RealtimeClient(room.hub), presentationApi(config, contextToken), {
    insights: {
      cart: (attendeeId) => loadAttendeeCart(config, admin(), { salesChannelId, attendeeId }),
      // The shop tells the attendee and the guides (`attendeeCartChanged`): no hint of our own.
      changeLine: (attendeeId, lineItemId, quantity) => changeAttendeeCart(config, admin(), { salesChannelId, attendeeId }, lineItemId, quantity),
      likes: (attendeeIds) => loadAttendeeLikes(config, admin(), attendeeIds),
      collections: (attendeeId) => loadAttendeeCollections(config, admin(), attendeeId),
      wishlist: (attendeeId) => loadAttendeeWishlist(config, admin(), attendeeId),
      invitations: () => loadInvitationAnswers(config, admin(), appointmentId),
    },
    widgets: widgetsApi(config, admin, appointmentId),
    startAppointment: () => startAppointment(config, admin(), appointmentId),
    endAppointment: () => endAppointment(config, admin(), appointmentId),
    searchProducts: (term, categoryId) => searchProducts(config, admin(), term, categoryId ? 24 : 10, categoryId),
    productsByIds: (ids) => productsByIds(config, admin(), ids),
    categories: () => catalogueCategories(config, contextToken),
    savedProducts: savedProductsApi(config, admin, appointmentId),
    interactionTemplates: interactionTemplatesApi(config, admin, appointmentId),
    listingProducts: (groupId) => listingProducts(config, contextToken, groupId),
    createListing: (listing) => createInstantListing(config, admin(), appointmentId, listing),
    updateListing: (listing) => updateInstantListing(config, admin(), appointmentId, listing),
    deleteListing: (groupId) => deleteInstantListing(config, admin(), appointmentId, groupId),
    removeAttendee: (attendeeId) => removeAttendee(config, admin(), attendeeId),
  }, room.slides);
}

/** The guide's session for this component's lifetime: connected while mounted. */
export function useGuideSession(room: GuideRoomProps): GuideSession {
  const config = useRuntimeConfig();
  const [session] = useState(() => createGuideSession(config, room));
  useEffect(() => {
    session.start();
    return () => session.stop();
  }, [session]);
  return session;
}
