// Error bodies as the browser receives them through the pay app's route handlers.
import type { ApiError } from './types';

/** The API's message as one string (field validation answers an array of strings). */
export function errorMessage(error: unknown, fallback: string): string {
  if (typeof error !== 'object' || error === null || !('message' in error)) return fallback;
  const message = (error as ApiError).message;
  if (Array.isArray(message)) return message.join(' ');
  return typeof message === 'string' && message !== '' ? message : fallback;
}
