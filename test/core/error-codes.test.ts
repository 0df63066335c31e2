import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createApiError,
  ERROR_CODE_STATUS,
  type ErrorCode,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  ShopApiError,
  UnprocessableEntityError,
} from '../../src/core/errors/index.js';
import { BASE_URL, failure, rejection, retrieveReservation, testClient, useMswServer } from './support.js';

const server = useMswServer();

const CLASS_BY_STATUS: Record<number, typeof ShopApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: PaymentRequiredError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  500: InternalServerError,
};

const withStatus: Array<[ErrorCode, number]> = [];
for (const [code, status] of Object.entries(ERROR_CODE_STATUS)) {
  if (status !== null) withStatus.push([code as ErrorCode, status]);
}

async function errorFor(code: string, status: number): Promise<ShopApiError> {
  server.use(
    http.get(`${BASE_URL}/v1/range/reservations/:id`, () =>
      HttpResponse.json(failure(code, `${code} happened`), { status }),
    ),
  );
  const error = await rejection(
    testClient({ maxRetries: 0 }).request(retrieveReservation, { path: { id: 1 } }),
  );
  if (!(error instanceof ShopApiError)) throw error;
  return error;
}

describe('every error code of the reference, section 7', () => {
  it('has a status, except MEMBERSHIP_FULL whose status the reference does not show', () => {
    expect(withStatus).toHaveLength(Object.keys(ERROR_CODE_STATUS).length - 1);
    expect(ERROR_CODE_STATUS.MEMBERSHIP_FULL).toBeNull();
  });

  it.each(withStatus)('%s (HTTP %i) raises its class with status, code and is()', async (code, status) => {
    const error = await errorFor(code, status);
    expect(error).toBeInstanceOf(CLASS_BY_STATUS[status]);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.message).toBe(`${status} ${code}: ${code} happened`);
    expect(error.is(code)).toBe(true);
    expect(error.is(code === 'NOT_FOUND' ? 'SERVER_ERROR' : 'NOT_FOUND')).toBe(false);
  });

  it('MEMBERSHIP_FULL, sent with any status, gets that status class', async () => {
    const error = await errorFor('MEMBERSHIP_FULL', 409);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.is('MEMBERSHIP_FULL')).toBe(true);
  });
});

describe('is() narrows details to what the reference documents', () => {
  it('types the documented details of each code', () => {
    const error = createApiError({
      status: 400,
      code: 'X',
      message: 'x',
      details: {},
      headers: new Headers(),
    });
    if (error.is('VALIDATION_ERROR'))
      expectTypeOf(error.details.party_size).toEqualTypeOf<string[] | undefined>();
    if (error.is('INSUFFICIENT_SCOPE')) expectTypeOf(error.details.required).toEqualTypeOf<string>();
    if (error.is('DUPLICATE_CUSTOMER')) expectTypeOf(error.details.existing_id).toEqualTypeOf<number>();
    if (error.is('GIFT_CERTIFICATE_INSUFFICIENT'))
      expectTypeOf(error.details.balance_cents).toEqualTypeOf<number>();
    if (error.is('GIFT_CERTIFICATE_INACTIVE')) expectTypeOf(error.details.status).toExtend<string>();
    if (error.is('NOTHING_OUTSTANDING')) expectTypeOf(error.details.skipped).toEqualTypeOf<unknown[]>();
    if (error.is('FIELD_NOT_WRITABLE')) expectTypeOf(error.details.fields).toEqualTypeOf<string[]>();
    if (error.is('COMPLIANCE_FIELD')) expectTypeOf(error.details.field).toEqualTypeOf<string>();
    if (error.is('SESSION_FULL')) expectTypeOf(error.details).toEqualTypeOf<Record<string, unknown>>();
    if (error.is('SESSION_FULL')) expectTypeOf(error.code).toEqualTypeOf<'SESSION_FULL'>();
  });

  it('reads details.required of INSUFFICIENT_SCOPE as sent', async () => {
    server.use(
      http.get(`${BASE_URL}/v1/range/reservations/:id`, () =>
        HttpResponse.json(failure('INSUFFICIENT_SCOPE', 'Missing permission', { required: 'range:read' }), {
          status: 403,
        }),
      ),
    );
    const error = await rejection(testClient().request(retrieveReservation, { path: { id: 1 } }));
    if (!(error instanceof PermissionDeniedError && error.is('INSUFFICIENT_SCOPE'))) throw error;
    expect(error.details.required).toBe('range:read');
  });
});
