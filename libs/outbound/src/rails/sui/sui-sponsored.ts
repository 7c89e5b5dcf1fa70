// The Sui rail's sponsored transfer (used by the engine's Sui rail, sui-outbound-rail.ts): one transaction whose sender is a deposit address
// (or a refund wallet) and whose gas owner is the Sui gas tank, so the sender never needs SUI,
// keeps no dust and no top-up transaction exists (issue 22 › Sui sweeps as sponsored transactions).
//
// The fence of an attempt is its gas coin and every input coin at the versions it was built on,
// and its expiration epoch: a Sui transaction can only execute while all of them are still at
// those versions and the epoch has not passed, so once one of them moved on (consumed by another
// transaction) or the epoch passed, and the attempt's digest is unknown to the node, the attempt
// is provably dead and a new one may be signed (docs/money-out.md › Rails).
import { SUI_COIN_TYPE, SuiCoin, SuiNode } from '@svc/chains';
import { parseTransactionEffectsBcs } from '@mysten/sui/experimental';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, normalizeStructTag, normalizeSuiAddress, toBase64 } from '@mysten/sui/utils';
import type { SignerKeyRef } from '../../keys/keyring';
import { SUI_GAS_TANK_KEY, SuiKeyring } from '../../keys/sui-keyring';
import { suiTransferBytes } from './sui-transfer-bytes';

import type { SuiObjectRef } from '@svc/domain';

export type { SuiObjectRef };

/** What the attempt depends on: it can execute only while every one of these is at its version. */
export interface SuiFence {
  gasCoin: SuiObjectRef;
  inputs: SuiObjectRef[];
  /** the last epoch in which the attempt can execute (Sui's `Epoch(e)` expiration); null: none */
  expirationEpoch: bigint | null;
}

export interface SuiTransferPlan {
  sender: string;
  senderKey: SignerKeyRef;
  to: string;
  coinType: string;
  /** `all`: every coin of the type moves, merged into one (the sender keeps nothing of it). */
  amount: bigint | 'all';
  /** the sender's coins of the type to spend (all of them for `all`) */
  inputs: SuiCoin[];
  gasCoin: SuiCoin;
  gasPrice: bigint;
  gasBudget: bigint;
  /** the last epoch in which the transaction may execute; absent: no expiration */
  expirationEpoch?: bigint;
}

/** A signed attempt: what is stored (bytes and digest) before anything is executed. */
export interface SuiSignedAttempt {
  digest: string;
  /** Base64 TransactionData */
  bytes: string;
  signatures: string[];
  fence: SuiFence;
  amountAtomic: bigint;
}

export interface SuiEffects {
  digest: string;
  success: boolean;
  error: string | null;
  /** computation + storage − rebate: the SUI the gas owner paid (MIST) */
  gasPaid: bigint;
  computationCost: bigint;
  /** the checkpoint that holds it (final at once on Sui), null while none does */
  checkpoint: bigint | null;
  /**
   * The gas coin as the transaction left it, and the version it was at before: what the next
   * transaction paying with it must name (a wallet signs with it at once, no checkpoint needed).
   */
  gasCoin: { before: string; after: SuiObjectRef } | null;
}

/** The fields of TransactionEffects read: the BCS carries status, gas and the objects' new versions. */
const EFFECTS_FIELDS = 'digest effectsBcs checkpoint { sequenceNumber }';

interface EffectsNode {
  digest: string;
  effectsBcs: string | null;
  checkpoint: { sequenceNumber: number } | null;
}

/** The service's real limit on multiGet keys is in its ServiceConfig; 50 is what every connection allows. */
const MULTI_GET_KEYS = 50;

/** SuiEffects of a TransactionEffects node (its BCS parsed as the SDK's core API parses it). */
function effectsOf(digest: string, node: EffectsNode): SuiEffects {
  if (!node.effectsBcs) throw new Error(`the node shows no effects BCS for ${digest}`);
  const fx = parseTransactionEffectsBcs(fromBase64(node.effectsBcs));
  const { status, gasUsed } = fx;
  const computationCost = BigInt(gasUsed.computationCost);
  const gas = fx.gasObject;
  return {
    digest,
    success: status.success,
    error: status.success ? null : status.error,
    gasPaid: computationCost + BigInt(gasUsed.storageCost) - BigInt(gasUsed.storageRebate),
    computationCost,
    checkpoint: node.checkpoint ? BigInt(node.checkpoint.sequenceNumber) : null,
    gasCoin:
      gas && gas.inputVersion && gas.outputVersion && gas.outputDigest
        ? {
            before: String(gas.inputVersion),
            after: {
              objectId: normalizeSuiAddress(gas.id),
              version: String(gas.outputVersion),
              digest: gas.outputDigest,
            },
          }
        : null,
  };
}

export type SuiExecuteOutcome = { kind: 'executed'; effects: SuiEffects } | { kind: 'rejected'; message: string };

const ref = (c: SuiObjectRef): SuiObjectRef => ({ objectId: c.objectId, version: c.version, digest: c.digest });

export class SuiSponsoredRail {
  constructor(
    readonly node: SuiNode,
    readonly keyring: SuiKeyring,
  ) {}

  get gasOwner(): string {
    return this.keyring.gasTankAddress;
  }

  async referenceGasPrice(): Promise<bigint> {
    const { referenceGasPrice } = await this.node.client.core.getReferenceGasPrice();
    return BigInt(referenceGasPrice);
  }

  /**
   * A gas coin of the tank that no open attempt holds (`reserved`: object ids) and that covers
   * the budget. The caller picks under a lock and stores the attempt before releasing it, so two
   * transactions never get one gas coin.
   */
  async pickGasCoin(reserved: ReadonlySet<string>, budget: bigint): Promise<SuiCoin | null> {
    const coins = await this.node.coins(this.gasOwner, SUI_COIN_TYPE);
    return coins.find((c) => !reserved.has(normalizeSuiAddress(c.objectId)) && c.balance >= budget) ?? null;
  }

  /** Builds the sponsored transaction and signs it as the sender and as the gas owner; nothing is sent. */
  async sign(plan: SuiTransferPlan): Promise<SuiSignedAttempt> {
    if (plan.inputs.length === 0) throw new Error(`${plan.sender} holds no ${plan.coinType} to send`);
    if (normalizeStructTag(plan.coinType) === SUI_COIN_TYPE && plan.amount === 'all') {
      // spec: native SUI is never swept (manual); a SUI refund is always an exact amount
      throw new Error('a sponsored transfer of all SUI is not supported');
    }
    const held = plan.inputs.reduce((sum, c) => sum + c.balance, 0n);
    const amountAtomic = plan.amount === 'all' ? held : plan.amount;
    if (amountAtomic <= 0n || amountAtomic > held) {
      throw new Error(`${plan.sender} holds ${held} of ${plan.coinType}, cannot send ${amountAtomic}`);
    }
    // the Transaction builder's bytes for setSender, setGasOwner, setGasPrice, setGasBudget,
    // setGasPayment([gas coin]), setExpiration, objectRef per input, mergeCoins(first, rest), then
    // transferObjects of the merged coin (`all`) or of splitCoins(first, [amount]): written directly
    const bytes = suiTransferBytes({
      sender: plan.sender,
      gasOwner: this.gasOwner,
      to: plan.to,
      inputs: plan.inputs,
      amount: plan.amount === 'all' ? 'all' : amountAtomic,
      gasCoin: plan.gasCoin,
      gasPrice: plan.gasPrice,
      gasBudget: plan.gasBudget,
      expirationEpoch: plan.expirationEpoch,
    });
    const signatures = [
      await this.keyring.sign(plan.senderKey, plan.sender, bytes),
      await this.keyring.sign(SUI_GAS_TANK_KEY, this.gasOwner, bytes),
    ];
    return {
      digest: TransactionDataBuilder.getDigestFromBytes(bytes),
      bytes: toBase64(bytes),
      signatures,
      fence: {
        gasCoin: ref(plan.gasCoin),
        inputs: plan.inputs.map(ref),
        expirationEpoch: plan.expirationEpoch ?? null,
      },
      amountAtomic,
    };
  }

  /**
   * Hands the stored bytes to the node (again: harmless, the digest is the same); refusals are
   * returned. The effects come back in the same answer (no second request to read them).
   * `digest`: the attempt's, as stored with its bytes (else computed from them).
   */
  async execute(
    attempt: Pick<SuiSignedAttempt, 'bytes' | 'signatures'> & { digest?: string },
  ): Promise<SuiExecuteOutcome> {
    const data = await this.node.query<{
      executeTransaction: { errors: string[] | null; effects: EffectsNode | null };
    }>(
      `mutation svcExecute($tx: Base64!, $sigs: [Base64!]!) { executeTransaction(transactionDataBcs: $tx, signatures: $sigs) { errors effects { ${EFFECTS_FIELDS} } } }`,
      { tx: attempt.bytes, sigs: attempt.signatures },
    );
    const out = data.executeTransaction;
    if (out.errors?.length || !out.effects) return { kind: 'rejected', message: (out.errors ?? []).join('; ') };
    const digest = attempt.digest ?? TransactionDataBuilder.getDigestFromBytes(fromBase64(attempt.bytes));
    if (out.effects.effectsBcs) return { kind: 'executed', effects: effectsOf(digest, out.effects) };
    const effects = await this.effects(digest);
    if (!effects) throw new Error(`executed ${digest}, but the node does not show its effects`);
    return { kind: 'executed', effects };
  }

  /** The effects of a digest, or null while the node does not know it (looked up first after a restart). */
  async effects(digest: string): Promise<SuiEffects | null> {
    const data = await this.node.query<{ transactionEffects: EffectsNode | null }>(
      `query svcEffects($digest: String!) { transactionEffects(digest: $digest) { ${EFFECTS_FIELDS} } }`,
      { digest },
    );
    return data.transactionEffects ? effectsOf(digest, data.transactionEffects) : null;
  }

  /** The effects of many digests (multiGetTransactionEffects, 50 a request); a digest the node does not know maps to null. */
  async effectsOfMany(digests: string[]): Promise<Map<string, SuiEffects | null>> {
    const out = new Map<string, SuiEffects | null>();
    for (let i = 0; i < digests.length; i += MULTI_GET_KEYS) {
      const keys = digests.slice(i, i + MULTI_GET_KEYS);
      const data = await this.node.query<{ multiGetTransactionEffects: Array<EffectsNode | null> }>(
        `query svcEffectsMany($keys: [String!]!) { multiGetTransactionEffects(keys: $keys) { ${EFFECTS_FIELDS} } }`,
        { keys },
      );
      keys.forEach((d, j) => {
        const node = data.multiGetTransactionEffects[j];
        out.set(d, node ? effectsOf(d, node) : null);
      });
    }
    return out;
  }

  /** The newest certified checkpoint's sequence number. */
  async head(): Promise<bigint> {
    const data = await this.node.query<{ checkpoint: { sequenceNumber: number } | null }>(
      'query svcHead { checkpoint { sequenceNumber } }',
      {},
    );
    if (!data.checkpoint) throw new Error('the Sui node knows no checkpoint');
    return BigInt(data.checkpoint.sequenceNumber);
  }

  /** The current epoch. */
  async epoch(): Promise<bigint> {
    const data = await this.node.query<{ epoch: { epochId: number } | null }>(
      'query svcEpoch { epoch { epochId } }',
      {},
    );
    if (!data.epoch) throw new Error('the Sui node knows no epoch');
    return BigInt(data.epoch.epochId);
  }

  /**
   * Whether an attempt whose digest the node does not know can never execute: one of its fence
   * objects is gone or at another version (consumed by some other transaction). Looks the digest
   * up first: a fence consumed by the attempt itself is not dead, it landed.
   */
  async fenceDead(attempt: Pick<SuiSignedAttempt, 'digest' | 'fence'>): Promise<string | false> {
    if (await this.effects(attempt.digest)) return false;
    const fence = [attempt.fence.gasCoin, ...attempt.fence.inputs];
    const { objects } = await this.node.client.core.getObjects({ objectIds: fence.map((o) => o.objectId) });
    const moved = objects.findIndex((o, i) => o instanceof Error || o.version !== fence[i].version);
    if (moved >= 0) return `object ${fence[moved].objectId} is no longer at version ${fence[moved].version}`;
    if (attempt.fence.expirationEpoch !== null) {
      const epoch = await this.epoch();
      if (epoch > attempt.fence.expirationEpoch)
        return `it expired with epoch ${attempt.fence.expirationEpoch} (now ${epoch})`;
    }
    return false;
  }
}
