import { notifications, notificationsStore } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n';
import { ApiError, api, configureApiClient, leavingFailed } from './api-client';
import { beginLeaving, clearSession, saveSession } from './session';
import { StorageKey } from './storage';

function answer(status: number, body: unknown) {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function mockFetch(response: Response | Error) {
  const fetchMock = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const toasts = () =>
  notificationsStore.getState().notifications.map((n) => ({
    message: String(n.message),
    color: n.color,
    autoClose: n.autoClose,
  }));

let unauthorized: ReturnType<typeof vi.fn<() => void>>;

const ROOT = { id: 1, username: 'root', display_name: '', role: 100, status: 1 };

/** The client's own 401 handling, root signed in, and a spy where it would leave the page. */
function signedInWithDefaultHandler() {
  configureApiClient({});
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  saveSession(ROOT);
  return assign;
}

/** A GET the server refuses with 401. */
function refused401(path: string) {
  mockFetch(answer(401, { success: false, message: 'not logged in' }));
  return api.get(path);
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
  unauthorized = vi.fn<() => void>();
  configureApiClient({ onUnauthorized: unauthorized });
});

afterEach(() => {
  vi.unstubAllGlobals();
  configureApiClient({});
});

describe('API client', () => {
  it('returns the envelope of a successful call and sends JSON', async () => {
    const fetchMock = mockFetch(answer(200, { success: true, message: '', data: { id: 1 } }));
    const result = await api.post<{ id: number }>(
      '/api/user/',
      { username: 'a' },
      { query: { p: 0, x: undefined } },
    );
    expect(result.data).toEqual({ id: 1 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/user/?p=0');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"username":"a"}');
    expect(toasts()).toEqual([]);
  });

  it('shows the server message when success is false, as an error toast of 5 s', async () => {
    mockFetch(answer(200, { success: false, message: 'user does not exist' }));
    await expect(api.get('/api/user/9')).rejects.toMatchObject({
      kind: 'refused',
      message: 'user does not exist',
    });
    expect(toasts()).toEqual([{ message: 'user does not exist', color: 'red', autoClose: 5000 }]);
  });

  it('hands 401 to the unauthorised handler instead of a toast', async () => {
    mockFetch(answer(401, { success: false, message: 'not logged in' }));
    await expect(api.get('/api/user/self')).rejects.toBeInstanceOf(ApiError);
    expect(unauthorized).toHaveBeenCalledOnce();
    expect(toasts()).toEqual([]);
  });

  it('sends an administrator whom root requires to enrol to the personal settings, without a toast', async () => {
    const assign = signedInWithDefaultHandler();
    vi.stubGlobal('location', { ...window.location, pathname: '/channel', assign });
    const refusal = { success: false, message: 'turn it on first', code: 'two_factor_enrolment_required' };
    mockFetch(answer(403, refusal));
    await expect(api.get('/api/channel/')).rejects.toMatchObject({ kind: 'refused', status: 403 });
    expect(assign).toHaveBeenCalledWith('/setting');
    expect(toasts()).toEqual([]);
    // Already there: no reload loop.
    vi.stubGlobal('location', { ...window.location, pathname: '/setting', assign });
    mockFetch(answer(403, refusal));
    await expect(api.get('/api/option/')).rejects.toBeInstanceOf(ApiError);
    expect(assign).toHaveBeenCalledOnce();
  });

  it('by default a 401 forgets the user and goes to /login?expired=true', async () => {
    const assign = signedInWithDefaultHandler();
    mockFetch(answer(401, { success: false, message: 'not logged in' }));
    await expect(api.get('/api/user/self')).rejects.toBeInstanceOf(ApiError);
    expect(assign).toHaveBeenCalledWith('/login?expired=true');
    expect(window.localStorage.getItem(StorageKey.user)).toBeNull();
  });

  it('leaves the page alone on a 401 while this console ends its own session, or when no one is signed in', async () => {
    const assign = signedInWithDefaultHandler();
    beginLeaving();
    await expect(refused401('/api/token/')).rejects.toBeInstanceOf(ApiError);
    expect(window.localStorage.getItem(StorageKey.user)).not.toBeNull();
    clearSession();
    await expect(refused401('/api/token/')).rejects.toBeInstanceOf(ApiError);
    expect(assign).not.toHaveBeenCalled();
    // A new login is a session that can expire again.
    saveSession(ROOT);
    await expect(refused401('/api/token/')).rejects.toBeInstanceOf(ApiError);
    expect(assign).toHaveBeenCalledWith('/login?expired=true');
  });

  it('treats a 401 to the very call that was to end the session as the session having expired', async () => {
    const assign = signedInWithDefaultHandler();
    beginLeaving();
    mockFetch(answer(401, { success: false, message: 'not logged in' }));
    const refused = await api.post('/api/user/self/sessions/revoke').catch((error: unknown) => error);
    expect(assign).not.toHaveBeenCalled();
    leavingFailed(refused);
    expect(assign).toHaveBeenCalledWith('/login?expired=true');
    expect(window.localStorage.getItem(StorageKey.user)).toBeNull();
  });

  it('keeps the session when the call that was to end it failed otherwise', async () => {
    const assign = signedInWithDefaultHandler();
    beginLeaving();
    mockFetch(answer(500, ''));
    leavingFailed(await api.post('/api/user/self/sessions/revoke').catch((error: unknown) => error));
    await expect(refused401('/api/token/')).rejects.toBeInstanceOf(ApiError);
    expect(assign).toHaveBeenCalledWith('/login?expired=true');
  });

  it.each([
    [429, 'Error: too many requests, please try again later!', 'red'],
    [500, 'Error: internal server error, please contact the administrator!', 'red'],
    [405, 'This site is for demonstration only and has no server!', 'blue'],
  ])('answers HTTP %i with its own text', async (status, text, color) => {
    mockFetch(answer(status, ''));
    await expect(api.get('/api/status')).rejects.toMatchObject({ kind: 'http', status });
    expect(toasts()).toEqual([{ message: text, color, autoClose: color === 'red' ? 5000 : 3000 }]);
  });

  it('prefixes other HTTP failures with "Error: " and the message', async () => {
    mockFetch(answer(403, 'Forbidden'));
    await expect(api.get('/api/oauth/github')).rejects.toMatchObject({ kind: 'http', status: 403 });
    expect(toasts()[0]?.message).toBe('Error: 403');
  });

  it.each([200, 400, 403, 413])('reads a refusal envelope on HTTP %i the same way', async (status) => {
    mockFetch(answer(status, { success: false, message: 'state is empty or not same' }));
    await expect(api.get('/api/oauth/github')).rejects.toMatchObject({
      kind: 'refused',
      status,
      message: 'state is empty or not same',
    });
    expect(toasts()).toEqual([{ message: 'state is empty or not same', color: 'red', autoClose: 5000 }]);
  });

  it('reports a network failure with its message', async () => {
    mockFetch(new TypeError('Failed to fetch'));
    await expect(api.get('/api/status')).rejects.toMatchObject({ kind: 'network' });
    expect(toasts()[0]?.message).toBe('Error: Failed to fetch');
  });

  it('stays quiet when asked, so the caller can say something specific', async () => {
    mockFetch(answer(500, ''));
    await expect(api.get('/api/status', { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(toasts()).toEqual([]);
  });

  it('speaks the console language', async () => {
    await i18n.changeLanguage('zh');
    mockFetch(answer(429, ''));
    await expect(api.get('/api/status')).rejects.toBeInstanceOf(ApiError);
    expect(toasts()[0]?.message).toBe('错误：请求次数过多，请稍后再试！');
  });

  it('words a coded refusal in the console language, from its code and params', async () => {
    await i18n.changeLanguage('zh');
    mockFetch(
      answer(200, {
        success: false,
        message: 'Group "vip" does not exist; add it to the group ratios first',
        code: 'user_group_unknown',
        params: { group: 'vip' },
      }),
    );
    await expect(api.put('/api/user/', {})).rejects.toMatchObject({
      kind: 'refused',
      message: '分组“vip”不存在，请先在分组倍率中添加',
    });
    expect(toasts()[0]?.message).toBe('分组“vip”不存在，请先在分组倍率中添加');
  });

  it('words a coded refusal on a 400 (an older server) in the console language too', async () => {
    await i18n.changeLanguage('zh');
    mockFetch(
      answer(400, { success: false, message: 'The request body is not valid JSON', code: 'body_not_json' }),
    );
    await expect(api.post('/api/user/', {})).rejects.toMatchObject({ kind: 'refused', status: 400 });
    expect(toasts()[0]?.message).toBe('请求体不是合法的 JSON');
  });

  it("falls back to the server's message for a code it does not know", async () => {
    await i18n.changeLanguage('zh');
    mockFetch(answer(200, { success: false, message: '来自新版服务器的说明', code: 'some_future_code' }));
    await expect(api.get('/api/status')).rejects.toMatchObject({ message: '来自新版服务器的说明' });
    expect(toasts()[0]?.message).toBe('来自新版服务器的说明');
  });
});
