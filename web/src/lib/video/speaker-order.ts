import type { Participant } from 'livekit-client';

/** Whether the hub marked this participant as a guide (the token's metadata, `{"role":"guide"}`). */
export function isGuide(participant: Participant): boolean {
  try {
    const metadata: unknown = JSON.parse(participant.metadata ?? '');
    return typeof metadata === 'object' && metadata !== null && (metadata as { role?: unknown }).role === 'guide';
  } catch {
    return false;
  }
}

/**
 * The speaker layout's order: a guide first (the remote one for an attendee, the guide
 * themself on the guide's own screen), then the others. Without a guide in the room the
 * first remote participant leads.
 */
export function speakerFirst(participants: Participant[]): Participant[] {
  const speaker = participants.find((p) => isGuide(p) && !p.isLocal) ?? participants.find(isGuide) ?? participants.find((p) => !p.isLocal);
  return speaker ? [speaker, ...participants.filter((p) => p !== speaker)] : participants;
}
