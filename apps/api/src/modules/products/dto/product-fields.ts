import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, MaxLength, ValidateNested } from 'class-validator';
import { Optional, OptionalNotNull } from '../../../common/optional';

/** spec: Resources › Product › networks rows `{chain, token, price}`. */
export class NetworkRowDto {
  @IsString()
  @MaxLength(32)
  chain!: string;

  @IsString()
  @MaxLength(512)
  token!: string;

  // null as absent: a custom_amount product's rows read back with `price: null`.
  @Optional()
  @IsString()
  @MaxLength(80)
  price?: string;
}

export const MAX_NETWORK_ROWS = 12;

/**
 * What `null` means for `networks` and `enabledChains`: on create the same as leaving them out
 * (`absent`); on PATCH a 400 (`refused`), since a product always has its chains.
 */
type NullMeans = 'absent' | 'refused';
const optional = (nullMeans: NullMeans): PropertyDecorator => (nullMeans === 'absent' ? Optional() : OptionalNotNull());

/** Decorators shared by create and update for `networks`. */
export function NetworksField(nullMeans: NullMeans): PropertyDecorator {
  return (target, key) => {
    optional(nullMeans)(target, key);
    IsArray()(target, key);
    ArrayMaxSize(MAX_NETWORK_ROWS, { message: `networks must contain at most ${MAX_NETWORK_ROWS} rows` })(target, key);
    ValidateNested({ each: true })(target, key);
    Type(() => NetworkRowDto)(target, key);
  };
}

export function EnabledChainsField(nullMeans: NullMeans): PropertyDecorator {
  return (target, key) => {
    optional(nullMeans)(target, key);
    IsArray()(target, key);
    ArrayMaxSize(MAX_NETWORK_ROWS)(target, key);
    IsString({ each: true })(target, key);
    MaxLength(32, { each: true })(target, key);
  };
}
