import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Optional } from '../../../common/optional';
import type { SweepListQuery } from '../sweeps-walk';

const REFUSED = 'Not a filter of this walk: always answered 400 (spec: Reconciliation walk 5).';

/** GET /v1/sweeps query (money contract › Payouts 8); values are parsed by sweeps-walk. */
export class ListSweepsQueryDto implements SweepListQuery {
  @Optional() @IsString() @MaxLength(64) updatedAfter?: string;
  @Optional() @IsString() @MaxLength(16) limit?: string;
  @Optional() @IsString() @MaxLength(128) cursor?: string;
  @JSONSchema({
    description: 'One payment’s sweeps by sequence, without the walk’s lag; alone, without the walk parameters.',
  })
  @Optional()
  @IsString()
  @MaxLength(64)
  paymentId?: string;
  // read only to refuse them with the spec's reason, not "property status should not exist"
  @JSONSchema({ description: REFUSED }) @Optional() @IsString() @MaxLength(64) status?: string;
  @JSONSchema({ description: REFUSED }) @Optional() @IsString() @MaxLength(16) network?: string;
}
