import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsString, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../../../common/optional';

export const MAX_RETURN_ORIGINS = 20;

/** `""` clears a branding field, so the e-mail check applies only to a non-empty value (null still fails). */
const EmailUnlessEmpty = (): PropertyDecorator => ValidateIf((_, v) => v !== undefined && v !== '');

/**
 * `PUT /v1/checkout/settings`: a partial update (docs/pages.md › Branding). Only the fields sent
 * change; `returnOrigins`, when sent, replaces the whole list (spec: Checkout settings and secret);
 * `""` clears a branding field; `null` is a 400 naming the field (docs/api-guide.md › Null in
 * request bodies). URL and colour rules are checked by the service (`@svc/domain` branding).
 */
export class PutCheckoutSettingsDto {
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_RETURN_ORIGINS)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  returnOrigins?: string[];

  /** the name buyers see (default: the workspace's name) */
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  displayName?: string;

  /** https only; fetched by the pay app, never by the buyer's browser */
  @OptionalNotNull()
  @IsString()
  @MaxLength(2048)
  logoUrl?: string;

  /** #RRGGBB; must keep 4.5:1 contrast with the white text it carries */
  @OptionalNotNull()
  @IsString()
  @MaxLength(7)
  accentColor?: string;

  @EmailUnlessEmpty()
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'supportEmail must be an email address' })
  supportEmail?: string;

  /** https only */
  @OptionalNotNull()
  @IsString()
  @MaxLength(2048)
  supportUrl?: string;

  /** the pages show the session's `reference` (default false) */
  @OptionalNotNull()
  @IsBoolean()
  showReference?: boolean;
}
