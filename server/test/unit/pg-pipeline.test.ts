import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KyselyLedger } from '../../src/db/ledger/kysely-ledger';
import { LeaseLostError, type Settlement } from '../../src/db/ledger/ledger';
import type { Program } from '../../src/db/ledger/programs';
import { inlineParameters, quoteLiteral } from '../../src/db/pg-script';
import type { NewLogRow } from '../../src/db/schema';
import { createTestDatabase, type TestDatabase } from '../databases';
import { consumeLog, type Script, scriptedPgScripts, scriptedSql } from './scripted-ledger';

const inline = (sql: string, ...parameters: unknown[]) => inlineParameters({ sql, parameters });

/**
 * Reads one string literal of PostgreSQL's grammar at `at` (after optional spaces): a standard one,
 * where only a doubled quote stands for a quote, or an escape string (E'…'), where a backslash
 * escapes the next character. Written from PostgreSQL's lexical rules, not from the builder: any
 * other backslash sequence is refused, since the builder doubles every backslash.
 */
function readLiteral(text: string, at: number): { value: string; end: number } {
  let index = at;
  while (text[index] === ' ') index += 1;
  const escaped = text[index] === 'E' || text[index] === 'e';
  if (escaped) index += 1;
  if (text[index] !== "'") throw new Error(`no literal at ${index} in ${JSON.stringify(text)}`);
  index += 1;
  let value = '';
  for (;;) {
    const char = text[index];
    if (char === undefined) throw new Error('literal not closed');
    if (char === "'") {
      if (text[index + 1] === "'") {
        value += "'";
        index += 2;
        continue;
      }
      return { value, end: index + 1 };
    }
    if (escaped && char === '\\') {
      const next = text[index + 1];
      if (next !== '\\' && next !== "'")
        throw new Error(`backslash escape \\${next} the builder never writes`);
      value += next;
      index += 2;
      continue;
    }
    value += char;
    index += 1;
  }
}

/** A statement of the form `before $1 middle $2 after` read back: the text between literals, and the literals. */
function readStatement(text: string, pieces: string[]): string[] {
  const values: string[] = [];
  let at = 0;
  for (const [index, piece] of pieces.entries()) {
    expect(text.slice(at, at + piece.length)).toBe(piece);
    at += piece.length;
    if (index === pieces.length - 1) break;
    const { value, end } = readLiteral(text, at);
    values.push(value);
    at = end;
  }
  expect(at).toBe(text.length);
  return values;
}

/** Strings made of the pieces that break naive quoting, and any other text. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "'",
        "''",
        '\\',
        "\\'",
        '"',
        ';',
        '--',
        '/*',
        '$1',
        '$2',
        '$$',
        "E'",
        '\n',
        '\r',
        '\t',
        'ÿ',
        '漢',
        '🚀',
        '\u2028',
        '\ufeff',
      ),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''))
  .filter((text) => !text.includes('\u0000'));

describe("the PostgreSQL script builder's quoting", () => {
  it('writes any text without NUL as a literal that reads back as that text, and nothing else', () => {
    fc.assert(
      fc.property(hostile, hostile, (first, second) => {
        const text = inline('SELECT $1 AS a, $2 AS b', first, second);
        expect(text).toBeDefined();
        expect(readStatement(text as string, ['SELECT ', ' AS a, ', ' AS b'])).toEqual([first, second]);
      }),
      { numRuns: 2_000 },
    );
  });

  it("writes every text as pg's escapeLiteral does, a quote or a backslash anywhere", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(quoteLiteral(text)).toBe(pg.escapeLiteral(text));
      }),
      { numRuns: 2_000 },
    );
    for (const text of ["'", '\\', "\\'", "''\\\\", "a'b\\c", '模型倍率 0.25，补全倍率 3'])
      expect(quoteLiteral(text)).toBe(pg.escapeLiteral(text));
  });

  it('puts a value only where its own placeholder is: $1 beside $10, a "$2" inside a value left as text', () => {
    const values = Array.from({ length: 11 }, (_, index) => `v${index + 1} $2`);
    const sql = values.map((_, index) => `$${index + 1}`).join(',');
    const text = inline(sql, ...values) as string;
    expect(readStatement(text, ['', ...values.slice(1).map(() => ','), ''])).toEqual(values);
  });

  it('refuses a NUL anywhere, whatever surrounds it', () => {
    fc.assert(
      fc.property(hostile, hostile, (before, after) => {
        expect(inline('SELECT $1', `${before}\u0000${after}`)).toBeUndefined();
      }),
    );
  });

  it.each([
    { value: 42, literal: "'42'" },
    { value: -1.5, literal: "'-1.5'" },
    { value: 2 ** 53 - 1, literal: "'9007199254740991'" },
    { value: 12n, literal: "'12'" },
    { value: true, literal: "'true'" },
    { value: null, literal: 'NULL' },
    { value: undefined, literal: 'NULL' },
  ])('writes $value as $literal', ({ value, literal }) => {
    expect(inline('SELECT $1', value)).toBe(`SELECT ${literal}`);
  });

  it.each([
    { name: 'an object', value: { an: 'object' } },
    { name: 'an array', value: [1, 2] },
    { name: 'a date', value: new Date(0) },
    { name: 'bytes', value: Buffer.from('x') },
  ])('refuses $name, which has no literal of its own', ({ value }) => {
    expect(inline('SELECT $1', value)).toBeUndefined();
  });

  it('refuses a statement that names a parameter it was not given', () => {
    expect(inline('SELECT $1, $2', 'only one')).toBeUndefined();
  });
});

describe('the literals on a real PostgreSQL', () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    client = new pg.Client({
      connectionString: database.target.dialect === 'postgres' ? database.target.connectionString : '',
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it.each(['on', 'off'])('read back as written, standard_conforming_strings %s', async (setting) => {
    await client.query(`SET standard_conforming_strings = ${setting}`);
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (first, second) => {
        const text = inline('SELECT $1::text AS a, $2::text AS b', first, second) as string;
        const { rows } = await client.query(text);
        expect(rows).toEqual([{ a: first, b: second }]);
      }),
      { numRuns: 150 },
    );
  });

  it('would have PostgreSQL refuse a NUL sent as a parameter (the step-by-step path): text cannot hold it', async () => {
    await expect(client.query('SELECT $1::text', ['a\u0000b'])).rejects.toMatchObject({ code: '22021' });
  });
});

// The pipelined ledger: changes wait for the next read or the end, guessed meanwhile to touch one
// row; when a guess was wrong the program is run again on the database's answers (the replay check).

const HOLDER = 'holder-a';
const NOW = 1_800_000_000;
const log = (content = 'ratio 1'): NewLogRow => consumeLog(80, { content });
const settlement = (over: Partial<Settlement> = {}): Settlement => ({
  holder: HOLDER,
  userId: 1,
  tokenId: 10,
  unlimitedToken: false,
  amount: 100,
  channelId: 5,
  cost: 80,
  elapsedMs: 300,
  log: log(),
  ...over,
});

function pipelinedLedger(script: Script) {
  const stepwise = scriptedSql('postgres', script);
  const pipelined = scriptedPgScripts(script);
  return {
    ledger: new TestLedger(stepwise.sql, pipelined.scripts),
    stepwise: stepwise.events,
    trips: pipelined.trips,
  };
}

/** The ledger, which also runs a program of the test's own. */
class TestLedger extends KyselyLedger {
  run<T>(program: () => Program<T>): Promise<T> {
    return this.execute(program);
  }
}

const FAST = ['markSettled', 'releaseHold', 'chargeUser', 'chargeToken', 'chargeChannel'];

describe('the pipelined ledger and its replay check', () => {
  it('every guess right: a settlement is one trip, its commit in it, nothing step by step', async () => {
    const { ledger, stepwise, trips } = pipelinedLedger({});
    expect(await ledger.settle(HOLDER, 1, [settlement()], NOW)).toEqual([80]);
    // A lone log goes without its summaries' upserts: a fold adds them after the commit.
    expect(trips).toEqual([{ sends: [[...FAST, 'logs']], committed: true, commitInTrip: true }]);
    expect(stepwise).toEqual([]);
  });

  it('a count the program does not look at (a channel deleted meanwhile) differs: not checked, kept', async () => {
    const { ledger, stepwise, trips } = pipelinedLedger({ chargeChannel: [0] });
    expect(await ledger.settle(HOLDER, 1, [settlement({ log: undefined })], NOW)).toEqual([80]);
    expect(trips).toEqual([{ sends: [FAST], committed: true, commitInTrip: true }]);
    expect(stepwise).toEqual([]);
  });

  it('a count the program throws on (a charge not covered): the checked trip fails, the trip again without its commit shows the error, the careful settlement follows', async () => {
    const { ledger, stepwise, trips } = pipelinedLedger({
      chargeUser: () => 0,
      readUser: [{ quota: 50, held_quota: 0 }],
      readToken: [{ remain_quota: 1_000, held_quota: 0, budget_quota: 0 }],
    });
    expect(await ledger.settle(HOLDER, 1, [settlement({ log: undefined })], NOW)).toEqual([50]);
    expect(trips.map(({ committed, commitInTrip }) => ({ committed, commitInTrip }))).toEqual([
      { committed: false, commitInTrip: true },
      { committed: false, commitInTrip: false },
      { committed: true, commitInTrip: true },
    ]);
    // The checked trip stopped at the charge.
    expect(trips[0]?.sends).toEqual([FAST.slice(0, 3)]);
    expect(trips[2]?.sends).toEqual([
      ['markSettled', 'releaseHold', 'releaseUser', 'releaseToken', 'readUser'],
      ['readToken'],
      ['chargeUserExactly', 'chargeTokenExactly', 'chargeChannel'],
    ]);
    expect(stepwise).toEqual([]);
  });

  it('a count that changes the steps (a hold a sweep gave back): rolled back and run step by step', async () => {
    const { ledger, stepwise, trips } = pipelinedLedger({ releaseHold: () => 0 });
    expect(await ledger.settle(HOLDER, 1, [settlement({ log: undefined })], NOW)).toEqual([80]);
    expect(trips).toEqual([
      { sends: [['markSettled', 'releaseHold']], committed: false, commitInTrip: true },
      { sends: [FAST], committed: false, commitInTrip: false },
    ]);
    expect(stepwise).toEqual([
      'BEGIN',
      'markSettled',
      'releaseHold',
      'chargeUser',
      'chargeToken',
      'chargeChannel',
      'COMMIT',
    ]);
  });

  it('a count that changes the steps but not their number (a holder another sweep claimed first): not kept', async () => {
    const { ledger, stepwise, trips } = pipelinedLedger({
      expiredHolders: () => [{ holder: 'dead' }],
      claimHolder: () => 0,
    });
    expect(await ledger.sweep(NOW * 1000, 'alive')).toBe(0);
    // The trip read the holds of a holder it did not claim: on the real count the program prunes instead.
    expect(trips).toEqual([
      { sends: [['expiredHolders'], ['claimHolder', 'holdsOf']], committed: false, commitInTrip: false },
    ]);
    expect(stepwise).toEqual(['BEGIN', 'expiredHolders', 'claimHolder', 'pruneHolders', 'COMMIT']);
  });

  it('a replay that takes as many steps with other values is not kept: what commits is what the program does on the answers', async () => {
    // A program of the shape the ledger's take: a change whose count decides the values of the next.
    function* chooses(): Program<string> {
      const marked = (yield { kind: 'run', statement: 'markSettled', params: [1, HOLDER] }) as number;
      const channel = marked === 1 ? 5 : 6;
      yield { kind: 'run', statement: 'chargeChannel', params: [80, 300, channel] };
      return `channel ${channel}`;
    }
    const { ledger, stepwise, trips } = pipelinedLedger({ markSettled: () => 0 });
    expect(await ledger.run(chooses)).toBe('channel 6');
    expect(trips).toEqual([
      { sends: [['markSettled']], committed: false, commitInTrip: true },
      { sends: [['markSettled', 'chargeChannel']], committed: false, commitInTrip: false },
    ]);
    expect(stepwise).toEqual(['BEGIN', 'markSettled', 'chargeChannel', 'COMMIT']);
  });

  it('a lost lease found on the answer to the first read: rolled back, LeaseLostError stands', async () => {
    const { ledger, stepwise, trips } = pipelinedLedger({ renewHolder: [0] });
    const holding = ledger.hold(
      HOLDER,
      NOW * 1000,
      [{ userId: 1, tokenId: 10, unlimitedToken: true, amount: 5, ahead: 0, richFloor: 0 }],
      NOW,
    );
    await expect(holding).rejects.toBeInstanceOf(LeaseLostError);
    expect(trips).toEqual([{ sends: [['renewHolder', 'readUser']], committed: false, commitInTrip: false }]);
    expect(stepwise).toEqual([]);
  });

  it('a hold reads in a trip per row, its changes going with the commit', async () => {
    const { ledger, trips } = pipelinedLedger({ readUser: () => ({ quota: 1_000, held_quota: 0 }) });
    const request = { userId: 1, tokenId: 10, unlimitedToken: true, amount: 5, ahead: 0, richFloor: 0 };
    const answers = await ledger.hold(HOLDER, NOW * 1000, [request, { ...request, userId: 2 }], NOW);
    expect(answers.map((answer) => answer.ok)).toEqual([true, true]);
    expect(trips).toEqual([
      {
        sends: [
          ['renewHolder', 'readUser'],
          ['holdUser', 'addHold', 'readUser'],
          ['holdUser', 'addHold'],
        ],
        committed: true,
        commitInTrip: true,
      },
    ]);
  });

  it('a value with no literal (a NUL in a log) gives the trip up before it is sent, and the program runs step by step', async () => {
    const { ledger, stepwise, trips } = pipelinedLedger({});
    expect(await ledger.settle(HOLDER, 1, [settlement({ log: log('a\u0000b') })], NOW)).toEqual([80]);
    expect(trips).toEqual([{ sends: [], committed: false, commitInTrip: false }]);
    expect(stepwise).toEqual(['BEGIN', ...FAST, 'logs', 'COMMIT']);
  });

  it("the database's error in a trip goes to the caller, the transaction rolled back", async () => {
    const refused = Object.assign(new Error('division by zero'), { code: '22012' });
    const { ledger, stepwise, trips } = pipelinedLedger({ chargeToken: [refused] });
    await expect(ledger.settle(HOLDER, 1, [settlement()], NOW)).rejects.toBe(refused);
    expect(trips.map((trip) => trip.committed)).toEqual([false]);
    expect(stepwise).toEqual([]);
  });

  it("a database's error in the last trip that is not the row check goes to the caller too", async () => {
    const badNumber = Object.assign(new Error('invalid input syntax for type integer: "x"'), {
      code: '22P02',
    });
    const { ledger, stepwise, trips } = pipelinedLedger({ chargeChannel: [badNumber] });
    await expect(ledger.settle(HOLDER, 1, [settlement()], NOW)).rejects.toBe(badNumber);
    // The trip stopped at the statement that failed.
    expect(trips).toEqual([{ sends: [FAST.slice(0, 4)], committed: false, commitInTrip: true }]);
    expect(stepwise).toEqual([]);
  });
});

describe('the step-by-step ledger (MySQL, PostgreSQL with PG_PIPELINE=false)', () => {
  it('runs each statement as its own round trip inside one transaction', async () => {
    const { sql, events } = scriptedSql('mysql', {});
    const ledger = new KyselyLedger(sql);
    expect(await ledger.settle(HOLDER, 1, [settlement()], NOW)).toEqual([80]);
    // MySQL writes a log's summaries in its transaction, lone or not.
    expect(events).toEqual(['BEGIN', ...FAST, 'logs', 'logs', 'logs', 'COMMIT']);
  });

  it('rolls the transaction back when the program throws, then settles carefully in another', async () => {
    const { sql, events } = scriptedSql('postgres', {
      chargeUser: [0],
      readUser: [{ quota: 1_000, held_quota: 0 }],
      readToken: [{ remain_quota: 1_000, held_quota: 0, budget_quota: 0 }],
    });
    const ledger = new KyselyLedger(sql);
    expect(await ledger.settle(HOLDER, 1, [settlement({ log: undefined })], NOW)).toEqual([80]);
    expect(events).toEqual([
      'BEGIN',
      ...FAST.slice(0, 3),
      'ROLLBACK',
      'BEGIN',
      'markSettled',
      'releaseHold',
      'releaseUser',
      'releaseToken',
      'readUser',
      'readToken',
      'chargeUserExactly',
      'chargeTokenExactly',
      'chargeChannel',
      'COMMIT',
    ]);
  });
});
