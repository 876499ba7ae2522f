/**
 * The header the console sends on every API call. A page of another site cannot send a custom
 * header without a CORS preflight, which /api does not grant: its presence proves a same-origin call.
 */
export const CONSOLE_CALL_HEADER = 'X-Requested-With';
export const CONSOLE_CALL_VALUE = 'switchyard-console';
