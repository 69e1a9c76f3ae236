import { describe, expect, it } from 'vitest';
import { chatErrorOf, chatParts } from './chat-text';

describe('chat text', () => {
  it('keeps links as text for guests unless allowed', () => {
    const text = 'see https://example.com/a?b=1 and <b>this</b>';
    expect(chatParts(text, false)).toEqual([
      { text: 'see ' },
      { text: 'https://example.com/a?b=1' },
      { text: ' and <b>this</b>' },
    ]);
    expect(chatParts(text, true)[1]).toEqual({ text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' });
  });

  it('never makes a link of javascript: or other schemes', () => {
    expect(chatParts('javascript:alert(1)', true)).toEqual([{ text: 'javascript:alert(1)' }]);
  });

  it('maps refusal codes to texts, unknown ones to a general one', () => {
    expect(chatErrorOf('CHAT_MUTED')).toBe('CHAT_MUTED');
    expect(chatErrorOf('INTERNAL')).toBe('OTHER');
  });
});
