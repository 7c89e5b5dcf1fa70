/** Set by middleware.ts: the path of the page being rendered (a layout does not see its children's params). */
export const PATH_HEADER = 'x-pay-path';
/** Set by middleware.ts: the `?locale=` of the request ("" when none), which a layout cannot read either. */
export const LOCALE_HEADER = 'x-pay-locale';
