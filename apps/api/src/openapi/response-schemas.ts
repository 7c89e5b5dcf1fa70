// The response bodies of the OpenAPI document, read from the code rather than written twice: the
// TypeScript checker infers what each controller method returns (the presenters' object literals)
// and this turns those types into JSON Schema (OpenAPI 3.1 dialect). Objects equal to a named
// presenter's result become `$ref`s to one component (Payment, Refund, …). The result is checked in
// as responses.generated.json (`npm run openapi:generate`); e2e/openapi.e2e-spec.ts fails when it is stale.
import * as path from 'node:path';
import * as ts from 'typescript';

export type JsonSchema = Record<string, unknown>;

export interface ResponseSchemas {
  /** named objects: `components.schemas` */
  components: Record<string, JsonSchema>;
  /** `<Controller>_<method>` (the document's operationId) → the success body's schema; null: no body */
  operations: Record<string, JsonSchema | null>;
}

/** Presenter functions whose result is a named component (name → module path, export). */
const NAMED: Array<[name: string, file: string, fn: string]> = [
  ['Payment', 'libs/payments/src/presenters/payment.presenter.ts', 'paymentObject'],
  ['BlockchainTransaction', 'libs/payments/src/presenters/payment.presenter.ts', 'blockchainTransaction'],
  ['PublicPayment', 'libs/payments/src/presenters/payment.presenter.ts', 'publicPayment'],
  ['CheckoutSession', 'libs/payments/src/presenters/session.presenter.ts', 'sessionObject'],
  ['Receipt', 'libs/payments/src/presenters/receipt.presenter.ts', 'receiptDocument'],
  ['PublicReceipt', 'libs/payments/src/presenters/receipt.presenter.ts', 'publicReceipt'],
  ['Invoice', 'libs/payments/src/presenters/invoice.presenter.ts', 'invoiceObject'],
  ['PublicInvoice', 'libs/payments/src/presenters/invoice.presenter.ts', 'publicInvoice'],
  ['Refund', 'libs/payments/src/presenters/refund.presenter.ts', 'refundObject'],
  ['SettlementAddress', 'libs/payments/src/presenters/settlement.presenter.ts', 'settlementAddressObject'],
  ['Sweep', 'libs/payments/src/presenters/settlement.presenter.ts', 'sweepObject'],
  ['Product', 'apps/api/src/modules/products/products.presenter.ts', 'productRow'],
  ['WebhookEndpoint', 'apps/api/src/modules/webhooks/webhooks.presenter.ts', 'endpointObject'],
  ['WebhookDelivery', 'apps/api/src/modules/webhooks/webhooks.presenter.ts', 'deliveryObject'],
  ['PublicCheckoutSession', 'apps/api/src/modules/checkout/public-session.presenter.ts', 'publicSessionView'],
];

const ROUTE_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete']);

export function generateResponseSchemas(root: string): ResponseSchemas {
  const configPath = path.join(root, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const controllers = ts.sys
    .readDirectory(path.join(root, 'apps/api/src/modules'), ['.ts'])
    .filter((f) => f.endsWith('.controller.ts'));
  const program = ts.createProgram([...controllers, ...NAMED.map(([, f]) => path.join(root, f))], parsed.options);
  const checker = program.getTypeChecker();
  const convert = new Converter(checker);

  // the named components first, so that controller results equal to one of them become $refs
  const components: Record<string, JsonSchema> = {};
  for (const [name, file, fn] of NAMED) {
    const source = program.getSourceFile(path.join(root, file));
    const decl = source && findFunction(source, fn);
    if (!decl) throw new Error(`${file}: no function ${fn}`);
    const signature = checker.getSignatureFromDeclaration(decl);
    if (!signature) throw new Error(`${file}: ${fn} has no signature`);
    const schema = convert.schema(checker.getReturnTypeOfSignature(signature), decl);
    components[name] = schema;
    convert.name(schema, name);
  }

  const operations: Record<string, JsonSchema | null> = {};
  for (const file of controllers.sort()) {
    const source = program.getSourceFile(file)!;
    source.forEachChild((node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !isRoute(member)) continue;
        const signature = checker.getSignatureFromDeclaration(member)!;
        const returned = checker.getAwaitedType(checker.getReturnTypeOfSignature(signature))!;
        const key = `${node.name.text}_${(member.name as ts.Identifier).text}`;
        operations[key] =
          returned.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined) ? null : convert.schema(returned, member);
      }
    });
  }
  return { components, operations };
}

function findFunction(source: ts.SourceFile, name: string): ts.SignatureDeclaration | undefined {
  let found: ts.SignatureDeclaration | undefined;
  source.forEachChild((node) => {
    if (ts.isFunctionDeclaration(node) && node.name?.text === name) found = node;
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer && ts.isArrowFunction(d.initializer))
          found = d.initializer;
      }
    }
  });
  return found;
}

function isRoute(method: ts.MethodDeclaration): boolean {
  return (ts.getDecorators(method) ?? []).some(
    (d) =>
      ts.isCallExpression(d.expression) &&
      ts.isIdentifier(d.expression.expression) &&
      ROUTE_DECORATORS.has(d.expression.expression.text),
  );
}

class Converter {
  private readonly named = new Map<string, string>();

  constructor(private readonly checker: ts.TypeChecker) {}

  name(schema: JsonSchema, name: string): void {
    this.named.set(JSON.stringify(schema), name);
  }

  schema(type: ts.Type, at: ts.Node, depth = 0): JsonSchema {
    const s = this.inner(type, at, depth);
    const name = this.named.get(JSON.stringify(s));
    return name ? { $ref: `#/components/schemas/${name}` } : s;
  }

  private inner(type: ts.Type, at: ts.Node, depth: number): JsonSchema {
    if (depth > 12) return {};
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: this.checker.typeToString(type) === 'true' };
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (type as ts.NumberLiteralType).value };
    if (f & ts.TypeFlags.String || f & ts.TypeFlags.TemplateLiteral) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & ts.TypeFlags.Union) return this.union((type as ts.UnionType).types, at, depth);
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      const [item] = this.checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: item ? this.schema(item, at, depth + 1) : {} };
    }
    const symbol = type.getSymbol();
    if (symbol?.name === 'Date') return { type: 'string', format: 'date-time' };
    if (f & ts.TypeFlags.Object) return this.object(type, at, depth);
    return {};
  }

  private union(types: ts.Type[], at: ts.Node, depth: number): JsonSchema {
    const present = types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const nullable = present.some((t) => t.flags & ts.TypeFlags.Null);
    const rest = present.filter((t) => !(t.flags & ts.TypeFlags.Null));
    let schema: JsonSchema;
    const booleans = rest.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const others = rest.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
    const strings = others.filter((t) => t.flags & ts.TypeFlags.StringLiteral);
    if (others.length > 0 && strings.length === others.length && booleans.length === 0) {
      schema = { type: 'string', enum: strings.map((t) => (t as ts.StringLiteralType).value).sort() };
    } else {
      const parts = others.map((t) => this.schema(t, at, depth + 1));
      if (booleans.length === 2) parts.push({ type: 'boolean' });
      else if (booleans.length === 1) parts.push(this.schema(booleans[0], at, depth + 1));
      const unique = [...new Map(parts.map((p) => [JSON.stringify(p), p])).values()];
      schema = unique.length === 1 ? unique[0] : { anyOf: unique };
    }
    if (!nullable) return schema;
    if (typeof schema.type === 'string' && !schema.enum && !schema.const)
      return { ...schema, type: [schema.type, 'null'] };
    if (schema.enum) return { ...schema, type: [schema.type, 'null'], enum: [...(schema.enum as unknown[]), null] };
    return { anyOf: [...((schema.anyOf as JsonSchema[]) ?? [schema]), { type: 'null' }] };
  }

  private object(type: ts.Type, at: ts.Node, depth: number): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const propType = this.checker.getTypeOfSymbolAtLocation(prop, at);
      if (propType.getCallSignatures().length > 0) continue; // methods are not JSON
      properties[prop.name] = this.schema(propType, at, depth + 1);
      if (!(prop.flags & ts.SymbolFlags.Optional)) required.push(prop.name);
    }
    const index = this.checker.getIndexTypeOfType(type, ts.IndexKind.String);
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length) schema.required = required;
    if (index) schema.additionalProperties = this.schema(index, at, depth + 1);
    return schema;
  }
}
