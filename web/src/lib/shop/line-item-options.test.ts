import { describe, expect, it } from 'vitest';
import { lineItemOptions } from './line-item-options';

describe('lineItemOptions', () => {
  it('names each option with its group', () => {
    const payload = { options: [{ group: 'Size', option: 'M' }, { group: 'Colour', option: 'Red' }] };
    expect(lineItemOptions({ payload })).toEqual(['Size: M', 'Colour: Red']);
  });

  it('keeps an option without a group and drops empty ones', () => {
    expect(lineItemOptions({ payload: { options: [{ option: 'XL' }, {}] } })).toEqual(['XL']);
  });

  it('has none for a line without options or payload', () => {
    expect(lineItemOptions({ payload: { productNumber: 'SR1' } })).toEqual([]);
    expect(lineItemOptions({ payload: null })).toEqual([]);
    expect(lineItemOptions({})).toEqual([]);
  });
});
