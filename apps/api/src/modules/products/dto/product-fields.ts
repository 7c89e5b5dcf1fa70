import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';

/** spec: Resources › Product › networks rows `{chain, token, price}`. */
export class NetworkRowDto {
  @IsString()
  @MaxLength(32)
  chain!: string;

  @IsString()
  @MaxLength(512)
  token!: string;

  @IsOptional()
  @IsString()
  @MaxLength(80)
  price?: string;
}

export const MAX_NETWORK_ROWS = 12;

/** Optional, but `null` is validated (and refused) rather than skipped: it would reach the service as a list. */
const OptionalNotNull = (): PropertyDecorator => ValidateIf((_, v) => v !== undefined);

/** Decorators shared by create and update for `networks`. */
export function NetworksField(): PropertyDecorator {
  return (target, key) => {
    OptionalNotNull()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(MAX_NETWORK_ROWS, { message: `networks must contain at most ${MAX_NETWORK_ROWS} rows` })(target, key);
    ValidateNested({ each: true })(target, key);
    Type(() => NetworkRowDto)(target, key);
  };
}

export function EnabledChainsField(): PropertyDecorator {
  return (target, key) => {
    OptionalNotNull()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(MAX_NETWORK_ROWS)(target, key);
    IsString({ each: true })(target, key);
    MaxLength(32, { each: true })(target, key);
  };
}
