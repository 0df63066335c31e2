// The owner's and the register's actions that make the event types the API cannot: each changes the shop
// as the API then shows it, fires its event, and refuses what would leave the shop inconsistent.
import { describe, expect, it } from 'vitest';
import type { EventType } from '../../src/generated/event-types.js';
import { EVENT_PAYLOAD_SCHEMAS } from '../../src/generated/events.js';
import { SandboxUsageError } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';

function setup() {
  const sandbox = newSandbox();
  sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
  const key = sandbox.createKey();
  const since = () => {
    const start = sandbox.world.events.all().length;
    return () =>
      sandbox.world.events
        .all()
        .slice(start)
        .map((event) => event.envelope);
  };
  return { sandbox, key, since };
}

function expectValid(type: string, payload: unknown) {
  const checked = EVENT_PAYLOAD_SCHEMAS[type as EventType].safeParse(payload);
  expect(checked.success, `${type}: ${JSON.stringify(checked.error?.issues[0])}`).toBe(true);
}

describe('sandbox.owner', () => {
  it('adds a product (product.created) the API lists, and deletes it again (product.deleted)', async () => {
    const { sandbox, key, since } = setup();
    const made = since();
    const product = sandbox.owner.addProduct({ sku: 'NEW-1', name: 'New thing', priceCents: 1299 });
    const listed = await call(sandbox, 'GET', `/v1/products?limit=200`, { key });
    expect(listed.json.data.map((row: { sku: string }) => row.sku)).toContain('NEW-1');
    sandbox.owner.deleteProduct(product.id);
    const [created, deleted] = made();
    expect(created).toMatchObject({
      type: 'product.created',
      data: { object: { id: product.id, inventory: [] } },
    });
    expect(deleted).toMatchObject({
      type: 'product.deleted',
      data: { object: { object: 'product', id: product.id, deleted: true, sku: 'NEW-1', name: 'New thing' } },
    });
    expectValid('product.created', created!.data.object);
    expectValid('product.deleted', deleted!.data.object);
    expect(
      (await call(sandbox, 'PATCH', `/v1/products/${product.id}`, { key, body: { price_cents: 1 } })).status,
    ).toBe(404);
    expect(() => sandbox.owner.addProduct({ sku: 'new-1', name: 'Again', priceCents: 1 })).not.toThrow();
    expect(() => sandbox.owner.addProduct({ sku: 'NEW-1', name: 'Dup', priceCents: 1 })).toThrow(/taken/);
  });

  it('refuses to delete a product with stock or history', () => {
    const { sandbox } = setup();
    expect(() => sandbox.owner.deleteProduct(1)).toThrow(SandboxUsageError);
    expect(() => sandbox.owner.deleteProduct(424242)).toThrow(/No product/);
  });

  it('adds a location and issues an invoice to a house account', async () => {
    const { sandbox, key, since } = setup();
    const made = since();
    const location = sandbox.owner.addLocation({ name: 'Ridgeline South' });
    const invoice = sandbox.owner.issueInvoice(2, { amountCents: 4200 });
    const [locationCreated, invoiceCreated] = made();
    expect(locationCreated).toMatchObject({
      type: 'location.created',
      data: { object: { id: location.id } },
    });
    expect(invoiceCreated).toMatchObject({
      type: 'invoice.created',
      data: { object: { id: invoice.id, status: 'open', balance_cents: 4200 } },
    });
    expectValid('location.created', locationCreated!.data.object);
    expectValid('invoice.created', invoiceCreated!.data.object);
    expect((await call(sandbox, 'GET', `/v1/invoices/${invoice.id}`, { key })).status).toBe(200);
    expect(() => sandbox.owner.issueInvoice(1, { amountCents: 100 })).toThrow(/no house account/);
  });
});

describe('sandbox.register (customers, returns, saved cards)', () => {
  it('adds, changes and deletes a customer without history; refuses one with history', () => {
    const { sandbox, since } = setup();
    const made = since();
    const customer = sandbox.register.addCustomer({
      firstName: 'Ana',
      lastName: 'Lee',
      email: 'Ana@Example.com',
    });
    sandbox.register.updateCustomer(customer.id, { phone: '+12085550199' });
    sandbox.register.deleteCustomer(customer.id);
    expect(made().map((event) => event.type)).toEqual([
      'customer.created',
      'customer.updated',
      'customer.deleted',
    ]);
    for (const event of made()) expectValid(event.type, event.data.object);
    expect(made()[1]!.data.object).toMatchObject({ email: 'ana@example.com', phone: '+12085550199' });
    expect(() => sandbox.register.deleteCustomer(1)).toThrow(/has history/);
    expect(() =>
      sandbox.register.updateCustomer(2, { email: sandbox.world.state.shop.customers.get(1)!.email }),
    ).toThrow(/Another customer/);
  });

  it('takes a sale back: return.created, sale.refunded, restock; a second return of the same lines is refused', async () => {
    const { sandbox, key, since } = setup();
    const sale = sandbox.register.sell({
      customerId: 1,
      locationId: 1,
      lines: [{ sku: 'AMMO-FED-9MM-50', qty: 2 }],
    });
    const made = since();
    const taken = sandbox.register.returnSale(sale.id, { lines: [{ orderLine: 1, qty: 1 }] });
    expect(made().map((event) => event.type)).toEqual([
      'return.created',
      'sale.refunded',
      'inventory.changed',
    ]);
    expect(made()[1]!.data.object).toMatchObject({ status: 'completed' });
    expect(made()[2]!.data.object).toMatchObject({ qty_delta: 1, reason: 'return' });
    for (const event of made()) expectValid(event.type, event.data.object);
    expect((await call(sandbox, 'GET', `/v1/returns/${taken.id}`, { key })).json.data).toMatchObject({
      order_id: sale.id,
    });
    sandbox.register.returnSale(sale.id, { settlement: 'store_credit' });
    expect(made().at(-1)).toMatchObject({ type: 'store_credit.changed' });
    expect(
      made()
        .filter((event) => event.type === 'sale.refunded')
        .at(-1)!.data.object,
    ).toMatchObject({ status: 'refunded' });
    expect(() => sandbox.register.returnSale(sale.id)).toThrow(/refunded: only a completed sale/);
  });

  it('charges a declining saved card now: membership.payment_failed', () => {
    const { sandbox, since } = setup();
    const made = since();
    sandbox.register.chargeSavedCard(3);
    const failed = made().find((event) => event.type === 'membership.payment_failed')!;
    expect(failed.data.object).toMatchObject({ id: 3, change: 'payment_failed' });
    expectValid('membership.payment_failed', failed.data.object);
    expect(() => sandbox.register.chargeSavedCard(2)).toThrow(/no saved card/);
  });
});
