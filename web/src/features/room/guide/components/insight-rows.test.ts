import { describe, expect, it } from 'vitest';
import type { AttendeeInsights } from '../api/room-admin';
import { insightRows } from './insight-rows';

const insights = {
  attendees: {
    ada: { id: 'ada', cartSum: 84.03, productCount: 2, lineItemCount: 1 },
    bob: { id: 'bob', cartSum: 0, productCount: 0, lineItemCount: 0 },
    cy: { id: 'cy', cartSum: 16.8, productCount: 1, lineItemCount: 1 },
  },
} as unknown as AttendeeInsights;

describe('insightRows', () => {
  it('shows the gross cart total the guide knows, never the net cartSum', () => {
    const rows = insightRows(insights, {
      ada: { status: 'ready', lineItemCount: 1, totalPrice: 100, lineItems: null },
    });
    expect(rows).toEqual([
      { id: 'ada', productCount: 2, total: 100 },
      { id: 'cy', productCount: 1, total: null },
    ]);
  });

  it('shows no total for a cart that could not be read', () => {
    const rows = insightRows(insights, { cy: { status: 'failed', lineItemCount: 1, totalPrice: 0, lineItems: null } });
    expect(rows.find((row) => row.id === 'cy')?.total).toBeNull();
  });
});
