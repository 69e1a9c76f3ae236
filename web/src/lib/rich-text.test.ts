// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from './rich-text';

describe('sanitizeRichText', () => {
  it('keeps formatting, lists, tables and safe links', () => {
    const html = '<p>Hi <strong>b</strong> <em>i</em></p><ul><li>x</li></ul><table><tbody><tr><td colspan="2">c</td></tr></tbody></table><a href="https://shop.test/x" target="_blank">l</a>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('drops styles, forms, svg, frames, style and class attributes, handlers and script links', () => {
    const hostile =
      '<style>body{display:none}</style><form action="https://evil.test"><input name="password"><button>Log in</button></form>' +
      '<svg onload="alert(1)"><circle r="9"></circle></svg><iframe src="https://evil.test"></iframe>' +
      '<p style="position:fixed" class="x" onclick="alert(2)">text</p><a href="javascript:alert(3)">a</a><img src="x" onerror="alert(4)">';
    const clean = sanitizeRichText(hostile);
    for (const gone of ['<style', 'display:none', '<form', '<input', '<button', '<svg', '<circle', '<iframe', 'style=', 'class=', 'onclick', 'javascript:', 'onerror', 'alert']) {
      expect(clean, gone).not.toContain(gone);
    }
    expect(clean).toContain('<p>text</p>');
  });
});
