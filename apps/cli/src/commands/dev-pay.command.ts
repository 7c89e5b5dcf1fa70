import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { SvcConfig } from '@svc/config';
import { PaymentEntity } from '@svc/db';
import { DEV_PAYER_KEY, DEV_SUI_PAYER, DevPayer, SuiDevPayer } from '@svc/devnet';
import { formatAtomic, isUuid, TOKEN_AMOUNT_RE, toAtomic } from '@svc/domain';
import { parseOptions, requireOption, UsageError } from '../cli-args';
import { connect } from './database';

/** Where `npm run dev` writes the devnet's chains file (used when SVC_CHAINS_FILE is not set). */
export const DEV_CHAINS_FILE = path.join('.svc', 'devnet', 'chains.json');

export interface DevPayArgs {
  paymentId: string;
  /** token units; default: what the payment still asks for */
  amount: string | null;
  /** a registered symbol on the payment's chain; default: the payment's token */
  token: string | null;
}

export function parseDevPayArgs(args: string[]): DevPayArgs {
  const values = parseOptions('dev:pay', args, {
    payment: { type: 'string' },
    amount: { type: 'string' },
    token: { type: 'string' },
  });
  const paymentId = requireOption('dev:pay', 'payment', values.payment);
  if (!isUuid(paymentId)) throw new UsageError(`dev:pay: --payment must be a payment id (UUID), got "${paymentId}".`);
  const amount = values.amount?.trim() ?? null;
  if (amount !== null && !TOKEN_AMOUNT_RE.test(amount))
    throw new UsageError(`dev:pay: --amount must be a decimal in token units, e.g. 25 or 0.5, got "${amount}".`);
  return { paymentId, amount, token: values.token?.trim() || null };
}

/** A refusal the operator must act on (exit 1, message on stderr). */
export class DevPayError extends Error {}

/**
 * runtime contract › Operator CLI › `dev:pay` (non-production only): sends the transfer a payment
 * asks for on the devnet, from the funded dev account: an ERC-20 `transfer`, or a plain
 * top-level value transfer for a native coin; on Sui a signed programmable transaction (the
 * payer's coins of the token merged, the amount split off and transferred). Prints the
 * transaction hash (Sui: digest) on stdout.
 */
export class DevPayCommand {
  constructor(
    private readonly db: DataSource,
    private readonly config: SvcConfig,
  ) {}

  async run(args: DevPayArgs): Promise<void> {
    if (this.config.env === 'production')
      throw new DevPayError('dev:pay is refused in production: it pays from a public devnet key.');
    const chainsFile = this.config.chainsFile ?? (fs.existsSync(DEV_CHAINS_FILE) ? DEV_CHAINS_FILE : undefined);
    if (!chainsFile)
      throw new DevPayError(
        'dev:pay needs the devnet: start `npm run dev` (it writes .svc/devnet/chains.json) or set SVC_CHAINS_FILE.',
      );
    const registry = ChainRegistry.fromFile(chainsFile);

    await connect(this.db);
    const payment = await this.db.getRepository(PaymentEntity).findOneBy({ id: args.paymentId });
    if (!payment) throw new DevPayError(`No such payment: ${args.paymentId}.`);
    const chain = registry.get(payment.chain, payment.network);
    if (!chain || (chain.kind !== 'evm' && chain.kind !== 'sui') || chain.rpcUrls.length === 0) {
      throw new DevPayError(
        `${payment.chain}/${payment.network} is not an EVM or Sui chain of the devnet (${chainsFile}).`,
      );
    }
    const token = registry.findToken(payment.chain, payment.network, args.token ?? payment.token);
    if (!token)
      throw new DevPayError(
        `${args.token ?? payment.token} is not a registered token on ${payment.chain}/${payment.network}.`,
      );
    if ((chain.kind === 'sui' || !token.native) && !token.address)
      throw new DevPayError(
        `${token.symbol} on ${payment.chain}/${payment.network} has no ${chain.kind === 'sui' ? 'coin type' : 'contract address'}.`,
      );

    const amountAtomic =
      args.amount !== null ? toAtomic(args.amount, token.decimals) : this.defaultAmount(payment, token.decimals);
    if (amountAtomic === null)
      throw new DevPayError(
        `--amount ${args.amount} has more decimal places than ${token.symbol} has (${token.decimals}).`,
      );
    if (amountAtomic <= 0n) throw new DevPayError('nothing to pay: the amount is 0.');

    const sent = `sent ${formatAtomic(amountAtomic, token.decimals)} ${token.symbol} on ${payment.chain}/${payment.network} to ${payment.paymentAddress}`;
    if (chain.kind === 'sui') {
      const sui = new SuiDevPayer(chain.rpcUrls[0], DEV_SUI_PAYER);
      let result: Awaited<ReturnType<SuiDevPayer['pay']>>;
      try {
        result = await sui.pay(payment.paymentAddress, token.address as string, amountAtomic);
      } catch (err) {
        throw new DevPayError(
          `dev:pay: the Sui devnet at ${chain.rpcUrls[0]} refused the transaction: ${(err as Error).message.split('\n')[0]}`,
        );
      }
      if (!result.success)
        throw new DevPayError(`dev:pay: transaction ${result.digest} failed on the Sui devnet: ${result.error}`);
      process.stderr.write(
        `${sent} in transaction ${result.digest}; it confirms once its checkpoint is read (${chain.confirmations} confirmation(s))\n`,
      );
      process.stdout.write(`${result.digest}\n`);
      return;
    }

    const payer = new DevPayer(chain.rpcUrls[0], DEV_PAYER_KEY, chain.chainId ?? undefined);
    try {
      const tx = token.native
        ? await payer.sendNative(payment.paymentAddress, amountAtomic)
        : await payer.sendToken(token.address as string, payment.paymentAddress, amountAtomic);
      process.stderr.write(
        `${sent} in block ${tx.blockNumber}; it confirms after ${chain.confirmations} confirmation(s)\n`,
      );
      process.stdout.write(`${tx.hash}\n`);
    } catch (err) {
      throw new DevPayError(
        `dev:pay: the devnet at ${chain.rpcUrls[0]} refused the transfer: ${(err as Error).message.split('\n')[0]}`,
      );
    } finally {
      payer.close();
    }
  }

  /** What is still missing, or the whole amount asked (in the chosen token's decimals). */
  private defaultAmount(payment: PaymentEntity, decimals: number): bigint | null {
    if (payment.expectedAmountAtomic !== null && payment.decimals === decimals) {
      const rest = payment.expectedAmountAtomic - payment.receivedAmountAtomic;
      return rest > 0n ? rest : payment.expectedAmountAtomic;
    }
    return toAtomic(payment.amount, decimals);
  }
}
