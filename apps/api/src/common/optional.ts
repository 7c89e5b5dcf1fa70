// How each optional request field treats `null` (docs/api-guide.md › Null in request bodies). class-validator's
// own `IsOptional` skips validation for null as well as undefined, so a null reached services that
// test `!== undefined` and was taken for a value (a null idempotencyKey matched another payment).
// Every DTO uses one of these three instead; eslint refuses `IsOptional` in apps/api.
import { Transform } from 'class-transformer';
// eslint-disable-next-line no-restricted-imports
import { IsOptional, ValidateIf } from 'class-validator';

/** Optional; `null` means exactly the same as leaving the field out (it becomes undefined). */
export function Optional(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }: { value: unknown }) => (value === null ? undefined : value))(target, key);
    IsOptional()(target, key);
  };
}

/** Optional, but `null` is validated like any value, so the field's type check refuses it with a 400 naming it. */
export const OptionalNotNull = (): PropertyDecorator => ValidateIf((_, value) => value !== undefined);

/** PATCH of a nullable field: `null` clears the stored value; anything else is validated. */
export const NullClears = (): PropertyDecorator => ValidateIf((_, value) => value !== undefined && value !== null);
