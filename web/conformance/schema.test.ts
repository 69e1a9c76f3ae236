/** The validator itself: it must reject what the document forbids, or the suite proves nothing. */
import { describe, expect, test } from 'vitest';
import { violations } from './schema';

describe('schema validation', () => {
  test('a product without its required fields is off the schema', () => {
    const problems = violations('/product', 'post', 200, { elements: [{ name: 'no id' }], total: 1 });
    expect(problems.join('\n')).toMatch(/required property 'id'/);
  });

  test('a wrong type is off the schema, null is accepted (known quirk)', () => {
    const language = { id: 'a'.repeat(32), name: 'English', localeId: 'b'.repeat(32), apiAlias: 'language' };
    expect(violations('/language', 'post', 200, { elements: [{ ...language, parentId: null }], total: 1 })).toEqual([]);
    expect(violations('/language', 'post', 200, { elements: [{ ...language, parentId: 42 }], total: 1 }).join('\n')).toMatch(/parentId/);
  });

  test('error bodies are validated too', () => {
    expect(violations('/account/login', 'post', 401, { errors: 'nope' })).not.toEqual([]);
  });

  test('an operation the document does not have is an error, not a pass', () => {
    expect(() => violations('/no-such-route', 'post', 200, {})).toThrow(/no operation/);
  });
});
