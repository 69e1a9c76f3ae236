import { describe, expect, it } from 'vitest';
import { findVariant, isCombinable, selectedOptions } from './variants';

const groups = [
  { id: 'colour', options: [{ id: 'red' }, { id: 'blue' }] },
  { id: 'size', options: [{ id: 's' }, { id: 'm' }, { id: 'l' }] },
];
const variants = [
  { id: 'red-s', optionIds: ['red', 's'] },
  { id: 'red-m', optionIds: ['red', 'm'] },
  { id: 'blue-s', optionIds: ['blue', 's'] },
  { id: 'blue-l', optionIds: ['blue', 'l'], available: false },
  { id: 'blue-m', optionIds: ['blue', 'm'] },
];

describe('variants', () => {
  it('reads the selected option of each group', () => {
    expect(selectedOptions(groups, ['m', 'red'])).toEqual({ colour: 'red', size: 'm' });
  });

  it('finds the exact combination', () => {
    expect(findVariant(variants, groups, { colour: 'red', size: 'm' }, 'colour', 'blue')).toBe('blue-m');
    expect(findVariant(variants, groups, { colour: 'red', size: 's' }, 'size', 'm')).toBe('red-m');
  });

  it('falls back to the closest variant with the new option', () => {
    // red-l does not exist: switching size to l keeps it and picks blue-l.
    expect(findVariant(variants, groups, { colour: 'red', size: 's' }, 'size', 'l')).toBe('blue-l');
    expect(findVariant(variants, groups, { colour: 'red', size: 's' }, 'size', 'xl')).toBeNull();
  });

  it('tells which options combine with the current choice', () => {
    expect(isCombinable(variants, groups, { colour: 'red', size: 's' }, 'size', 'l')).toBe(false);
    expect(isCombinable(variants, groups, { colour: 'red', size: 's' }, 'size', 'm')).toBe(true);
    expect(isCombinable([], groups, {}, 'size', 'l')).toBe(true);
  });
});
