import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import type { UserRow } from '../src/db/schema';
import type { MailMessage } from '../src/domain/mail';
import { OptionsStore } from '../src/domain/options';
import { QuotaReminder } from '../src/domain/quota-reminder';
import { createTestDatabase, type TestDatabase } from './databases';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { MailCatcher } from './fakes/smtp';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { balances, createChannel, createCustomer } from './relay-setup';

const THRESHOLD = 100_000;

describe('quota reminder mail through the relay', () => {
  let t: TestApp;
  let root: Client;
  const smtp = new MailCatcher();
  const upstream = new HttpFake(openAiHandler({ usage: { prompt_tokens: 1000, completion_tokens: 1000 } }));

  beforeAll(async () => {
    await Promise.all([smtp.start(), upstream.start()]);
    t = await startTestApp();
    root = await t.root();
    for (const [key, value] of Object.entries({
      QuotaRemindThreshold: String(THRESHOLD),
      ServerAddress: 'https://gateway.example.com',
      SystemName: 'Switchyard Test',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'billing@gateway.example.com',
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    }
    await createChannel(root, { base_url: upstream.url });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([smtp.close(), upstream.close()]);
  });

  const chat = (customer: Awaited<ReturnType<typeof createCustomer>>) =>
    customer.openai.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'hi' }],
    });

  it('mails once when a spend takes the quota below the threshold, not again on the next request', async () => {
    // Just above the threshold: one call takes it below.
    const customer = await createCustomer(t, 'uma', { quota: THRESHOLD + 500 });
    const found = await root.get<EnvelopeBody<User[]>>('/api/user/search?keyword=uma');
    await root.put('/api/user/', { id: found.body.data?.[0]?.id, email: 'uma@example.com' });

    await chat(customer);
    await t.app.services.relay.settled();
    expect((await balances(t, customer.userId, customer.token.id)).quota).toBeLessThan(THRESHOLD);
    const mail = await smtp.next('uma@example.com', 0);
    expect(mail.subject).toBe('Switchyard Test quota reminder');
    expect(mail.body).toContain('href="https://gateway.example.com/topup"');
    expect(mail.body).toMatch(/remaining quota on Switchyard Test is \$0\.\d{6}/);

    await chat(customer);
    await chat(customer);
    await t.app.services.relay.settled();
    // A mail that does not come has no event to wait for: it would have been sent within this time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to('uma@example.com')).toHaveLength(1);
  });

  it('sends nothing to a user far above the threshold or without an address', async () => {
    const rich = await createCustomer(t, 'vera', { quota: THRESHOLD * 100 });
    const found = await root.get<EnvelopeBody<User[]>>('/api/user/search?keyword=vera');
    await root.put('/api/user/', { id: found.body.data?.[0]?.id, email: 'vera@example.com' });
    await chat(rich);
    const silent = await createCustomer(t, 'walt', { quota: THRESHOLD + 500 });
    await chat(silent);
    await t.app.services.relay.settled();
    // A mail that does not come has no event to wait for: it would have been sent within this time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to('vera@example.com')).toHaveLength(0);
    expect((await balances(t, silent.userId, silent.token.id)).quota).toBeLessThan(THRESHOLD);
  });
});

describe('QuotaReminder bookkeeping', () => {
  let database: TestDatabase;
  let db: Db;
  let options: OptionsStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.target);
    await migrateToLatest(db);
    options = new OptionsStore(db);
    await options.update('QuotaRemindThreshold', '1000');
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  function harness(initialQuota: number, email = 'x@example.com') {
    const state = { quota: initialQuota, reads: 0, now: 0 };
    const mails: MailMessage[] = [];
    const reminder = new QuotaReminder({
      options,
      readUser: async () => {
        state.reads++;
        return { id: 7, quota: state.quota, email } as UserRow;
      },
      sendMail: async (message) => {
        mails.push(message);
      },
      clock: () => state.now,
    });
    /** Spends like billing does: the database first, then the hook. */
    const spend = async (amount: number) => {
      state.quota -= amount;
      reminder.spent(7, amount);
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { state, mails, spend };
  }

  it('reads the user once on first sight, then not while the estimate stays above the threshold', async () => {
    const { state, mails, spend } = harness(10_000);
    await spend(100);
    expect(state.reads).toBe(1);
    for (let call = 0; call < 50; call++) await spend(100);
    expect(state.reads).toBe(1);
    expect(state.quota).toBe(4_900);
    expect(mails).toHaveLength(0);
  });

  it('mails once on the crossing, re-arms after a top-up, and mails on the next crossing', async () => {
    const { state, mails, spend } = harness(1_500);
    await spend(300);
    await spend(300);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe('x@example.com');
    const readsAfterCrossing = state.reads;
    for (let call = 0; call < 5; call++) await spend(10);
    expect(state.reads).toBe(readsAfterCrossing);
    expect(mails).toHaveLength(1);

    state.quota += 5_000; // a top-up
    state.now += 10 * 60 * 1000;
    await spend(10);
    expect(mails).toHaveLength(1);
    await spend(4_000);
    expect(mails).toHaveLength(1);
    await spend(1_500);
    expect(mails).toHaveLength(2);
  });

  it('stays quiet for a user already below the threshold when first seen, or when the threshold is 0', async () => {
    const low = harness(500);
    await low.spend(10);
    await low.spend(10);
    expect(low.mails).toHaveLength(0);

    await options.update('QuotaRemindThreshold', '0');
    try {
      const off = harness(1_100);
      await off.spend(500);
      expect(off.state.reads).toBe(0);
      expect(off.mails).toHaveLength(0);
    } finally {
      await options.update('QuotaRemindThreshold', '1000');
    }
  });
});
