/** Set by middleware.ts: the path of the page being rendered (a layout does not see its children's params). */
export const PATH_HEADER = 'x-pay-path';
