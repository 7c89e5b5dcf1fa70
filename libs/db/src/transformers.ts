import { ValueTransformer } from 'typeorm';

/** numeric(78,0) ↔ bigint: atomic token amounts never pass through a JS number. */
export const bigintTransformer: ValueTransformer = {
  to: (value: bigint | null | undefined) => (value === null || value === undefined ? value : value.toString()),
  from: (value: string | null) => (value === null ? null : BigInt(value)),
};
