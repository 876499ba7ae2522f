import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailCatcher } from './fakes/smtp';
import { Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

/**
 * A session cookie copied before logout, a password change, a ban, a demotion or "sign out
 * everywhere" is refused afterwards, by this process and by another one sharing the database.
 */
describe('ending sessions', () => {
  const smtp = new MailCatcher();
  let a: TestApp;
  let b: TestApp;
  let root: Client;

  /** The browser's cookie as copied now, replayed later against both processes. */
  const copiesOf = (browser: Client): Client[] =>
    [a, b].map((app) => {
      const copy = new Client(app.baseUrl);
      copy.cookie = browser.cookie;
      return copy;
    });

  const expectSignedIn = async (clients: Client[], username: string) => {
    for (const client of clients) {
      const self = await client.get<EnvelopeBody<User>>('/api/user/self');
      expect(self.body).toMatchObject({ success: true, data: { username } });
    }
  };

  /** Refused as not signed in, and told to drop the cookie. */
  const expectRefused = async (clients: Client[]) => {
    for (const client of clients) {
      expect(client.cookie).not.toBe('');
      const self = await client.get('/api/user/self');
      expect(self.status).toBe(401);
      expect(self.body.message).toMatch(/not logged in/i);
      expect(client.cookie).toBe('');
    }
  };

  const userId = async (username: string): Promise<number> => {
    const found = await root.get<EnvelopeBody<User[]>>(`/api/user/search?keyword=${username}`);
    return found.body.data?.find((user) => user.username === username)?.id ?? 0;
  };

  const freshLogin = async (username: string, password = 'password123'): Promise<void> => {
    const browser = a.client();
    await browser.login(username, password);
    await expectSignedIn(copiesOf(browser), username);
  };

  beforeAll(async () => {
    await smtp.start();
    a = await startTestApp();
    root = await a.root();
    for (const [key, value] of Object.entries({
      ServerAddress: 'https://gateway.example.com',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'noreply@gateway.example.com',
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
    b = await startTestApp({ database: a.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await smtp.close();
  });

  it('logout ends the session everywhere it was copied; the access token goes on working', async () => {
    const browser = await a.user('leaver');
    const token = (await browser.get<EnvelopeBody<string>>('/api/user/token')).body.data ?? '';
    const copies = copiesOf(browser);
    await expectSignedIn(copies, 'leaver');

    expect((await browser.get('/api/user/logout')).body).toMatchObject({ success: true });
    expect(browser.cookie).toBe('');
    await expectRefused(copies);

    for (const app of [a, b]) {
      const scripted = app.client();
      scripted.authorization = token;
      expect((await scripted.get('/api/user/self')).body).toMatchObject({
        success: true,
        data: { username: 'leaver' },
      });
    }
    await freshLogin('leaver');
  });

  it('a stale cookie cannot log the user out of their newer sessions', async () => {
    const first = await a.user('twice');
    const stale = copiesOf(first);
    await first.get('/api/user/logout');
    const second = b.client();
    await second.login('twice', 'password123');

    await stale[1]?.get('/api/user/logout');
    await expectSignedIn([second], 'twice');
  });

  it('a password change by the user ends the other sessions and keeps this browser signed in', async () => {
    const browser = await a.user('changer');
    const elsewhere = a.client();
    await elsewhere.login('changer', 'password123');
    const copies = [...copiesOf(browser), ...copiesOf(elsewhere)];

    const changed = await browser.put('/api/user/self', { password: 'new-password-1' });
    expect(changed.body).toMatchObject({ success: true });
    await expectRefused(copies);
    await expectSignedIn([browser, ...copiesOf(browser)], 'changer');
    await freshLogin('changer', 'new-password-1');
  });

  it('other profile edits leave the sessions alone', async () => {
    const browser = await a.user('renamer');
    const copies = copiesOf(browser);
    expect((await browser.put('/api/user/self', { display_name: 'Renamed' })).body.success).toBe(true);
    await expectSignedIn(copies, 'renamer');
  });

  it('a password reset by the mailed link ends the sessions', async () => {
    const email = 'forgetful@example.com';
    const browser = await a.user('forgetful');
    expect((await root.put('/api/user/', { id: await userId('forgetful'), email })).body.success).toBe(true);
    const copies = copiesOf(browser);
    await expectSignedIn(copies, 'forgetful');

    const seen = smtp.to(email).length;
    await a.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
    const href = /href="([^"]+)"/.exec((await smtp.next(email, seen)).body)?.[1]?.replace(/&amp;/g, '&');
    const token = new URL(href ?? '').searchParams.get('token') ?? '';
    const reset = await a.client().post<EnvelopeBody<string>>('/api/user/reset', { email, token });
    expect(reset.body.success).toBe(true);

    await expectRefused(copies);
    await freshLogin('forgetful', reset.body.data ?? '');
  });

  it('a password set by an administrator ends the sessions; other admin edits do not', async () => {
    const browser = await a.user('managed');
    const id = await userId('managed');
    const copies = copiesOf(browser);
    expect((await root.put('/api/user/', { id, display_name: 'Managed' })).body.success).toBe(true);
    await expectSignedIn(copies, 'managed');

    expect((await root.put('/api/user/', { id, password: 'set-by-admin-1' })).body.success).toBe(true);
    await expectRefused(copies);
    await freshLogin('managed', 'set-by-admin-1');
  });

  it('a ban ends the sessions for good: enabling the user again does not bring them back', async () => {
    const browser = await a.user('banned');
    const copies = copiesOf(browser);
    await root.post('/api/user/manage', { username: 'banned', action: 'disable' });
    await root.post('/api/user/manage', { username: 'banned', action: 'enable' });
    await expectRefused(copies);
    await freshLogin('banned');
  });

  it('a demotion ends the sessions; a promotion does not', async () => {
    const browser = await a.user('demoted', { role: 'admin' });
    const copies = copiesOf(browser);
    await expectSignedIn(copies, 'demoted');
    await root.post('/api/user/manage', { username: 'demoted', action: 'demote' });
    await expectRefused(copies);

    const again = a.client();
    await again.login('demoted', 'password123');
    const after = copiesOf(again);
    expect(
      (await root.post('/api/user/manage', { username: 'demoted', action: 'promote' })).body.success,
    ).toBe(true);
    await expectSignedIn(after, 'demoted');
  });

  it('deleting the user ends the sessions', async () => {
    const browser = await a.user('removed');
    const copies = copiesOf(browser);
    expect((await root.delete(`/api/user/${await userId('removed')}`)).body.success).toBe(true);
    await expectRefused(copies);
  });

  it('"sign out everywhere" ends every session of the user, not the access token nor others\' sessions', async () => {
    const browser = await a.user('everywhere');
    const token = (await browser.get<EnvelopeBody<string>>('/api/user/token')).body.data ?? '';
    const elsewhere = b.client();
    await elsewhere.login('everywhere', 'password123');
    const copies = [...copiesOf(browser), ...copiesOf(elsewhere)];
    const bystander = copiesOf(await a.user('bystander'));

    const revoked = await browser.post('/api/user/self/sessions/revoke');
    expect(revoked.body).toMatchObject({ success: true });
    expect(browser.cookie).toBe('');
    await expectRefused(copies);
    await expectSignedIn(bystander, 'bystander');

    const scripted = b.client();
    scripted.authorization = token;
    expect((await scripted.get('/api/user/self')).body).toMatchObject({ success: true });
    await freshLogin('everywhere');
  });

  it('"sign out everywhere" needs a signed-in caller', async () => {
    const anonymous = await a.client().post('/api/user/self/sessions/revoke');
    expect(anonymous.status).toBe(401);
  });
});
