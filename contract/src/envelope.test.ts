import { describe, expect, it } from 'vitest';
import { listOrder } from './envelope';
import { tokenListOrders } from './tokens';
import { userListOrders } from './users';

describe('list orders', () => {
  it('are one of the columns a list allows, else the default order', () => {
    expect(listOrder(tokenListOrders, 'used_quota')).toBe('used_quota');
    expect(listOrder(userListOrders, 'request_count')).toBe('request_count');
    expect(listOrder(tokenListOrders, 'request_count')).toBe('id');
    expect(listOrder(userListOrders, 'id; drop table users')).toBe('id');
    expect(listOrder(userListOrders, undefined)).toBe('id');
  });
});
