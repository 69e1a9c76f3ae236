import { describe, expect, it } from 'vitest';
import { productTrail } from './content-page';

const tree = [
  { id: 'clothing', name: 'Clothing', translated: { name: 'Kleidung' }, children: [{ id: 'shirts', name: 'Shirts', children: [] }] },
  { id: 'shoes', name: 'Shoes', children: [] },
] as never[];

describe('productTrail', () => {
  it('is the path to the deepest category of the product, whatever the order of the ids', () => {
    const trail = [
      { id: 'clothing', name: 'Kleidung', to: '/navigation/clothing' },
      { id: 'shirts', name: 'Shirts', to: '/navigation/shirts' },
    ];
    expect(productTrail(tree, [['shirts', 'root', 'clothing'], undefined])).toEqual(trail);
    // A variant without a category tree still has its category ids.
    expect(productTrail(tree, [[], ['shirts']])).toEqual(trail);
    expect(productTrail(tree, [undefined, undefined])).toEqual([]);
  });
});
