import type { ErrorCode } from '@/protocol/generated';

/** Longest message (`MAX_CHAT_MESSAGE_CHARS` in `protocol/src/engagement.rs`). */
export const MAX_CHAT_CHARS = 500;

export type ChatPart = { text: string; href?: undefined } | { text: string; href: string };

const URL = /\bhttps?:\/\/[^\s<>"']+/gi;

/**
 * A message's text in parts: plain text, and http(s) links (with `href` only when links
 * may be clickable). Rendered as React text nodes: nothing in a message is ever HTML.
 */
export function chatParts(text: string, clickable: boolean): ChatPart[] {
  const parts: ChatPart[] = [];
  let at = 0;
  for (const match of text.matchAll(URL)) {
    const start = match.index;
    if (start > at) parts.push({ text: text.slice(at, start) });
    parts.push(clickable ? { text: match[0], href: match[0] } : { text: match[0] });
    at = start + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The refusals the chat explains (each has a text in `engagement.errors`). */
export const CHAT_ERRORS = [
  'CHAT_EMPTY',
  'CHAT_TOO_LONG',
  'CHAT_MUTED',
  'CHAT_BANNED',
  'CHAT_CLOSED',
  'CHAT_BLOCKED_WORD',
  'CHAT_SLOW_MODE',
  'CHAT_RATE_LIMITED',
  'RATE_LIMITED',
  'FORBIDDEN',
] as const satisfies readonly ErrorCode[];

export type ChatError = (typeof CHAT_ERRORS)[number] | 'OTHER';

/** The error key for a refusal's code. */
export function chatErrorOf(code: string): ChatError {
  return (CHAT_ERRORS as readonly string[]).includes(code) ? (code as ChatError) : 'OTHER';
}
