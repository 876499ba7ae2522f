import { useDeleteRow, useSetRowStatus } from '../../../lib/row-mutations';

/** PUT /api/redemption/?status_only=true: 1 (unused) ↔ 2 (disabled); the answer updates the row. */
export const useSetRedemptionStatus = () => useSetRowStatus('redemptions', '/api/redemption/');

/** DELETE /api/redemption/{id}/: the row is hidden at once. */
export const useDeleteRedemption = () => useDeleteRow('redemptions', '/api/redemption/');
