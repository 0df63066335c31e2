// The conformance oracle: the spec's own JSON Schemas (OpenAPI 3.1 = JSON Schema 2020-12), compiled with ajv,
// independently of the zod schemas the generator derives from the same file. A sandbox answer that the
// client accepts but the spec does not describe is caught here.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { parse } from 'yaml';

const SPEC_URL = new URL('../../../spec/openapi.yaml', import.meta.url);
const SPEC_ID = 'https://shop-mgmt.test/openapi.json';
const METHODS = ['get', 'post', 'patch', 'delete'] as const;

type Json = Record<string, unknown>;

/** One operation of the spec, as a response is matched to it. */
export interface SpecOperation {
  readonly id: string;
  readonly method: string;
  /** The path template, e.g. `/v1/range/reservations/{id}/cancel`. */
  readonly path: string;
  readonly pattern: RegExp;
  readonly paramCount: number;
  readonly responses: Json;
}

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function templatePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The spec, parsed once per test file, with a validator per (schema pointer). */
export class SpecValidator {
  readonly document: Json;
  readonly operations: readonly SpecOperation[];
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor() {
    this.document = parse(readFileSync(SPEC_URL, 'utf8')) as Json;
    // strict: false lets the x- extensions through; every $ref resolves inside the one added document.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema(this.document, SPEC_ID);
    const operations: SpecOperation[] = [];
    for (const [path, item] of Object.entries(this.document.paths as Record<string, Json>)) {
      for (const method of METHODS) {
        const operation = item[method] as Json | undefined;
        if (!operation) continue;
        operations.push({
          id: operation.operationId as string,
          method: method.toUpperCase(),
          path,
          pattern: templatePattern(path),
          paramCount: (path.match(/\{/g) ?? []).length,
          responses: operation.responses as Json,
        });
      }
    }
    // A literal segment wins over a parameter (`/v1/inventory/serialized` is not `/v1/inventory/{id}`).
    this.operations = operations.sort((a, b) => a.paramCount - b.paramCount);
  }

  /** The operation a method and concrete path belong to, or null (an unknown path or method). */
  match(method: string, pathname: string): SpecOperation | null {
    return (
      this.operations.find(
        (operation) => operation.method === method.toUpperCase() && operation.pattern.test(pathname),
      ) ?? null
    );
  }

  /** Whether some operation serves this path with another method (the 405 case). */
  pathExists(pathname: string): boolean {
    return this.operations.some((operation) => operation.pattern.test(pathname));
  }

  /** Follows a `$ref` to a component (responses are referenced whole, not as schemas). */
  resolve(node: Json): { node: Json; pointer: string | null } {
    const ref = node.$ref;
    if (typeof ref !== 'string') return { node, pointer: null };
    const pointer = ref.replace(/^#/, '');
    let current: unknown = this.document;
    for (const segment of pointer.split('/').slice(1)) {
      current = (current as Json)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return { node: current as Json, pointer };
  }

  /** Validates `value` against the schema at a JSON pointer into the spec; returns readable problems. */
  validateAt(pointer: string, value: unknown): string[] {
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `${SPEC_ID}#${pointer}` });
      this.#validators.set(pointer, validate);
    }
    return validate(value) ? [] : formatErrors(validate.errors ?? []);
  }

  /** The pointer of the JSON schema of an operation's response for `status`, or why there is none. */
  responseSchema(
    operation: SpecOperation,
    status: number,
  ): { pointer: string; errorCodes: readonly string[] | null } | { problem: string } {
    // OpenAPI's order: the exact status, then its range (`5XX`), then `default`.
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => operation.responses[k]);
    if (!key) return { problem: `status ${status} is not a documented response of ${operation.id}` };
    const { node, pointer } = this.resolve(operation.responses[key] as Json);
    const base =
      pointer ?? `/paths/${escapePointer(operation.path)}/${operation.method.toLowerCase()}/responses/${key}`;
    const content = (node.content as Json | undefined)?.['application/json'] as Json | undefined;
    if (!content?.schema) return { problem: `${operation.id} ${status} documents no JSON body` };
    const codes = node['x-error-codes'];
    return {
      pointer: `${base}/content/application~1json/schema`,
      errorCodes: Array.isArray(codes) ? (codes as string[]) : null,
    };
  }

  /** The status the spec gives an error code (ErrorCode's x-http-status): null when not shown, undefined if unknown. */
  codeStatus(code: string): number | null | undefined {
    const schemas = (this.document.components as Json).schemas as Record<string, Json>;
    const statuses = schemas.ErrorCode?.['x-http-status'] as Record<string, number | null> | undefined;
    return statuses?.[code];
  }

  /** The pointer of the typed delivery schema of an event type (its `webhooks` entry), or null if unknown. */
  eventSchema(type: string): string | null {
    const webhooks = this.document.webhooks as Record<string, Json>;
    if (!webhooks[type]) return null;
    return `/webhooks/${escapePointer(type)}/post/requestBody/content/application~1json/schema`;
  }
}

function formatErrors(errors: readonly ErrorObject[]): string[] {
  return errors.map((error) => {
    const where = error.instancePath || '(root)';
    // An enum's allowedValues would bury the message; the value that failed is what a reader needs.
    const { allowedValues: _, ...params } = error.params as Record<string, unknown>;
    const detail = Object.keys(params).length > 0 ? ` ${JSON.stringify(params)}` : '';
    return `${where} ${error.message ?? 'is invalid'}${detail}`;
  });
}
