// The merchant's brand on the hosted pages (docs/pages.md › Branding). Pure rules shared by the API
// (validation of PUT /v1/checkout/settings) and the pay app (the colours it draws with).

/** The branding fields of the checkout settings, `null` when unset. */
export interface Branding {
  displayName: string | null;
  logoUrl: string | null;
  accentColor: string | null;
  supportEmail: string | null;
  supportUrl: string | null;
}

export const BRANDING_TEXT_FIELDS = ['displayName', 'logoUrl', 'accentColor', 'supportEmail', 'supportUrl'] as const;
export type BrandingTextField = (typeof BRANDING_TEXT_FIELDS)[number];

/** The text an accent colour carries: the pages draw white labels on accent buttons and accent links on white. */
export const ACCENT_TEXT_COLOR = '#FFFFFF';
/** WCAG 2.x success criterion 1.4.3 (contrast, minimum): 4.5:1 for normal text. */
export const MIN_ACCENT_CONTRAST = 4.5;

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

export const isHexColor = (s: string): boolean => HEX_COLOR.test(s);

/** WCAG 2.x relative luminance of an sRGB #RRGGBB colour. */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.x contrast ratio (1 to 21) of two #RRGGBB colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Why an accent colour is refused, or null: #RRGGBB, and readable under the white text it carries. */
export function accentColorProblem(value: string): string | null {
  if (!isHexColor(value)) return 'accentColor must be a colour as #RRGGBB (for example #1A56DB).';
  const ratio = contrastRatio(value, ACCENT_TEXT_COLOR);
  if (ratio < MIN_ACCENT_CONTRAST)
    return (
      `accentColor ${value.toUpperCase()} is too light: its contrast with the white text it carries is ` +
      `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1, at least ${MIN_ACCENT_CONTRAST}:1 is needed (WCAG 2 AA).`
    );
  return null;
}

/** Why a logo or support URL is refused, or null: an absolute https URL without credentials. */
export function httpsUrlProblem(field: string, value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} must be an absolute https URL.`;
  }
  if (url.protocol !== 'https:') return `${field} must be an absolute https URL.`;
  if (url.username || url.password) return `${field} must not contain a user name or password.`;
  return null;
}
