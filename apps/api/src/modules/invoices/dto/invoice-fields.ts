import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsString,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MAX_LINE_ITEMS } from '@svc/domain';

/** money contract › Invoices › lineItems: `{description, quantity, unitAmount}`; `amount` is computed. */
export class LineItemDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  description!: string;

  @IsInt()
  quantity!: number;

  // USD decimal string, at most 2 decimals (checked with the amount rules, in exact cents)
  @MaxLength(32)
  @IsString()
  unitAmount!: string;
}

/** money contract › Invoices › networks: `{chain, token}`, a stablecoin rail of the registry. */
export class InvoiceRailDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  token!: string;
}

export const MAX_INVOICE_RAILS = 12;

/** Optional, but `null` is validated (and refused) rather than skipped: a list cannot be cleared. */
const OptionalNotNull = (): PropertyDecorator => ValidateIf((_, v) => v !== undefined);

export function LineItemsField(required: boolean): PropertyDecorator {
  return (target, key) => {
    if (!required) OptionalNotNull()(target, key);
    IsArray()(target, key);
    ArrayMinSize(1, { message: `lineItems must contain 1 to ${MAX_LINE_ITEMS} items.` })(target, key);
    ArrayMaxSize(MAX_LINE_ITEMS, { message: `lineItems must contain 1 to ${MAX_LINE_ITEMS} items.` })(target, key);
    ValidateNested({ each: true })(target, key);
    Type(() => LineItemDto)(target, key);
  };
}

export function RailsField(): PropertyDecorator {
  return (target, key) => {
    OptionalNotNull()(target, key);
    IsArray()(target, key);
    ArrayMinSize(1, { message: `networks must contain 1 to ${MAX_INVOICE_RAILS} rails.` })(target, key);
    ArrayMaxSize(MAX_INVOICE_RAILS, { message: `networks must contain 1 to ${MAX_INVOICE_RAILS} rails.` })(target, key);
    ValidateNested({ each: true })(target, key);
    Type(() => InvoiceRailDto)(target, key);
  };
}
