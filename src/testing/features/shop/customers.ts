import { type FieldProblems, notFound, SandboxUsageError } from '../../errors.js';
import type { CustomerRecord } from '../../state/shop.js';
import { touch } from '../../state/stamps.js';
import type { DomainWorld } from '../world.js';
import { referencesTo } from './references.js';

/** What `sandbox.register.updateCustomer` changes. */
export interface CustomerChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string | null;
}

/** What `sandbox.register.addCustomer` takes. */
export interface NewCustomer {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string | null;
  /** YYYY-MM-DD. @default null */
  dateOfBirth?: string | null;
}

/**
 * The customer a request's `field` names, or undefined with the problem reported: an unknown customer id in
 * a body is the caller's input error (400 VALIDATION_ERROR), reference section 4.
 */
export function customerNamed(
  world: DomainWorld,
  id: number,
  problems: FieldProblems,
  field = 'customer_id',
): CustomerRecord | undefined {
  const customer = world.state.shop.customers.get(id);
  if (!customer) problems.fail(field, 'is not a customer of this shop');
  return customer;
}

/** The customer a path names: 404 NOT_FOUND when there is none. */
export function customerAt(world: DomainWorld, id: number): CustomerRecord {
  const customer = world.state.shop.customers.get(id);
  if (!customer) throw notFound('customer');
  return customer;
}

/** The customer with this email (case does not matter), if the shop has one. */
export function customerByEmail(world: DomainWorld, email: string): CustomerRecord | undefined {
  const wanted = email.toLowerCase();
  return world.state.shop.customers.find((row) => row.email.toLowerCase() === wanted);
}

/** A customer added at the counter: customer.created. */
export function addCustomer(world: DomainWorld, input: NewCustomer): CustomerRecord {
  for (const option of ['firstName', 'lastName', 'email'] as const) {
    if (typeof input?.[option] !== 'string' || input[option].trim() === '') {
      throw new SandboxUsageError(`addCustomer needs ${option}`);
    }
  }
  const email = input.email.toLowerCase();
  if (world.state.shop.customers.find((other) => other.email === email)) {
    throw new SandboxUsageError(`Another customer has the email ${input.email}`);
  }
  const now = world.clock.iso();
  const customer = world.state.shop.customers.insert((id) => ({
    object: 'customer',
    id,
    first_name: input.firstName,
    last_name: input.lastName,
    email,
    phone: input.phone ?? null,
    date_of_birth: input.dateOfBirth ?? null,
    created_at: now,
    updated_at: now,
  }));
  world.events.record('customer.created', customer, null);
  return customer;
}

/** Staff edit a customer's details: customer.updated. */
export function updateCustomer(
  world: DomainWorld,
  customerId: number,
  changes: CustomerChanges,
): CustomerRecord {
  const customer = world.state.shop.customers.get(customerId);
  if (!customer) throw new SandboxUsageError(`No customer ${customerId}`);
  const fields: Partial<CustomerRecord> = {};
  for (const [option, field] of [
    ['firstName', 'first_name'],
    ['lastName', 'last_name'],
    ['email', 'email'],
  ] as const) {
    const value = changes?.[option];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '')
      throw new SandboxUsageError(`${option} must not be blank`);
    fields[field] = value;
  }
  if (changes?.phone !== undefined) fields.phone = changes.phone;
  if (Object.keys(fields).length === 0) throw new SandboxUsageError('updateCustomer needs a change');
  const email = fields.email?.toLowerCase();
  if (email && world.state.shop.customers.find((other) => other.id !== customerId && other.email === email)) {
    throw new SandboxUsageError(`Another customer has the email ${fields.email}`);
  }
  Object.assign(customer, fields, email ? { email } : {});
  touch(customer, world.clock.nowMs());
  world.events.record('customer.updated', customer, null);
  return customer;
}

/**
 * Deletes a customer nothing points at (no orders, bookings, memberships, accounts...): customer.deleted
 * with {object, id, deleted: true}. A customer with history stays, as a shop keeps it for its records.
 */
export function deleteCustomer(world: DomainWorld, customerId: number): void {
  const { customers } = world.state.shop;
  if (!customers.get(customerId)) throw new SandboxUsageError(`No customer ${customerId}`);
  const used = referencesTo(world, 'customer_id', customerId);
  if (world.state.accounts.houseAccounts.has(customerId)) used.push('accounts.houseAccounts');
  if (used.length > 0) {
    throw new SandboxUsageError(
      `Customer ${customerId} has history (${used.join(', ')}): the sandbox deletes only customers nothing points at`,
    );
  }
  customers.delete(customerId);
  world.events.record('customer.deleted', { object: 'customer', id: customerId, deleted: true }, null);
}
