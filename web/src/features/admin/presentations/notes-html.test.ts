// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { linkAddress, noteHtmlToStore } from './notes-html';

describe('noteHtmlToStore', () => {
  it('keeps what the editor makes: paragraphs, bold, italic, lists and links', () => {
    const html = '<p>Hello <strong>all</strong> and <em>welcome</em></p><ul><li>one</li></ul><ol><li>two</li></ol><p><a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">site</a></p>';
    expect(noteHtmlToStore(html)).toBe(html);
  });

  it('removes scripts, styles, event handlers and javascript: links', () => {
    const stored = noteHtmlToStore('<p style="color:red" onclick="x()">Hi<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>');
    expect(stored).toBe('<p>Hi<a>x</a></p>');
  });

  it('makes an empty editor an empty note', () => {
    expect(noteHtmlToStore('<p></p>')).toBe('');
    expect(noteHtmlToStore('<p> </p><p><br></p>')).toBe('');
    expect(noteHtmlToStore('')).toBe('');
  });
});

describe('linkAddress', () => {
  it('adds https:// to a bare host and keeps http(s) and mailto', () => {
    expect(linkAddress('example.com/kites')).toBe('https://example.com/kites');
    expect(linkAddress(' https://example.com ')).toBe('https://example.com/');
    expect(linkAddress('mailto:ada@example.com')).toBe('mailto:ada@example.com');
  });

  it('refuses other schemes and nothing', () => {
    expect(linkAddress('javascript:alert(1)')).toBe('');
    expect(linkAddress('   ')).toBe('');
  });
});
