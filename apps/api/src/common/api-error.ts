import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * Domain errors thrown by services. The global filter renders them as the spec's body
 * `{statusCode, error, message}` plus any `extra` fields (the amount-out-of-bounds 400 carries
 * `minAmount`, `maxAmount`, `currency`).
 */
export class ApiError extends HttpException {
  constructor(
    status: HttpStatus,
    message: string | string[],
    readonly extra: Record<string, unknown> = {},
  ) {
    super({ message }, status);
  }
}

export const badRequest = (message: string | string[], extra?: Record<string, unknown>) =>
  new ApiError(HttpStatus.BAD_REQUEST, message, extra);
export const notFound = (message: string) => new ApiError(HttpStatus.NOT_FOUND, message);
export const conflict = (message: string) => new ApiError(HttpStatus.CONFLICT, message);
export const gone = (message: string) => new ApiError(HttpStatus.GONE, message);
