import type { TableDefinition } from './table-definitions';

/**
 * The tables of LOG_SQL_DSN's split (not part of one-api's schema): the main database's outbox of
 * logs written with the money, and the log database's receipts of the outbox rows it has taken in.
 */
export const LOG_OUTBOX_TABLES: TableDefinition[] = [
  {
    name: 'log_outbox',
    columns: [
      { name: 'id', type: { kind: 'id' } },
      { name: 'payload', type: { kind: 'text' } },
    ],
    indexes: [],
  },
];

export const LOG_RECEIPT_TABLES: TableDefinition[] = [
  {
    name: 'log_receipts',
    columns: [
      { name: 'outbox_id', type: { kind: 'bigint' }, notNull: true },
      { name: 'shipment', type: { kind: 'varchar', length: 36 }, notNull: true, default: '' },
      { name: 'created_at', type: { kind: 'bigint' }, default: 0 },
    ],
    primaryKey: ['outbox_id'],
    indexes: [{ name: 'idx_log_receipts_shipment', columns: ['shipment'] }],
  },
];
