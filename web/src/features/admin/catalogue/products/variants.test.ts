import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../../api/client';
import { uploadProblem } from './product-images';
import { combinations, variantPayloads } from './variants';

describe('variants', () => {
  it('are every combination of one picked option per group', () => {
    expect(combinations([['s', 'l'], [], ['red', 'blue']])).toEqual([
      ['s', 'red'],
      ['s', 'blue'],
      ['l', 'red'],
      ['l', 'blue'],
    ]);
    expect(combinations([[], []])).toEqual([]);
  });

  it('are children numbered after the ones there are', () => {
    const payloads = variantPayloads({ id: 'p', productNumber: 'K-1', stock: 7, childCount: 2 }, [['s'], ['l']]);
    expect(payloads).toEqual([
      { parentId: 'p', productNumber: 'K-1.3', stock: 7, options: [{ id: 's' }] },
      { parentId: 'p', productNumber: 'K-1.4', stock: 7, options: [{ id: 'l' }] },
    ]);
  });
});

describe('image uploads', () => {
  it('take JPEG, PNG and WebP up to 5 MB', () => {
    expect(uploadProblem({ type: 'image/png', size: UPLOAD_MAX_BYTES })).toBeNull();
    expect(uploadProblem({ type: 'image/webp', size: 10 })).toBeNull();
    expect(uploadProblem({ type: 'image/jpeg', size: UPLOAD_MAX_BYTES + 1 })).toBe('tooLarge');
    expect(uploadProblem({ type: 'image/gif', size: 10 })).toBe('wrongType');
  });
});
