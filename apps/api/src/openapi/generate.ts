// Development tooling, never loaded by the running API: writes the two generated files that the
// OpenAPI document and the typed client are made of. `npm run openapi:generate` runs it;
// e2e/openapi.e2e-spec.ts regenerates both in memory and fails when the checked-in copies differ.
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPIObject } from '@nestjs/swagger';
import { generateResponseSchemas } from './response-schemas';

export const RESPONSES_FILE = 'apps/api/src/openapi/responses.generated.json';
export const CLIENT_TYPES_FILE = 'libs/client/src/schema.ts';

/** responses.generated.json's text: what each controller method returns, as JSON Schema. */
export function responsesJson(root: string): string {
  return `${JSON.stringify(generateResponseSchemas(root), null, 2)}\n`;
}

/** libs/client/src/schema.ts's text: the document's types (the dev clock, absent in production, left out). */
export async function clientTypes(document: OpenAPIObject): Promise<string> {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([p]) => !p.startsWith('/v1/dev/')));
  const { servers: _servers, ...rest } = document;
  const ast = await openapiTS(JSON.parse(JSON.stringify({ ...rest, paths })), {
    alphabetize: true,
    exportType: true,
  });
  return `// Generated from GET /v1/openapi.json by openapi-typescript (npm run openapi:generate). Do not edit.\n\n${astToString(ast)}`;
}
