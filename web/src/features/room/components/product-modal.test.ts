import { describe, expect, it } from 'vitest';
import { variantLabel } from './product-modal';

describe('variantLabel', () => {
  it('names a variant by its options, with their groups', () => {
    expect(
      variantLabel({
        productNumber: 'SR10003.1',
        options: [
          { name: 'Green', translated: { name: 'Grün' }, group: { name: 'Colour', translated: { name: 'Farbe' } } },
          { name: 'S', group: { name: 'Size' } },
        ] as never,
      }),
    ).toBe('Farbe: Grün · Size: S');
  });

  it('falls back to the product number without options', () => {
    expect(variantLabel({ productNumber: 'SR10003.2', options: [] })).toBe('SR10003.2');
    expect(variantLabel({ productNumber: 'SR10003.3' })).toBe('SR10003.3');
  });
});
