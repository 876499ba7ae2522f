import type { User } from '@switchyard/contract/users';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { UserEditForm } from './UserEditForm';

const user: User = {
  id: 7,
  username: 'alice',
  password: '',
  display_name: 'Alice',
  role: 1,
  status: 1,
  email: '',
  github_id: '',
  wechat_id: '',
  lark_id: '',
  oidc_id: '',
  oidc_subject: '',
  verification_code: '',
  access_token: '',
  quota: 1000,
  used_quota: 0,
  request_count: 0,
  group: 'default',
  aff_code: '',
  inviter_id: 0,
  rpm_limit: 30,
  tpm_limit: 0,
  concurrency_limit: 4,
};

function server() {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
    jsonResponse({ success: true, message: '', data: ['default'] }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

beforeEach(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('user form: limits', { timeout: 15_000 }, () => {
  it('lets an administrator set the limits of every key of the user; empty sends 0 (none)', async () => {
    const fetchMock = server();
    renderAt('/user/edit/7', '/user/edit/:id', <UserEditForm user={user} self={false} />);
    expect(input('Requests per minute').value).toBe('30');
    expect(input('Tokens per minute').value).toBe('');
    fireEvent.change(input('Requests per minute'), { target: { value: '' } });
    fireEvent.change(input('Tokens per minute'), { target: { value: '90000' } });
    fireEvent.click(screen.getByText('Submit'));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const [url, init] = fetchMock.mock.calls.find(([, call]) => call?.method === 'PUT')!;
    expect(url).toBe('/api/user/');
    expect(JSON.parse(String(init?.body))).toMatchObject({
      id: 7,
      rpm_limit: 0,
      tpm_limit: 90000,
      concurrency_limit: 4,
    });
  });

  it('shows users their own limits read-only, in Chinese too', async () => {
    server();
    await i18n.changeLanguage('zh');
    renderAt('/user/edit', '/user/edit', <UserEditForm user={user} self />);
    expect(input('每分钟请求数').value).toBe('30');
    expect(input('每分钟请求数').readOnly).toBe(true);
    expect(input('每分钟 Token 数').value).toBe('不限制');
    expect(screen.getByText('由管理员为您的所有令牌设置。')).toBeTruthy();
  });
});
