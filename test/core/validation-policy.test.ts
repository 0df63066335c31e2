// responseValidation: 'strict' (default) rejects, 'warn' returns the data and reports it, 'off' skips the check.
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, ResponseValidationError } from '../../src/core/errors/index.js';
import {
  BASE_URL,
  listReservations,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const broken = reservation(1, { party_size: 'two' });

function serveBroken(): void {
  server.use(
    http.get(`${BASE_URL}/v1/range/reservations/:id`, () => HttpResponse.json(ok(broken))),
    http.get(`${BASE_URL}/v1/range/reservations`, () =>
      HttpResponse.json(ok([reservation(2), broken], { has_more: false, next_cursor: null })),
    ),
  );
}

describe('responseValidation', () => {
  it("is 'strict' by default: the error carries the issues and the data received", async () => {
    serveBroken();
    const error = await rejection(testClient().request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).data).toEqual(broken);
    expect((error as ResponseValidationError).issues[0]?.path).toEqual(['data', 'party_size']);
    // An error of the call like any other: not retried, with its recovery data.
    expect(error).toMatchObject({
      attempts: 1,
      operation: 'range.reservations.retrieve',
      idempotencyKey: null,
    });
  });

  it("'warn' returns the data as received and reports through onValidationIssue and the logger", async () => {
    serveBroken();
    const reported: ResponseValidationError[] = [];
    const warnings: unknown[][] = [];
    const shop = testClient({
      responseValidation: 'warn',
      onValidationIssue: (error) => void reported.push(error),
      logLevel: 'warn',
      logger: { debug() {}, info() {}, error() {}, warn: (...args: unknown[]) => void warnings.push(args) },
    });
    const one = await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(one).toEqual(broken);
    const page = await shop.list(listReservations);
    expect(page.data).toEqual([reservation(2), broken]);
    expect(reported).toHaveLength(2);
    expect(reported[1]?.issues[0]?.path).toEqual(['data', 1, 'party_size']);
    expect(warnings).toHaveLength(2);
    expect(String(warnings[0]?.[0])).toMatch(/does not match its schema at data\.party_size/);
    expect(warnings[0]?.[1]).toMatchObject({
      operation: 'range.reservations.retrieve',
      path: '/v1/range/reservations/{id}',
    });
  });

  it("'off' per call returns the data unchecked on a strict client", async () => {
    serveBroken();
    const shop = testClient();
    expect(
      await shop.request(retrieveReservation, { path: { id: 1 } }, { responseValidation: 'off' }),
    ).toEqual(broken);
    expect(await rejection(shop.request(retrieveReservation, { path: { id: 1 } }))).toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it("'strict' per call wins over a 'warn' client", async () => {
    serveBroken();
    const shop = testClient({ responseValidation: 'warn', logLevel: 'off' });
    const error = await rejection(
      shop.request(retrieveReservation, { path: { id: 1 } }, { responseValidation: 'strict' }),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it("still refuses a page whose data is no array under 'off'", async () => {
    server.use(
      http.get(`${BASE_URL}/v1/range/reservations`, () =>
        HttpResponse.json(ok({ nope: 1 }, { has_more: false })),
      ),
    );
    const error = await rejection(testClient({ responseValidation: 'off' }).list(listReservations));
    expect(error).toBeInstanceOf(InvalidResponseError);
  });

  it('refuses an unknown mode, on the client and per call', async () => {
    expect(() => testClient({ responseValidation: 'loose' as never })).toThrow(
      /responseValidation must be 'strict', 'warn' or 'off'/,
    );
    serveBroken();
    const error = await rejection(
      testClient().request(
        retrieveReservation,
        { path: { id: 1 } },
        { responseValidation: 'loose' as never },
      ),
    );
    expect((error as Error).name).toBe('ParamsValidationError');
  });
});
