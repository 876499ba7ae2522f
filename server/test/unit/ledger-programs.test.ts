import { budgetPeriodStart } from '@switchyard/contract/budget-period';
import { parseLogFacts } from '@switchyard/contract/log-facts';
import { describe, expect, it } from 'vitest';
import { type HoldRequest, LeaseLostError, type Settlement } from '../../src/db/ledger/ledger';
import {
  heldByOthersProgram,
  holdProgram,
  NeedsCarefulSettlement,
  registerProgram,
  renewProgram,
  settleCarefulProgram,
  settledAlreadyProgram,
  settleFastProgram,
  sweepProgram,
} from '../../src/db/ledger/programs';
import type { NewLogRow } from '../../src/db/schema';
import { consumeLog, runScripted, type Script, ScriptedLedger, type SeenStep } from './scripted-ledger';

// Every branch of the ledger's programs, driven statement by statement on scripted answers: which
// statements each one yields, with which values, and what it answers or throws.

const HOLDER = 'holder-a';
const NOW = 1_800_000_000;
const TODAY = budgetPeriodStart('daily', NOW) as number;

const limitedKey = { userId: 1, tokenId: 10, unlimitedToken: false };
const unlimitedKey = { userId: 1, tokenId: 11, unlimitedToken: true };
const budgetKey = { userId: 1, tokenId: 12, unlimitedToken: true, budgetPeriod: 'daily' };

const user = (quota: number, held = 0) => ({ quota, held_quota: held });
const token = (remain: number, held = 0, budget: Record<string, unknown> = {}) => ({
  remain_quota: remain,
  held_quota: held,
  budget_quota: 0,
  budget_period: null,
  budget_used: null,
  budget_start: null,
  ...budget,
});
const dailyBudget = (quota: number, used: number, start = TODAY) => ({
  budget_quota: quota,
  budget_period: 'daily',
  budget_used: used,
  budget_start: start,
});

const names = (steps: SeenStep[]) => steps.map((step) => step.statement);
const paramsOf = (steps: SeenStep[], statement: string) =>
  steps.filter((step) => step.statement === statement).map((step) => step.params);

const ask = (
  payer: typeof limitedKey | typeof unlimitedKey,
  amount: number,
  more: Partial<HoldRequest> = {},
) => ({ ...payer, amount, ahead: 0, richFloor: 0, ...more }) as HoldRequest;

interface HoldCase {
  name: string;
  batch: HoldRequest[];
  script: Script;
  steps: string[];
  results?: unknown[];
  throws?: unknown;
  check?: (steps: SeenStep[]) => void;
}

const holdCases: HoldCase[] = [
  {
    name: 'a lost lease refuses the batch before any row is read',
    batch: [ask(limitedKey, 100)],
    script: { renewHolder: [0] },
    steps: ['renewHolder'],
    throws: LeaseLostError,
  },
  {
    name: 'a user that is gone is refused',
    batch: [ask(limitedKey, 100)],
    script: { readUser: [undefined] },
    steps: ['renewHolder', 'readUser'],
    results: [{ ok: false, refusal: 'user-quota' }],
  },
  {
    name: 'a user whose balance less its holds is short is refused, the key not read',
    batch: [ask(limitedKey, 100)],
    script: { readUser: [user(150, 60)] },
    steps: ['renewHolder', 'readUser'],
    results: [{ ok: false, refusal: 'user-quota' }],
  },
  {
    name: 'a user holding exactly enough is served',
    batch: [ask(unlimitedKey, 100)],
    script: { readUser: [user(160, 60)] },
    steps: ['renewHolder', 'readUser', 'holdUser', 'addHold'],
    results: [{ ok: true, taken: 100, spendable: 0 }],
  },
  {
    name: 'a limited key that is gone is refused',
    batch: [ask(limitedKey, 100)],
    script: { readUser: [user(1000)], readToken: [undefined] },
    steps: ['renewHolder', 'readUser', 'readToken'],
    results: [{ ok: false, refusal: 'token-quota' }],
  },
  {
    name: 'a limited key whose remaining quota less its holds is short is refused',
    batch: [ask(limitedKey, 100)],
    script: { readUser: [user(1000)], readToken: [token(150, 60)] },
    steps: ['renewHolder', 'readUser', 'readToken'],
    results: [{ ok: false, refusal: 'token-quota' }],
  },
  {
    name: 'a limited key with room: the user, the key and the hold row each take the amount',
    batch: [ask(limitedKey, 100)],
    script: { readUser: [user(1000)], readToken: [token(500)] },
    steps: ['renewHolder', 'readUser', 'readToken', 'holdUser', 'holdToken', 'addHold'],
    results: [{ ok: true, taken: 100, spendable: 400 }],
    check: (steps) => {
      expect(paramsOf(steps, 'renewHolder')).toEqual([[NOW * 1000, HOLDER]]);
      expect(paramsOf(steps, 'holdUser')).toEqual([[100, 1]]);
      expect(paramsOf(steps, 'holdToken')).toEqual([[100, NOW, 10]]);
      expect(paramsOf(steps, 'addHold')).toEqual([[HOLDER, 1, 10, 100, 100]]);
    },
  },
  {
    name: 'an unlimited key without a budget is not read, and carries no share of the hold',
    batch: [ask(unlimitedKey, 100)],
    script: { readUser: [user(1000)] },
    steps: ['renewHolder', 'readUser', 'holdUser', 'addHold'],
    results: [{ ok: true, taken: 100, spendable: 900 }],
    check: (steps) => expect(paramsOf(steps, 'addHold')).toEqual([[HOLDER, 1, 11, 100, 0]]),
  },
  {
    name: 'a key with a budget that is gone is refused, unlimited or not',
    batch: [ask(budgetKey, 100)],
    script: { readUser: [user(1000)], readToken: [undefined] },
    steps: ['renewHolder', 'readUser', 'readToken'],
    results: [{ ok: false, refusal: 'token-quota' }],
  },
  {
    name: "a key whose period's budget less its holds is short is refused",
    batch: [ask(budgetKey, 100)],
    script: { readUser: [user(1000)], readToken: [token(0, 50, dailyBudget(500, 380))] },
    steps: ['renewHolder', 'readUser', 'readToken'],
    results: [{ ok: false, refusal: 'token-budget' }],
  },
  {
    name: 'a budget counted in an earlier period starts from nothing; the budget bounds what stays spendable',
    batch: [ask(budgetKey, 100)],
    script: { readUser: [user(1000)], readToken: [token(0, 0, dailyBudget(120, 1000, TODAY - 86_400))] },
    steps: ['renewHolder', 'readUser', 'readToken', 'holdUser', 'holdToken', 'addHold'],
    results: [{ ok: true, taken: 100, spendable: 20 }],
    check: (steps) => expect(paramsOf(steps, 'addHold')).toEqual([[HOLDER, 1, 12, 100, 100]]),
  },
  {
    name: 'a rich account holds what was asked ahead besides',
    batch: [ask(unlimitedKey, 100, { ahead: 6_300, richFloor: 400 })],
    script: { readUser: [user(100_000)] },
    steps: ['renewHolder', 'readUser', 'holdUser', 'addHold'],
    results: [{ ok: true, taken: 6_400, spendable: 93_600 }],
    check: (steps) => expect(paramsOf(steps, 'holdUser')).toEqual([[6_400, 1]]),
  },
  {
    name: 'ahead is at most half of what stays above the floor',
    batch: [ask(unlimitedKey, 100, { ahead: 6_300, richFloor: 400 })],
    script: { readUser: [user(2_000)] },
    steps: ['renewHolder', 'readUser', 'holdUser', 'addHold'],
    results: [{ ok: true, taken: 850, spendable: 1_150 }],
  },
  {
    name: 'ahead is not held at all when that half is less than one call',
    batch: [ask(unlimitedKey, 100, { ahead: 6_300, richFloor: 400 })],
    script: { readUser: [user(650)] },
    steps: ['renewHolder', 'readUser', 'holdUser', 'addHold'],
    results: [{ ok: true, taken: 100, spendable: 550 }],
  },
  {
    name: 'ahead on a limited key is bounded by the key too',
    batch: [ask(limitedKey, 100, { ahead: 6_300, richFloor: 400 })],
    script: { readUser: [user(100_000)], readToken: [token(1_500)] },
    steps: ['renewHolder', 'readUser', 'readToken', 'holdUser', 'holdToken', 'addHold'],
    // The key can spend 1,400 after this call: (1,400 − 400) / 2 = 500 ahead.
    results: [{ ok: true, taken: 600, spendable: 900 }],
  },
  {
    name: 'a batch locks users in id order and answers in request order',
    batch: [ask({ ...unlimitedKey, userId: 2 }, 100), ask(unlimitedKey, 100)],
    script: { readUser: (params) => (params[0] === 1 ? user(1000) : user(50)) },
    steps: ['renewHolder', 'readUser', 'holdUser', 'addHold', 'readUser'],
    results: [
      { ok: false, refusal: 'user-quota' },
      { ok: true, taken: 100, spendable: 900 },
    ],
    check: (steps) => expect(paramsOf(steps, 'readUser')).toEqual([[1], [2]]),
  },
];

describe('holdProgram', () => {
  it.each(holdCases)('$name', ({ batch, script, steps, results, throws, check }) => {
    const run = runScripted(holdProgram(HOLDER, NOW * 1000, batch, NOW), script);
    expect(names(run.steps)).toEqual(steps);
    if (throws) expect(run.thrown).toBeInstanceOf(throws);
    else expect(run.value).toEqual(results);
    check?.(run.steps);
  });
});

const call = (over: Partial<Settlement> = {}): Settlement => ({
  holder: HOLDER,
  ...limitedKey,
  amount: 100,
  channelId: 5,
  cost: 80,
  elapsedMs: 300,
  log: consumeLog(80),
  ...over,
});
const giveBack = (over: Partial<Settlement> = {}): Settlement =>
  call({ giveBack: true, cost: 0, channelId: 0, elapsedMs: 0, log: undefined, ...over });

/** Every settlement starts by taking its hold back from the user and the key. */
const RELEASE_HOLD = ['markSettled', 'releaseHold', 'releaseUser', 'releaseToken'];
/** The careful settlement of one call: the balances read and locked, then charged exactly and logged. */
const CAREFUL_CHARGE = [
  ...RELEASE_HOLD,
  'readUser',
  'readToken',
  'chargeUserExactly',
  'chargeTokenExactly',
  'chargeChannel',
  'logs',
];

interface SettleCase {
  name: string;
  batch: Settlement[];
  script?: Script;
  steps: string[];
  charges?: number[];
  throws?: unknown;
  check?: (steps: SeenStep[]) => void;
}

/** A fast settlement takes the hold's row down, then releases the rest of the hold with the charges. */
const FAST_START = ['markSettled', 'releaseHold'];

const fastCases: SettleCase[] = [
  {
    name: 'a covered call: hold released with the cost charged to user and key, channel charged, log written',
    batch: [call()],
    steps: [...FAST_START, 'chargeUser', 'chargeToken', 'chargeChannel', 'logs'],
    charges: [80],
    check: (steps) => {
      expect(paramsOf(steps, 'markSettled')).toEqual([[7, HOLDER]]);
      expect(paramsOf(steps, 'releaseHold')).toEqual([[100, 100, HOLDER, 1, 10, 100, 100]]);
      expect(paramsOf(steps, 'chargeUser')).toEqual([[100, 80, 80, 1, 1, 100, 80, 80]]);
      expect(paramsOf(steps, 'chargeToken')).toEqual([[100, 80, 80, NOW, 10, 100, 80, 80]]);
      expect(paramsOf(steps, 'chargeChannel')).toEqual([[80, 300, 5]]);
      expect(paramsOf(steps, 'logs')).toEqual([[consumeLog(80)]]);
    },
  },
  {
    name: "one payer's holds are released in one statement and charged in one",
    batch: [call(), call({ cost: 30, elapsedMs: 500, log: consumeLog(30) })],
    steps: [...FAST_START, 'chargeUser', 'chargeToken', 'chargeChannel', 'logs'],
    charges: [80, 30],
    check: (steps) => {
      expect(paramsOf(steps, 'releaseHold')).toEqual([[200, 200, HOLDER, 1, 10, 200, 200]]);
      expect(paramsOf(steps, 'chargeUser')).toEqual([[200, 110, 110, 2, 1, 200, 110, 110]]);
      expect(paramsOf(steps, 'chargeChannel')).toEqual([[110, 500, 5]]);
      expect(paramsOf(steps, 'logs')[0]).toHaveLength(2);
    },
  },
  {
    name: 'an unlimited key: no share of the hold, its use counted without a guard',
    batch: [call({ ...unlimitedKey })],
    steps: [...FAST_START, 'chargeUser', 'useToken', 'chargeChannel', 'logs'],
    charges: [80],
    check: (steps) => {
      expect(paramsOf(steps, 'releaseHold')).toEqual([[100, 0, HOLDER, 1, 11, 100, 0]]);
      expect(paramsOf(steps, 'useToken')).toEqual([[0, 80, NOW, 11]]);
    },
  },
  {
    name: 'a hold a sweep gave back already is not released again; the call is still charged',
    batch: [call()],
    script: { releaseHold: [0] },
    steps: [...FAST_START, 'chargeUser', 'chargeToken', 'chargeChannel', 'logs'],
    charges: [80],
    check: (steps) => {
      expect(paramsOf(steps, 'chargeUser')).toEqual([[0, 80, 80, 1, 1, 0, 80, 80]]);
      expect(paramsOf(steps, 'chargeToken')).toEqual([[0, 80, 80, NOW, 10, 0, 80, 80]]);
    },
  },
  {
    name: 'a hold of nothing releases nothing',
    batch: [call({ amount: 0 })],
    steps: ['markSettled', 'chargeUser', 'chargeToken', 'chargeChannel', 'logs'],
    charges: [80],
  },
  {
    name: 'a give-back only releases: nothing charged, counted or logged',
    batch: [giveBack()],
    steps: [...FAST_START, 'releaseUser', 'releaseToken'],
    charges: [0],
    check: (steps) => {
      expect(paramsOf(steps, 'releaseUser')).toEqual([[100, 1]]);
      expect(paramsOf(steps, 'releaseToken')).toEqual([[100, 10]]);
    },
  },
  {
    name: "a give-back beside a call of the same payer is released with the call's charge",
    batch: [call(), giveBack({ amount: 500 })],
    steps: [...FAST_START, 'chargeUser', 'chargeToken', 'chargeChannel', 'logs'],
    charges: [80, 0],
    check: (steps) => {
      expect(paramsOf(steps, 'releaseHold')).toEqual([[600, 600, HOLDER, 1, 10, 600, 600]]);
      expect(paramsOf(steps, 'chargeUser')).toEqual([[600, 80, 80, 1, 1, 600, 80, 80]]);
    },
  },
  {
    name: "a user's charge not covered sends the batch the careful way",
    batch: [call()],
    script: { chargeUser: [0] },
    steps: [...FAST_START, 'chargeUser'],
    throws: NeedsCarefulSettlement,
  },
  {
    name: "a limited key's charge not covered sends the batch the careful way",
    batch: [call()],
    script: { chargeToken: [0] },
    steps: [...FAST_START, 'chargeUser', 'chargeToken'],
    throws: NeedsCarefulSettlement,
  },
  {
    name: 'an unlimited key deleted meanwhile does not stop the settlement',
    batch: [call({ ...unlimitedKey })],
    script: { useToken: [0] },
    steps: [...FAST_START, 'chargeUser', 'useToken', 'chargeChannel', 'logs'],
    charges: [80],
  },
  {
    name: "a key's budget counts the charge into the period running",
    batch: [call({ ...budgetKey })],
    steps: [...FAST_START, 'chargeUser', 'useToken', 'chargeBudget', 'chargeChannel', 'logs'],
    charges: [80],
    check: (steps) => {
      expect(paramsOf(steps, 'useToken')).toEqual([[100, 80, NOW, 12]]);
      expect(paramsOf(steps, 'chargeBudget')).toEqual([[TODAY, 80, 80, TODAY, 12, 'daily', TODAY, 80]]);
    },
  },
  {
    name: 'a budget that does not cover the charge sends the batch the careful way',
    batch: [call({ ...budgetKey })],
    script: { chargeBudget: [0] },
    steps: [...FAST_START, 'chargeUser', 'useToken', 'chargeBudget'],
    throws: NeedsCarefulSettlement,
  },
  {
    name: 'users, then keys, then channels are charged in id order; calls without a log write none',
    batch: [
      call({ userId: 3, tokenId: 30, channelId: 9, log: undefined }),
      call({ userId: 2, tokenId: 20, channelId: 4, log: undefined }),
      giveBack({ userId: 1, tokenId: 40 }),
    ],
    steps: [
      ...FAST_START,
      'releaseHold',
      'releaseHold',
      'releaseUser',
      'chargeUser',
      'chargeUser',
      'chargeToken',
      'chargeToken',
      'releaseToken',
      'chargeChannel',
      'chargeChannel',
    ],
    charges: [80, 80, 0],
    check: (steps) => {
      expect(paramsOf(steps, 'releaseHold').map((params) => params[3])).toEqual([1, 2, 3]);
      expect(paramsOf(steps, 'chargeUser').map((params) => params[4])).toEqual([2, 3]);
      expect(paramsOf(steps, 'chargeToken').map((params) => params[4])).toEqual([20, 30]);
      expect(paramsOf(steps, 'releaseToken')).toEqual([[100, 40]]);
      expect(paramsOf(steps, 'chargeChannel').map((params) => params[2])).toEqual([4, 9]);
    },
  },
];

describe('settleFastProgram', () => {
  it.each(fastCases)('$name', ({ batch, script = {}, steps, charges, throws, check }) => {
    const run = runScripted(settleFastProgram(HOLDER, 7, batch, NOW), script);
    expect(names(run.steps)).toEqual(steps);
    if (throws) expect(run.thrown).toBeInstanceOf(throws);
    else expect(run.value).toEqual(charges);
    check?.(run.steps);
  });
});

const carefulCases: SettleCase[] = [
  {
    name: 'a covered call is charged whole with the rows read and locked; its log as it was',
    batch: [call()],
    script: { readUser: [user(1000)], readToken: [token(1000)] },
    steps: CAREFUL_CHARGE,
    charges: [80],
    check: (steps) => {
      expect(paramsOf(steps, 'chargeUserExactly')).toEqual([[80, 80, 1, 1]]);
      expect(paramsOf(steps, 'chargeTokenExactly')).toEqual([[80, 80, NOW, 10]]);
      expect(paramsOf(steps, 'logs')).toEqual([[consumeLog(80)]]);
    },
  },
  {
    name: 'a user short of the cost pays what is left, and the log says so',
    batch: [call()],
    script: { readUser: [user(50)], readToken: [token(1000)] },
    steps: CAREFUL_CHARGE,
    charges: [50],
    check: (steps) => {
      const [[log]] = paramsOf(steps, 'logs') as [[NewLogRow]];
      expect(log.quota).toBe(50);
      expect(log.content).toBe('model ratio 1 (cost 80, charged the 50 left)');
      expect(parseLogFacts(log.facts)).toMatchObject({ underpaid: { cost: 80, charged: 50 } });
      expect(paramsOf(steps, 'chargeUserExactly')).toEqual([[50, 50, 1, 1]]);
    },
  },
  {
    name: 'a balance below zero is charged nothing, never more below',
    batch: [call()],
    script: { readUser: [user(-5)], readToken: [token(1000)] },
    steps: CAREFUL_CHARGE,
    charges: [0],
  },
  {
    name: 'a user that is gone is not charged; the key and the channel still are',
    batch: [call()],
    script: { readUser: [undefined], readToken: [token(1000)] },
    steps: [...RELEASE_HOLD, 'readUser', 'readToken', 'chargeTokenExactly', 'chargeChannel', 'logs'],
    charges: [80],
  },
  {
    name: 'a limited key short of the cost pays what it has left',
    batch: [call()],
    script: { readUser: [user(1000)], readToken: [token(30)] },
    steps: CAREFUL_CHARGE,
    charges: [30],
  },
  {
    name: 'an unlimited key, or one that is gone, only counts its use; a call without a log writes none',
    batch: [call({ ...unlimitedKey }), call({ tokenId: 13, log: undefined })],
    script: { readUser: [user(1000), user(1000)], readToken: [token(0), undefined] },
    steps: [
      'markSettled',
      'releaseHold',
      'releaseUser',
      'readUser',
      'readToken',
      'chargeUserExactly',
      'useToken',
      'chargeChannel',
      'releaseHold',
      'releaseUser',
      'releaseToken',
      'readUser',
      'readToken',
      'chargeUserExactly',
      'useToken',
      'chargeChannel',
      'logs',
    ],
    charges: [80, 80],
  },
  {
    name: 'a budget short of the cost pays what the period has left, and counts the period full',
    batch: [call({ ...budgetKey })],
    script: { readUser: [user(1000)], readToken: [token(0, 0, dailyBudget(100, 90))] },
    steps: [
      ...RELEASE_HOLD,
      'readUser',
      'readToken',
      'chargeUserExactly',
      'useToken',
      'setBudgetUsed',
      'chargeChannel',
      'logs',
    ],
    charges: [10],
    check: (steps) => expect(paramsOf(steps, 'setBudgetUsed')).toEqual([[100, TODAY, 12]]),
  },
  {
    name: 'a give-back only releases its hold',
    batch: [giveBack()],
    steps: ['markSettled', 'releaseHold', 'releaseUser', 'releaseToken'],
    charges: [0],
  },
  {
    name: 'calls go in lock order (users by id) and answer in batch order',
    batch: [call({ userId: 2, tokenId: 20 }), call()],
    script: { readUser: (params) => (params[0] === 1 ? user(1000) : user(5)), readToken: () => token(1000) },
    steps: [
      'markSettled',
      ...['releaseHold', 'releaseUser', 'releaseToken', 'readUser', 'readToken'],
      ...['chargeUserExactly', 'chargeTokenExactly', 'chargeChannel'],
      ...['releaseHold', 'releaseUser', 'releaseToken', 'readUser', 'readToken'],
      ...['chargeUserExactly', 'chargeTokenExactly', 'chargeChannel'],
      'logs',
    ],
    charges: [5, 80],
    check: (steps) => expect(paramsOf(steps, 'readUser')).toEqual([[1], [2]]),
  },
];

describe('settleCarefulProgram', () => {
  it.each(carefulCases)('$name', ({ batch, script = {}, steps, charges, throws, check }) => {
    const run = runScripted(settleCarefulProgram(HOLDER, 7, batch, NOW), script);
    expect(names(run.steps)).toEqual(steps);
    if (throws) expect(run.thrown).toBeInstanceOf(throws);
    else expect(run.value).toEqual(charges);
    check?.(run.steps);
  });
});

describe('the lease and the sweep', () => {
  it.each([
    { name: 'renewed', rows: 1, renewed: true },
    { name: 'lost (released, or another name)', rows: 0, renewed: false },
  ])('a renewal answers whether the lease was $name', ({ rows, renewed }) => {
    const run = runScripted(renewProgram(HOLDER, 5_000), { renewHolder: [rows] });
    expect(run.value).toBe(renewed);
    expect(run.steps).toEqual([{ statement: 'renewHolder', params: [5_000, HOLDER] }]);
  });

  it('registers a holder with its expiry', () => {
    const run = runScripted(registerProgram(HOLDER, 5_000), {});
    expect(run.steps).toEqual([{ statement: 'registerHolder', params: [HOLDER, 5_000] }]);
  });

  it.each([
    { name: 'no row (the holder was pruned)', row: undefined, settled: false },
    { name: 'an earlier batch', row: { settled_seq: 6 }, settled: false },
    { name: 'this batch', row: { settled_seq: 7 }, settled: true },
    { name: 'a later batch', row: { settled_seq: '8' }, settled: true },
  ])('a retried batch 7 is settled already when the holder row says $name: $settled', ({ row, settled }) => {
    expect(runScripted(settledAlreadyProgram(HOLDER, 7), { readSettled: [row] }).value).toBe(settled);
  });

  const sweepCases = [
    {
      name: 'nothing expired: only the long-released holders are pruned',
      script: {},
      steps: ['expiredHolders', 'pruneHolders'],
      swept: 0,
    },
    {
      name: 'an expired holder another process claimed first is left to it',
      script: { expiredHolders: [[{ holder: 'dead' }]], claimHolder: [0] },
      steps: ['expiredHolders', 'claimHolder', 'pruneHolders'],
      swept: 0,
    },
    {
      name: "a claimed holder's holds go back to users and keys, then its rows are dropped",
      script: {
        expiredHolders: [[{ holder: 'dead' }]],
        holdsOf: [
          [
            { user_id: 1, token_id: 10, amount: 100, token_amount: 100 },
            { user_id: 2, token_id: 11, amount: '50', token_amount: 0 },
          ],
        ],
      },
      steps: [
        'expiredHolders',
        'claimHolder',
        'holdsOf',
        'releaseUser',
        'releaseToken',
        'releaseUser',
        'dropHolds',
        'pruneHolders',
      ],
      swept: 1,
      check: (steps: SeenStep[]) => {
        expect(paramsOf(steps, 'expiredHolders')).toEqual([[9_000, HOLDER]]);
        expect(paramsOf(steps, 'claimHolder')).toEqual([[9_000, 'dead', 9_000]]);
        expect(paramsOf(steps, 'releaseUser')).toEqual([
          [100, 1],
          [50, 2],
        ]);
        expect(paramsOf(steps, 'releaseToken')).toEqual([[100, 10]]);
        expect(paramsOf(steps, 'pruneHolders')).toEqual([[1_000]]);
      },
    },
  ];
  it.each(sweepCases)('sweep: $name', ({ script, steps, swept, check }) => {
    const run = runScripted(sweepProgram(9_000, 1_000, HOLDER), script as Script);
    expect(names(run.steps)).toEqual(steps);
    expect(run.value).toBe(swept);
    check?.(run.steps);
  });

  it.each([
    { row: undefined, held: 0 },
    { row: { held: '250' }, held: 250 },
  ])('quota held by other holders: $held', ({ row, held }) => {
    const run = runScripted(heldByOthersProgram(1, HOLDER), { heldByOthers: [row] });
    expect(run.steps).toEqual([{ statement: 'heldByOthers', params: [1, HOLDER] }]);
    expect(run.value).toBe(held);
  });
});

describe('ProgramLedger.settle: which programs run, each its own transaction', () => {
  it('a batch the fast program settles is one transaction', async () => {
    const ledger = new ScriptedLedger({});
    expect(await ledger.settle(HOLDER, 1, [call()], NOW)).toEqual([80]);
    expect(ledger.transactions.map((t) => t.committed)).toEqual([true]);
  });

  it('a charge not covered rolls the fast transaction back and settles carefully in another', async () => {
    const ledger = new ScriptedLedger({ chargeUser: [0], readUser: [user(50)], readToken: [token(1000)] });
    expect(await ledger.settle(HOLDER, 1, [call()], NOW)).toEqual([50]);
    expect(ledger.transactions.map((t) => t.committed)).toEqual([false, true]);
    expect(ledger.statements()[1]).toContain('chargeUserExactly');
  });

  it('a retried batch that committed already is answered without charging it again', async () => {
    const ledger = new ScriptedLedger({ readSettled: [{ settled_seq: 3 }] });
    expect(await ledger.settle(HOLDER, 3, [call(), giveBack()], NOW, true)).toEqual([80, 0]);
    expect(ledger.statements()).toEqual([['readSettled']]);
  });

  it('a retried batch that did not commit is settled', async () => {
    const ledger = new ScriptedLedger({ readSettled: [{ settled_seq: 2 }] });
    expect(await ledger.settle(HOLDER, 3, [call()], NOW, true)).toEqual([80]);
    expect(ledger.statements().map((statements) => statements[0])).toEqual(['readSettled', 'markSettled']);
  });

  it('where a commit is never in doubt, the batch number stays in the process, not the database', async () => {
    const ledger = new ScriptedLedger(
      { chargeUser: [1, 0], readUser: [user(50)], readToken: [token(1000)] },
      true,
    );
    expect(await ledger.settle(HOLDER, 3, [call()], NOW)).toEqual([80]);
    expect(await ledger.settle(HOLDER, 3, [call()], NOW, true)).toEqual([80]);
    expect(await ledger.settle(HOLDER, 4, [call()], NOW)).toEqual([50]);
    expect(await ledger.settle(HOLDER, 4, [call()], NOW, true)).toEqual([50]);
    const statements = ledger.statements();
    expect(statements).toHaveLength(3);
    expect(statements.flat()).not.toContain('markSettled');
    expect(statements.flat()).not.toContain('readSettled');
    expect(statements[2]).toContain('chargeUserExactly');
  });

  it("the database's error is the caller's: no careful settlement follows it", async () => {
    const lost = Object.assign(new Error('Connection terminated'), { code: 'ECONNRESET' });
    const ledger = new ScriptedLedger({ chargeToken: [lost] });
    await expect(ledger.settle(HOLDER, 1, [call()], NOW)).rejects.toBe(lost);
    expect(ledger.transactions.map((t) => t.committed)).toEqual([false]);
  });

  it('the other operations are one program each', async () => {
    const ledger = new ScriptedLedger({ heldByOthers: [{ held: 7 }], renewHolder: [1] });
    await ledger.register(HOLDER, 1);
    expect(await ledger.renew(HOLDER, 2)).toBe(true);
    expect(await ledger.hold(HOLDER, 2, [ask(unlimitedKey, 1)], NOW)).toEqual([
      { ok: false, refusal: 'user-quota' },
    ]);
    expect(await ledger.sweep(86_400_000 + 5, HOLDER)).toBe(0);
    expect(await ledger.heldByOthers(1, HOLDER)).toBe(7);
    expect(ledger.statements().map((statements) => statements[0])).toEqual([
      'registerHolder',
      'renewHolder',
      'renewHolder',
      'expiredHolders',
      'heldByOthers',
    ]);
    expect(ledger.transactions[3]?.steps.at(-1)).toEqual({ statement: 'pruneHolders', params: [5] });
  });
});
