import { NO_COMMITMENTS, SignInput, decideSign } from './funds';

const base: SignInput = {
  mode: 'exact',
  isToken: false,
  requested: 1000n,
  gasFromTank: false,
  fromGasTank: false,
  gasLimit: 21_000n,
  price: 2n,
  funds: { native: 100_000n, token: null },
  committed: NO_COMMITMENTS,
  openTopUps: 0,
};

describe('decideSign', () => {
  it('native sweep: the whole balance minus exactly the fee', () => {
    expect(decideSign({ ...base, mode: 'all', requested: null })).toEqual({
      action: 'sign',
      valueAtomic: 58_000n,
      amountAtomic: 58_000n,
    });
    expect(decideSign({ ...base, mode: 'all', requested: null, funds: { native: 42_000n, token: null } })).toEqual(
      expect.objectContaining({ action: 'wait', reason: 'nothing_to_send' }),
    );
  });

  it('a sweep waits while another transfer from the address is in flight', () => {
    const committed = { native: 1n, token: 0n, count: 1 };
    expect(decideSign({ ...base, mode: 'all', requested: null, committed })).toEqual(
      expect.objectContaining({ reason: 'address_busy' }),
    );
  });

  it('exact native: amount plus fee must be free after what is already committed', () => {
    expect(decideSign(base)).toEqual({ action: 'sign', valueAtomic: 1000n, amountAtomic: 1000n });
    const committed = { native: 58_001n, token: 0n, count: 1 };
    expect(decideSign({ ...base, committed })).toEqual(expect.objectContaining({ reason: 'balance_low' }));
    expect(decideSign({ ...base, committed, fromGasTank: true })).toEqual(
      expect.objectContaining({ reason: 'gas_tank_low' }),
    );
  });

  const token: SignInput = {
    ...base,
    isToken: true,
    mode: 'all',
    requested: null,
    gasFromTank: true,
    gasLimit: 50_000n,
    funds: { native: 0n, token: 7n },
  };

  it('token sweep without gas: a top-up of exactly the missing fee, then wait for it', () => {
    expect(decideSign(token)).toEqual({ action: 'top_up', amountAtomic: 100_000n });
    expect(decideSign({ ...token, funds: { native: 30_000n, token: 7n } })).toEqual({
      action: 'top_up',
      amountAtomic: 70_000n,
    });
    expect(decideSign({ ...token, openTopUps: 1 })).toEqual(expect.objectContaining({ reason: 'waiting_for_top_up' }));
  });

  it('token sweep with its gas there: the whole token balance, no value', () => {
    expect(decideSign({ ...token, funds: { native: 100_000n, token: 7n } })).toEqual({
      action: 'sign',
      valueAtomic: 0n,
      amountAtomic: 7n,
    });
    expect(decideSign({ ...token, funds: { native: 100_000n, token: 0n } })).toEqual(
      expect.objectContaining({ reason: 'nothing_to_send' }),
    );
  });

  it('exact token transfer: token balance must cover it; a wallet that pays its own gas waits for gas', () => {
    const refund = { ...token, mode: 'exact' as const, requested: 5n, gasFromTank: false };
    expect(decideSign({ ...refund, funds: { native: 0n, token: 4n } })).toEqual(
      expect.objectContaining({ reason: 'balance_low' }),
    );
    expect(decideSign({ ...refund, funds: { native: 0n, token: 5n } })).toEqual(
      expect.objectContaining({ reason: 'balance_low', message: expect.stringContaining('for gas') }),
    );
  });
});
