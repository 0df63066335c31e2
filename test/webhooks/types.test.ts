// Type tests: checked by `tsc -p test/tsconfig.json` (and the runtime halves by vitest).
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  EVENT_TYPES,
  EventRouter,
  type EventType,
  isKnownEventType,
  MemoryDedupeStore,
  type ShopEvent,
  type ShopEventOf,
  type UnknownShopEvent,
  type WebhookHandler,
} from '../../src/webhooks/index.js';
import { REFERENCE_EVENT_TYPES } from '../support/reference.js';

describe('ShopEvent typing', () => {
  it('narrows data.object by comparing type, and keeps unknown types in the default branch', () => {
    const describeEvent = (event: ShopEvent): string => {
      switch (event.type) {
        case 'inventory.changed':
          expectTypeOf(event).toEqualTypeOf<ShopEventOf<'inventory.changed'>>();
          expectTypeOf(event.data.object.qty_available).toEqualTypeOf<number>();
          return `stock ${event.data.object.qty_available}`;
        case 'range.reservation.booked':
          expectTypeOf(event).toEqualTypeOf<ShopEventOf<'range.reservation.booked'>>();
          return `booked ${event.data.object.id}`;
        default: {
          // The default branch still holds the events of types the SDK does not know.
          expectTypeOf<UnknownShopEvent>().toExtend<typeof event>();
          const type: string = event.type;
          return type;
        }
      }
    };
    expect(describeEvent({ type: 'range.lane.repainted' } as unknown as ShopEvent)).toBe(
      'range.lane.repainted',
    );
  });

  it('lets a caller compare with a type the SDK does not know yet, once widened to string', () => {
    // @ts-expect-error a type newer than the SDK is not one of its literals: widen first
    const unwidened = (event: ShopEvent) => event.type === 'range.lane.repainted';
    const isRepaint = (event: ShopEvent) => (event.type as string) === 'range.lane.repainted';
    expect(unwidened).toBeTypeOf('function');
    expect(isRepaint({ type: 'range.lane.repainted' } as unknown as ShopEvent)).toBe(true);
  });

  it('knows every type of the reference catalog (section 6)', () => {
    expectTypeOf<(typeof EVENT_TYPES)[number]>().toEqualTypeOf<EventType>();
    expect(EVENT_TYPES).toEqual(expect.arrayContaining([...REFERENCE_EVENT_TYPES]));
    for (const type of REFERENCE_EVENT_TYPES) expect(isKnownEventType(type)).toBe(true);
  });

  it('keeps the handler type through chained registrations', () => {
    const handler = createWebhookHandler({ secret: 'whsec_x' })
      .on('sale.completed', (event) => expectTypeOf(event).toEqualTypeOf<ShopEventOf<'sale.completed'>>())
      .onUnknown(() => undefined);
    expectTypeOf(handler).toEqualTypeOf<WebhookHandler>();
    expectTypeOf(handler).toBeCallableWith(new Request('http://127.0.0.1/'));
  });

  it('takes a dedupe store written before claim tokens, and one with them', () => {
    const before = {
      claim: (_id: string, _ttl: number): boolean => true,
      release: (_id: string): void => undefined,
    };
    const withTokens = {
      claim: async (_id: string, _ttl: number): Promise<string | false> => 'token',
      release: async (_id: string, _token?: string): Promise<void> => undefined,
    };
    expectTypeOf(before).toExtend<DedupeStore>();
    expectTypeOf(withTokens).toExtend<DedupeStore>();
    expectTypeOf(new MemoryDedupeStore().claim).returns.resolves.toEqualTypeOf<string | false>();
    expect(createWebhookHandler({ secret: 'whsec_x', dedupe: before })).toBeTypeOf('function');
  });

  it('refuses a misspelt type in the registry', () => {
    const router = new EventRouter();
    // @ts-expect-error 'range.reservation.boked' is not an event type
    router.on('range.reservation.boked', () => undefined);
    router.onUnknown((event) => expectTypeOf(event).toEqualTypeOf<UnknownShopEvent>());
  });
});

describe('EventRouter', () => {
  const event = (type: string) => ({ id: 'evt_1', type, data: { object: {} } }) as unknown as ShopEvent;
  const context = { source: 'feed', delivery: null } as const;

  it('runs every handler of a type in order, unknown types in the fallback, and drops the rest', async () => {
    const calls: string[] = [];
    const router = new EventRouter()
      .on('sale.completed', () => void calls.push('first'))
      .on('sale.completed', async () => {
        await Promise.resolve();
        calls.push('second');
      })
      .onUnknown((unknown) => void calls.push(`unknown ${unknown.type}`));
    await router.dispatch(event('sale.completed'), context);
    await router.dispatch(event('sale.voided'), context);
    await router.dispatch(event('brand.new'), context);
    expect(calls).toEqual(['first', 'second', 'unknown brand.new']);
  });

  it('rejects when a handler throws, so the caller does not count the event as processed', async () => {
    const router = new EventRouter().on('sale.completed', () => {
      throw new Error('nope');
    });
    await expect(router.dispatch(event('sale.completed'), context)).rejects.toThrow('nope');
  });
});
