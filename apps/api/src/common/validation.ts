import { ValidationError, ValidationPipe } from '@nestjs/common';
import { badRequest } from '@svc/core';

function flatten(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const own = Object.values(e.constraints ?? {});
    const nested = e.children?.length ? flatten(e.children, `${parent}${e.property}.`) : [];
    return [...own.map((m) => (parent ? `${parent}${m}` : m)), ...nested];
  });
}

/**
 * The one global pipe (house style 8): unknown properties are refused, so the spec's messages
 * (`property amount should not exist`, `amount must be a string`) come out as written.
 */
export function globalValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => badRequest(flatten(errors)),
  });
}
