import { useEffect, useState } from 'react';
import { useRuntimeConfig, type RuntimeConfig } from '@/config/runtime';
import { hubSessionOf, type AdminSession, type JoinAppointmentResponse } from '@/lib/api/shop';
import { cartStore } from '@/lib/shop/cart';
import { getSlideData, getSlides, type Slide } from '../api/presentation';
import { collectionsApi } from '../attendee/api/collections';
import { takeCartGrant } from '../attendee/stores/attendee-session';
import { changeAttendeeCart, loadAttendeeCart, loadAttendeeCollections, loadAttendeeLikes, loadAttendeeWishlist,
  loadInvitationAnswers, removeAttendee } from '../guide/api/attendees';
import { interactionTemplatesApi } from '../guide/api/interaction-templates';
import { endAppointment, startAppointment } from '../guide/api/lifecycle';
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
} from '../guide/api/room-admin';
import { loadAdminSession } from '../guide/stores/admin-session';
import { RealtimeClient, type HubSession } from '../realtime/client';
import { createSharedClients } from '../realtime/shared-client';
import { AttendeeSession, GuideSession, type PresentationApi } from './room-session';

/** The wiring of the sessions to the shop's REST endpoints; the sessions themselves know no HTTP. */

function presentationApi(config: RuntimeConfig, contextToken: string): PresentationApi {
  return {
    slides: () => getSlides(config, contextToken),
    slide: ({ pageId, sectionId }) => getSlideData(config, contextToken, pageId, sectionId),
  };
}

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

interface AttendeeSessionArgs extends HubSession {
  appointmentId: string;
  contextToken: string;
  config: RuntimeConfig;
}

/** One attendee session per hub session, shared by the waiting room and the room: the switch keeps the socket. */
const attendeeSessions = createSharedClients(
  ({ url, token, appointmentId, contextToken, config }: AttendeeSessionArgs) =>
    new AttendeeSession(new RealtimeClient({ url, token }), presentationApi(config, contextToken), {
      collections: collectionsApi(config, contextToken),
      cart: cartStore,
      takeCartGrant: () => takeCartGrant(appointmentId),
    }),
);

/** The attendee's session of this join, connected while any of its screens is mounted. */
export function useAttendeeSession(appointmentId: string, joined: JoinAppointmentResponse): AttendeeSession {
  const config = useRuntimeConfig();
  const { url, token } = hubSessionOf(joined, config);
  const contextToken = joined.newContextToken;
  const [session] = useState(() => attendeeSessions.client({ url, token, appointmentId, contextToken, config }));
  useEffect(() => attendeeSessions.retain({ url, token, appointmentId, contextToken, config }), [url, token, appointmentId, contextToken, config]);
  return session;
}
