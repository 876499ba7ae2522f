// Through the gateway's own API: a channel to the fake upstream, a user with quota, a limited key.

async function api(base: string, cookie: string, method: string, url: string, body?: unknown) {
  const response = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { success: boolean; message: string; data?: unknown };
  if (!json.success) throw new Error(`${method} ${url}: ${json.message}`);
  return { json, cookie: response.headers.getSetCookie()[0]?.split(';')[0] ?? cookie };
}

/** The bench's user and the key its load sends (`sk-<key>`). */
export interface BenchAccount {
  userId: number;
  key: string;
}

export async function setUpAccount(gatewayUrl: string, upstreamUrl: string): Promise<BenchAccount> {
  const login = await api(gatewayUrl, '', 'POST', '/api/user/login', {
    username: 'root',
    password: '123456',
  });
  const rootCookie = login.cookie;
  await api(gatewayUrl, rootCookie, 'POST', '/api/channel/', {
    type: 1,
    name: 'bench',
    key: 'sk-bench',
    base_url: upstreamUrl,
    models: 'gpt-3.5-turbo',
    group: 'default',
  });
  await api(gatewayUrl, rootCookie, 'POST', '/api/user/', { username: 'bench', password: 'benchmark1' });
  const users = await api(gatewayUrl, rootCookie, 'GET', '/api/user/search?keyword=bench');
  const benchUser = (users.json.data as Array<{ id: number; username: string }>).find(
    (user) => user.username === 'bench',
  )!;
  await api(gatewayUrl, rootCookie, 'POST', '/api/topup', {
    user_id: benchUser.id,
    quota: 1_000_000_000_000,
  });
  const userLogin = await api(gatewayUrl, '', 'POST', '/api/user/login', {
    username: 'bench',
    password: 'benchmark1',
  });
  const token = await api(gatewayUrl, userLogin.cookie, 'POST', '/api/token/', {
    name: 'bench',
    remain_quota: 900_000_000_000,
    expired_time: -1,
  });
  return { userId: benchUser.id, key: (token.json.data as { key: string }).key };
}
