import { describe, expect, it } from 'vitest';
import { listOrder, wholeNumberText } from './envelope';
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

describe('whole numbers typed as text', () => {
  it('are digits that stay exact', () => {
    expect(wholeNumberText('42')).toBe(42);
    expect(wholeNumberText('0')).toBe(0);
    expect(wholeNumberText('999999999999999')).toBe(999999999999999);
    for (const text of ['', ' 4', '-1', '1.5', '1e3', '0x10', '1234567890123456']) {
      expect(wholeNumberText(text)).toBeUndefined();
    }
  });
});
