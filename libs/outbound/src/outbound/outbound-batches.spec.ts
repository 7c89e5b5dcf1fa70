import { OutboundBatches, SIGN_BATCHES_IN_FLIGHT, TOP_UP_BATCH } from './outbound-batches';
import type { SignFacts } from './outbound-steps';
import type { OutboundTransfer } from './outbound-transfer';

/** A deposit's token transfer no sign step has touched: what the run's batches take up. */
const transfer = (id: string): OutboundTransfer =>
  ({
    id,
    chain: 'bnb',
    network: 'testnet',
    state: 'planned',
    nonce: null,
    tokenAddress: '0x00000000000000000000000000000000000000aa',
    fromKeyKind: 'deposit',
    fromAddress: `0x${id}`,
  }) as unknown as OutboundTransfer;
const facts = (pendingNonce: bigint | null) => ({ pendingNonce }) as unknown as SignFacts;
const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

type Member = { t: OutboundTransfer; facts: SignFacts };

describe('OutboundBatches › a run’s sign batches and top-up decisions', () => {
  function setUp() {
    const log: string[] = [];
    const steps = {
      runTopUpsOf: () => [],
      hasLeftReceipt: () => false,
      // a member a batch gave back, moved on the one-at-a-time way: one that needs a top-up defers it
      // to the run's decisions while they gather (defersTopUpDecision answers whether they do)
      advance: jest.fn(async (id: string) => {
        const deferred = batches.defersTopUpDecision(transfer(`late-${id}`), [], facts(null));
        log.push(`alone ${id}${deferred ? ' (deferred a top-up decision)' : ''}`);
        return transfer(id);
      }),
    };
    const ctx = {
      keyring: { gasTankAddress: '0xtank' },
      logger: { warn: jest.fn() },
      serial: (_c: string, _n: string, _a: string, fn: () => Promise<unknown>) => fn(),
    };
    const batches = new OutboundBatches(ctx as never, {} as never, steps as never);
    const inFlight = { signs: 0, maxSigns: 0, decisions: 0, maxDecisions: 0, overlapped: false };
    const internals = batches as unknown as {
      signTogether(members: Member[]): Promise<Member[]>;
      decideTopUpsTogether(members: Member[]): Promise<Member[]>;
    };
    internals.signTogether = jest.fn(async (members: Member[]) => {
      inFlight.signs += 1;
      inFlight.maxSigns = Math.max(inFlight.maxSigns, inFlight.signs);
      if (inFlight.decisions > 0) inFlight.overlapped = true;
      log.push(`sign ${members.map((m) => m.t.id).join(',')}`);
      await tick();
      inFlight.signs -= 1;
      // the first member of the first batch is held by another transaction: on its own afterwards
      return members[0].t.id === 's0' ? [members[0]] : [];
    });
    internals.decideTopUpsTogether = jest.fn(async (members: Member[]) => {
      inFlight.decisions += 1;
      inFlight.maxDecisions = Math.max(inFlight.maxDecisions, inFlight.decisions);
      if (inFlight.signs > 0) inFlight.overlapped = true;
      log.push(`decide ${members.map((m) => m.t.id).join(',')}`);
      await tick();
      inFlight.decisions -= 1;
      // the first member of the first batch is held by another transaction: on its own afterwards
      return members[0].t.id === 'd0' ? [members[0]] : [];
    });
    return { batches, log, inFlight, steps };
  }

  it(`signs ${SIGN_BATCHES_IN_FLIGHT} batches at a time beside the top-up decisions, each member once`, async () => {
    const { batches, log, inFlight, steps } = setUp();
    const signs = Array.from({ length: 4 * TOP_UP_BATCH }, (_, i) => transfer(`s${i}`));
    const decisions = Array.from({ length: 2 * TOP_UP_BATCH }, (_, i) => transfer(`d${i}`));
    await batches.withTopUpBatches('bnb', 'testnet', async () => {
      for (const t of signs) expect(batches.defersSign(t, [], facts(7n))).toBe(true);
      for (const t of decisions) expect(batches.defersTopUpDecision(t, [], facts(null))).toBe(true);
    });
    expect(inFlight.maxSigns).toBe(SIGN_BATCHES_IN_FLIGHT);
    expect(inFlight.maxDecisions).toBe(1); // the tank's decisions stay one batch at a time
    expect(inFlight.overlapped).toBe(true);
    const signed = log.filter((l) => l.startsWith('sign ')).flatMap((l) => l.slice(5).split(','));
    expect(signed.sort()).toEqual(signs.map((t) => t.id).sort());
    const decided = log.filter((l) => l.startsWith('decide ')).flatMap((l) => l.slice(7).split(','));
    // the top-up decision the sign batch's member left (on its own, it needed a top-up) is decided in this run
    expect(decided.sort()).toEqual([...decisions.map((t) => t.id), 'late-s0'].sort());
    // what the decisions gave back goes the one-at-a-time way once they stopped gathering
    expect(log).toContain('alone d0');
    const lastDecision = Math.max(...log.flatMap((l, i) => (l.startsWith('decide ') ? [i] : [])));
    expect(log.indexOf('alone d0')).toBeGreaterThan(lastDecision);
    expect(steps.advance).toHaveBeenCalledTimes(2);
  });
});
