/** Where and with which token a participant connects to the hub (minted by the shop at join). */
export interface HubSession {
  url: string;
  token: string;
}

/** Where and how this participant may join the video room (the hub's `videoToken` frame). */
export interface VideoGrant {
  url: string;
  token: string;
  canPublish: boolean;
}
