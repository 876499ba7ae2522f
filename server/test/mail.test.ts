import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_VALID_MS } from '../src/domain/verification-codes';
import { MailCatcher } from './fakes/smtp';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';

async function setOptions(root: Client, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${saved.body.message}`);
  }
}

const codeIn = (body: string): string =>
  /verification code is: <strong>([0-9a-f]{6})<\/strong>/.exec(body)?.[1] ?? '';

describe('mail: verification codes, email binding and password reset', () => {
  let t: TestApp;
  let root: Client;
  const smtp = new MailCatcher();

  /** Creates a user with a mail address (set by root) and answers its id. */
  async function userWithEmail(username: string, email: string): Promise<number> {
    await t.user(username);
    const found = await root.get<EnvelopeBody<User[]>>(`/api/user/search?keyword=${username}`);
    const id = found.body.data?.[0]?.id ?? 0;
    expect((await root.put('/api/user/', { id, email })).body.success).toBe(true);
    return id;
  }

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp();
    root = await t.root();
    await setOptions(root, {
      SystemName: 'Switchyard Test',
      ServerAddress: 'https://gateway.example.com/',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'noreply@gateway.example.com',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('registers with the code read from the mailed verification', async () => {
    await setOptions(root, { EmailVerificationEnabled: 'true' });
    try {
      const email = 'hank@example.com';
      const seen = smtp.to(email).length;
      const sent = await t.client().get(`/api/verification?email=${encodeURIComponent(email)}`);
      expect(sent.body).toEqual({ success: true, message: '' });
      const mail = await smtp.next(email, seen);
      expect(mail.subject).toBe('Switchyard Test email verification');
      expect(mail.from).toBe('noreply@gateway.example.com');
      const code = codeIn(mail.body);
      expect(code).toMatch(/^[0-9a-f]{6}$/);

      const visitor = t.client();
      const without = await visitor.post('/api/user/register', { username: 'hank', password: 'password123' });
      expect(without.body.message).toMatch(/enter your email address and the verification code/);
      const wrong = await visitor.post('/api/user/register', {
        username: 'hank',
        password: 'password123',
        email,
        verification_code: code === '000000' ? '111111' : '000000',
      });
      expect(wrong.body.message).toMatch(/wrong or has expired/);
      const registered = await visitor.post('/api/user/register', {
        username: 'hank',
        password: 'password123',
        email,
        verification_code: code,
      });
      expect(registered.body).toMatchObject({ success: true });
      const hank = t.client();
      await hank.login('hank', 'password123');
      expect((await hank.get<EnvelopeBody<User>>('/api/user/self')).body.data?.email).toBe(email);

      const taken = await t.client().get(`/api/verification?email=${encodeURIComponent(email)}`);
      expect(taken.body).toMatchObject({ success: false });
      expect(taken.body.message).toMatch(/already taken/);
    } finally {
      await setOptions(root, { EmailVerificationEnabled: 'false' });
    }
  });

  it('refuses an address that is not one', async () => {
    for (const email of ['', 'not-an-address', 'a@b', 'two@@example.com', `${'x'.repeat(45)}@example.com`]) {
      const answer = await t.client().get(`/api/verification?email=${encodeURIComponent(email)}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: false });
    }
  });

  it('keeps to the domain whitelist when it is on', async () => {
    await setOptions(root, {
      EmailDomainWhitelist: 'example.org,Mail.Example.net',
      EmailDomainRestrictionEnabled: 'true',
    });
    try {
      const refused = await t.client().get('/api/verification?email=ian@gmail.com');
      expect(refused.body).toMatchObject({ success: false });
      expect(refused.body.message).toMatch(/only allows email addresses of certain domains/);
      const lookalike = await t.client().get('/api/verification?email=ian@evilexample.org');
      expect(lookalike.body.success).toBe(false);
      const seen = smtp.to('ian@mail.example.net').length;
      const allowed = await t.client().get('/api/verification?email=ian@mail.example.net');
      expect(allowed.body).toMatchObject({ success: true });
      await smtp.next('ian@mail.example.net', seen);
    } finally {
      await setOptions(root, { EmailDomainRestrictionEnabled: 'false' });
    }
  });

  it('binds a verified address to the signed-in user', async () => {
    const jane = await t.user('jane');
    const email = 'jane@example.com';
    const seen = smtp.to(email).length;
    expect((await jane.get(`/api/verification?email=${email}`)).body.success).toBe(true);
    const code = codeIn((await smtp.next(email, seen)).body);
    const wrong = await jane.get(`/api/oauth/email/bind?email=${email}&code=zzzzzz`);
    expect(wrong.body.message).toMatch(/wrong or has expired/);
    const bound = await jane.get(`/api/oauth/email/bind?email=${email}&code=${code}`);
    expect(bound.body).toEqual({ success: true, message: '' });
    expect((await jane.get<EnvelopeBody<User>>('/api/user/self')).body.data?.email).toBe(email);
    // The code is used up.
    expect((await jane.get(`/api/oauth/email/bind?email=${email}&code=${code}`)).body.success).toBe(false);
    expect((await t.client().get(`/api/oauth/email/bind?email=${email}&code=${code}`)).status).toBe(401);
  });

  it('resets a password through the mailed link, once', async () => {
    const email = 'kate@example.com';
    await userWithEmail('kate', email);
    const seen = smtp.to(email).length;
    const asked = await t.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
    expect(asked.body).toEqual({ success: true, message: '' });
    const mail = await smtp.next(email, seen);
    expect(mail.subject).toBe('Switchyard Test password reset');
    const href = /href="([^"]+)"/.exec(mail.body)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const link = new URL(href);
    expect(`${link.origin}${link.pathname}`).toBe('https://gateway.example.com/user/reset');
    expect(link.searchParams.get('email')).toBe(email);
    const token = link.searchParams.get('token') ?? '';
    expect(token).toMatch(/^[0-9a-f]{32}$/);

    const reset = await t.client().post<EnvelopeBody<string>>('/api/user/reset', { email, token });
    expect(reset.body.success).toBe(true);
    const password = reset.body.data ?? '';
    expect(password).toMatch(/^[0-9A-Za-z]{12}$/);
    await t.client().login('kate', password);
    const old = await t.client().post('/api/user/login', { username: 'kate', password: 'password123' });
    expect(old.body.success).toBe(false);

    const again = await t.client().post('/api/user/reset', { email, token });
    expect(again.body).toMatchObject({ success: false });
    expect(again.body.message).toMatch(/invalid or has expired/);
  });

  it('refuses a reset for an unknown address and a forged token', async () => {
    const unknown = await t.client().get('/api/reset_password?email=nobody@example.com');
    expect(unknown.body).toMatchObject({ success: false });
    expect(unknown.body.message).toMatch(/not registered/);
    const forged = await t
      .client()
      .post('/api/user/reset', { email: 'kate@example.com', token: 'f'.repeat(32) });
    expect(forged.body.message).toMatch(/invalid or has expired/);
    const empty = await t.client().post('/api/user/reset', { email: 'kate@example.com', token: '' });
    expect(empty.status).toBe(200);
  });

  it('says so clearly when SMTP is not configured', async () => {
    await setOptions(root, { SMTPServer: '' });
    try {
      const code = await t.client().get('/api/verification?email=luke@example.com');
      expect(code.status).toBe(200);
      expect(code.body).toMatchObject({ success: false });
      expect(code.body.message).toMatch(/SMTP server/);
      await userWithEmail('luke', 'luke@example.com');
      const reset = await t.client().get('/api/reset_password?email=luke@example.com');
      expect(reset.body.message).toMatch(/SMTP server/);
    } finally {
      await setOptions(root, { SMTPServer: '127.0.0.1' });
    }
  });
});

describe('mail through an SMTP server that wants a login', () => {
  const TOKEN = 'smtp-secret-token-value';
  const smtp = new MailCatcher({ credentials: { user: 'mailer@example.com', pass: TOKEN } });
  let t: TestApp;
  let root: Client;

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp();
    root = await t.root();
    await setOptions(root, {
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: 'mailer@example.com',
      SMTPToken: TOKEN,
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('logs in with SMTPAccount and SMTPToken and sends from the account when SMTPFrom is empty', async () => {
    const answer = await t.client().get('/api/verification?email=mona@example.com');
    expect(answer.body).toMatchObject({ success: true });
    const mail = await smtp.next('mona@example.com', 0);
    expect(mail.from).toBe('mailer@example.com');
  });

  it('reports a refused login without revealing the token', async () => {
    await setOptions(root, { SMTPToken: 'wrong-token-value' });
    const answer = await t.client().get('/api/verification?email=nina@example.com');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: false });
    expect(answer.body.message).toMatch(/^Failed to send email: /);
    expect(answer.text).not.toContain('wrong-token-value');
    expect(answer.text).not.toContain(TOKEN);
    const options = await root.get('/api/option/');
    expect(options.text).not.toContain('wrong-token-value');
  });
});

const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((file) => existsSync(file));

/**
 * A throwaway self-signed certificate for the given loopback addresses, made with openssl (Node
 * cannot issue X.509 certificates by itself).
 */
function selfSignedCertificate(
  dir: string,
  addresses: string[],
): { key: string; cert: string; certFile: string } {
  const keyFile = path.join(dir, 'smtp-key.pem');
  const certFile = path.join(dir, 'smtp-cert.pem');
  execFileSync(
    OPENSSL as string,
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=Switchyard test SMTP',
      '-addext',
      `subjectAltName=${addresses.map((address) => `IP:${address}`).join(',')}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

describe.skipIf(!OPENSSL)('mail over TLS: implicit on port 465, STARTTLS on other ports', () => {
  // Port 465 on an address of its own in 127/8, so parallel runs do not compete for it.
  const implicitHost = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  let dir: string;
  let certificate: { key: string; cert: string; certFile: string };
  let t: TestApp;
  let root: Client;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'switchyard-smtp-tls-'));
    certificate = selfSignedCertificate(dir, ['127.0.0.1', implicitHost]);
    // The certificate is trusted through SMTP_CA_FILE; it is still verified, host name included.
    t = await startTestApp({ env: { SMTP_CA_FILE: certificate.certFile } });
    root = await t.root();
    await setOptions(root, { SystemName: 'Switchyard TLS', SMTPFrom: 'noreply@gateway.example.com' });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('upgrades with STARTTLS when a server on another port offers it', async () => {
    const smtp = await new MailCatcher({ tls: { key: certificate.key, cert: certificate.cert } }).start();
    try {
      expect(smtp.port).not.toBe(465);
      await setOptions(root, { SMTPServer: '127.0.0.1', SMTPPort: String(smtp.port) });
      const answer = await t.client().get('/api/verification?email=olga@example.com');
      expect(answer.body).toEqual({ success: true, message: '' });
      const mail = await smtp.next('olga@example.com', 0);
      expect(mail.subject).toBe('Switchyard TLS email verification');
      expect(mail.secure).toBe(true);
      expect(mail.cipher).not.toBe('');
      expect(codeIn(mail.body)).toMatch(/^[0-9a-f]{6}$/);
    } finally {
      await smtp.close();
    }
  });

  it('speaks TLS from the first byte on port 465', async (context) => {
    const smtp = new MailCatcher({ tls: { key: certificate.key, cert: certificate.cert, implicit: true } });
    try {
      await smtp.start(465, implicitHost);
    } catch (error) {
      // Only root (or a lowered ip_unprivileged_port_start) may listen on port 465.
      context.skip(`cannot listen on ${implicitHost}:465 (${(error as NodeJS.ErrnoException).code})`);
    }
    try {
      await setOptions(root, { SMTPServer: implicitHost, SMTPPort: '465' });
      const answer = await t.client().get('/api/verification?email=pavel@example.com');
      expect(answer.body).toEqual({ success: true, message: '' });
      const mail = await smtp.next('pavel@example.com', 0);
      expect(mail.secure).toBe(true);
      expect(mail.cipher).not.toBe('');
    } finally {
      await smtp.close();
    }
  });

  it('refuses a certificate nobody trusts: verification is on without SMTP_CA_FILE', async () => {
    const smtp = await new MailCatcher({ tls: { key: certificate.key, cert: certificate.cert } }).start();
    const plain = await startTestApp();
    try {
      const admin = await plain.root();
      await setOptions(admin, {
        SMTPServer: '127.0.0.1',
        SMTPPort: String(smtp.port),
        SMTPFrom: 'noreply@gateway.example.com',
      });
      const answer = await plain.client().get('/api/verification?email=quinn@example.com');
      expect(answer.body).toMatchObject({ success: false });
      expect(answer.body.message).toMatch(/^Failed to send email: .*certificate/i);
      expect(smtp.mails).toEqual([]);
    } finally {
      await plain.close();
      await smtp.close();
    }
  });
});

describe('mailed codes and reset links expire after their window', () => {
  const smtp = new MailCatcher();
  let now = Date.now();
  let t: TestApp;
  let root: Client;

  const mailedCode = async (email: string): Promise<string> => {
    const seen = smtp.to(email).length;
    expect((await t.client().get(`/api/verification?email=${encodeURIComponent(email)}`)).body.success).toBe(
      true,
    );
    return codeIn((await smtp.next(email, seen)).body);
  };
  const mailedResetToken = async (email: string): Promise<string> => {
    const seen = smtp.to(email).length;
    expect(
      (await t.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`)).body.success,
    ).toBe(true);
    const href =
      /href="([^"]+)"/.exec((await smtp.next(email, seen)).body)?.[1]?.replace(/&amp;/g, '&') ?? '';
    return new URL(href).searchParams.get('token') ?? '';
  };

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ clock: () => now });
    root = await t.root();
    await setOptions(root, {
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'noreply@gateway.example.com',
      ServerAddress: 'https://gateway.example.com',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('refuses a registration code once its 10 minutes are over, and takes one just inside them', async () => {
    await setOptions(root, { EmailVerificationEnabled: 'true' });
    try {
      const email = 'rita@example.com';
      const register = (code: string) =>
        t.client().post('/api/user/register', {
          username: 'rita',
          password: 'password123',
          email,
          verification_code: code,
        });
      const stale = await mailedCode(email);
      now += CODE_VALID_MS + 1_000;
      const late = await register(stale);
      expect(late.body).toMatchObject({ success: false });
      expect(late.body.message).toMatch(/wrong or has expired/);

      const fresh = await mailedCode(email);
      now += CODE_VALID_MS - 1_000;
      expect((await register(fresh)).body).toMatchObject({ success: true });
      await t.client().login('rita', 'password123');
    } finally {
      await setOptions(root, { EmailVerificationEnabled: 'false' });
    }
  });

  it('refuses a binding code once its window is over', async () => {
    const sam = await t.user('sam');
    const email = 'sam@example.com';
    const code = await mailedCode(email);
    now += CODE_VALID_MS + 1_000;
    const late = await sam.get(`/api/oauth/email/bind?email=${email}&code=${code}`);
    expect(late.body.message).toMatch(/wrong or has expired/);
    expect((await sam.get<EnvelopeBody<User>>('/api/user/self')).body.data?.email).toBe('');
  });

  it('refuses a reset link once its window is over and keeps the old password', async () => {
    const email = 'tina@example.com';
    await t.user('tina');
    const found = await root.get<EnvelopeBody<User[]>>('/api/user/search?keyword=tina');
    expect((await root.put('/api/user/', { id: found.body.data?.[0]?.id, email })).body.success).toBe(true);

    const stale = await mailedResetToken(email);
    now += CODE_VALID_MS + 1_000;
    const late = await t.client().post('/api/user/reset', { email, token: stale });
    expect(late.body).toMatchObject({ success: false });
    expect(late.body.message).toMatch(/invalid or has expired/);
    await t.client().login('tina', 'password123');

    const fresh = await mailedResetToken(email);
    now += CODE_VALID_MS - 1_000;
    const reset = await t.client().post<EnvelopeBody<string>>('/api/user/reset', { email, token: fresh });
    expect(reset.body.success).toBe(true);
    await t.client().login('tina', reset.body.data ?? '');
  });
});
