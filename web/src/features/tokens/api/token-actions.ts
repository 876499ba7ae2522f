import { useDeleteRow, useSetRowStatus } from '../../../lib/row-mutations';

/** PUT /api/token/?status_only=true: enable (1) or disable (2); the answer's status updates the row. */
export const useSetTokenStatus = () => useSetRowStatus('tokens', '/api/token/');

/** DELETE /api/token/{id}/: the row is hidden at once. */
export const useDeleteToken = () => useDeleteRow('tokens', '/api/token/');
