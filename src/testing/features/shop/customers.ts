import type { SandboxCore } from '../../core.js';
import { SandboxUsageError } from '../../errors.js';
import { referencesTo } from '../../register/records.js';
import type { CustomerRecord } from '../../state/shop.js';
import { touch } from '../../state/stamps.js';

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

/** A customer added at the counter: customer.created. */
export function addCustomer(core: SandboxCore, input: NewCustomer): CustomerRecord {
  for (const option of ['firstName', 'lastName', 'email'] as const) {
    if (typeof input?.[option] !== 'string' || input[option].trim() === '') {
      throw new SandboxUsageError(`addCustomer needs ${option}`);
    }
  }
  const email = input.email.toLowerCase();
  if (core.state.shop.customers.find((other) => other.email === email)) {
    throw new SandboxUsageError(`Another customer has the email ${input.email}`);
  }
  const now = core.clock.iso();
  const customer = core.state.shop.customers.insert((id) => ({
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
  core.events.record('customer.created', customer, null);
  return customer;
}

/** Staff edit a customer's details: customer.updated. */
export function updateCustomer(
  core: SandboxCore,
  customerId: number,
  changes: CustomerChanges,
): CustomerRecord {
  const customer = core.state.shop.customers.get(customerId);
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
  if (email && core.state.shop.customers.find((other) => other.id !== customerId && other.email === email)) {
    throw new SandboxUsageError(`Another customer has the email ${fields.email}`);
  }
  Object.assign(customer, fields, email ? { email } : {});
  touch(customer, core.clock.nowMs());
  core.events.record('customer.updated', customer, null);
  return customer;
}

/**
 * Deletes a customer nothing points at (no orders, bookings, memberships, accounts...): customer.deleted
 * with {object, id, deleted: true}. A customer with history stays, as a shop keeps it for its records.
 */
export function deleteCustomer(core: SandboxCore, customerId: number): void {
  const { customers } = core.state.shop;
  if (!customers.get(customerId)) throw new SandboxUsageError(`No customer ${customerId}`);
  const used = referencesTo(core, 'customer_id', customerId);
  if (core.state.accounts.houseAccounts.has(customerId)) used.push('accounts.houseAccounts');
  if (used.length > 0) {
    throw new SandboxUsageError(
      `Customer ${customerId} has history (${used.join(', ')}): the sandbox deletes only customers nothing points at`,
    );
  }
  customers.delete(customerId);
  core.events.record('customer.deleted', { object: 'customer', id: customerId, deleted: true }, null);
}
