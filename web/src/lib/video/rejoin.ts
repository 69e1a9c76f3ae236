/**
 * When the app joins the video room anew. livekit-client resumes or rejoins a dropped media
 * session on its own, but it can give up (`Disconnected`) or hang in `reconnecting` (seen
 * after a network drop: a reconnect attempt that never reaches the server). The app then
 * leaves that room and joins again with the hub's latest token, backing off between tries.
 */

/** livekit-client's own reconnect gets this long before the app starts over. */
export const STUCK_RECONNECT_MS = 20_000;

const DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 20_000];

/** The pause before the app's `attempt`-th join anew (0 = the first after a failure): 1 s … 30 s at most. */
export function rejoinDelay(attempt: number): number {
  return DELAYS_MS[attempt] ?? 30_000;
}
