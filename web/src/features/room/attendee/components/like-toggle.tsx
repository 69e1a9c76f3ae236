import { useStore } from 'zustand';
import { LikeButton } from '../../components/like-button';
import type { RoomTools } from './room-tools';

/** The like button of one product, following the attendee's like list. */
export function LikeToggle({ tools, productId, name, large }: { tools: RoomTools; productId: string; name: string; large?: boolean }) {
  const liked = useStore(tools.collections, (state) => state.liked.includes(productId));
  const busy = useStore(tools.collections, (state) => state.busy.includes(productId));
  return <LikeButton name={name} liked={liked} busy={busy} large={large} onToggle={() => void tools.collections.getState().toggleLike(productId)} />;
}
