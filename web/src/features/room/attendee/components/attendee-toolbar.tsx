import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import { LegalLinks } from '@/components/shop-page/shop-page-modal';
import { openMediaSettings } from '@/components/video/media-settings';
import { useLocalePath } from '@/lib/i18n';
import { modalStore } from '@/lib/ui/modal';
import { cartItemCount, cartStore } from '@/lib/shop/cart';
import { wishlistStore } from '@/lib/shop/wishlist-store';
import { RoomMediaToggles } from '../../components/room-media-toggles';
import { Toolbar, ToolbarGroup } from '../../components/toolbar';
import { ATTENDEE_SIDEBARS, type AttendeeSidebar } from '../stores/sidebars';
import type { RoomTools } from './room-tools';
import './attendee-toolbar.css';

/** The attendee's tools: media, the sidebars with their counts, leave. */
export function AttendeeToolbar({ tools }: { tools: RoomTools }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  return (
    <Toolbar label={t('cockpit.toolbar')}>
      <ToolbarGroup name="media" label={t('cockpit.groups.media')}>
        <RoomMediaToggles client={tools.session.client} guide={false} />
        <button type="button" className="button" onClick={() => openMediaSettings(t('video.mediaSettings'))}>
          {t('video.mediaButton')}
        </button>
      </ToolbarGroup>
      <ToolbarGroup name="client" label={t('cockpit.groups.client')}>
        <SidebarButtons tools={tools} />
      </ToolbarGroup>
      <ToolbarGroup name="leave" label={t('cockpit.groups.leave')}>
        {/* The shop's legal pages, each opening as the shop-page modal. */}
        <button type="button" className="button" onClick={() => modalStore.getState().open(<LegalLinks className="legal-links" />, { title: t('legal.heading'), size: 'small' })}>
          {t('legal.heading')}
        </button>
        <Link className="button button--danger" to={localePath('/') || '/'}>
          {t('room.leave')}
        </Link>
      </ToolbarGroup>
    </Toolbar>
  );
}

/** The toolbar buttons of the sidebars, with their counts. */
function SidebarButtons({ tools }: { tools: RoomTools }) {
  const openSidebar = useStore(tools.sidebars, (state) => state.open);
  const likeCount = useStore(tools.collections, (state) => state.liked.length);
  const lastSeenCount = useStore(tools.collections, (state) => state.lastSeen.length);
  const cartCount = useStore(cartStore, (state) => cartItemCount(state.cart));
  const wishlistCount = useStore(wishlistStore, (state) => state.ids.length);
  const counts: Record<AttendeeSidebar, number> = { likes: likeCount, lastSeen: lastSeenCount, cart: cartCount, wishlist: wishlistCount };
  return ATTENDEE_SIDEBARS.map((name) => (
    <SidebarButton key={name} name={name} count={counts[name]} open={openSidebar === name} onToggle={() => tools.sidebars.getState().toggle(name)} />
  ));
}

/** A toolbar button that opens or closes one sidebar, with its count. */
function SidebarButton({ name, count, open, onToggle }: { name: AttendeeSidebar; count: number; open: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button sidebar-toggle"
      aria-expanded={open}
      aria-label={t(`room.sidebars.${name}Count`, { count })}
      onClick={onToggle}
    >
      {t(`room.sidebars.${name}`)}
      <span className="sidebar-toggle__count" aria-hidden="true" data-testid={`count-${name}`}>
        {count}
      </span>
    </button>
  );
}
