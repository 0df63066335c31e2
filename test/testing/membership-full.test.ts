// MEMBERSHIP_FULL (reference section 7 names it without status or condition) and max_members (section 2
// names it without a note): the sandbox reads max_members as the most people one membership holds, takes
// family members on sign-up in a `members` field of its own, and answers a sign-up past the limit 409.
import { describe, expect, it } from 'vitest';
import { call, newSandbox } from './helpers.js';

const FAMILY_PLAN = 2; // Family Quarterly: max_members 4 (customers 3, 4, 6 on membership 2; 2 on membership 10)
const SINGLE_PLAN = 1; // Range Monthly: max_members 1

function shop() {
  const sandbox = newSandbox();
  sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['membership.created'] });
  const key = sandbox.createKey();
  const signUp = (body: Record<string, unknown>) =>
    call(sandbox, 'POST', '/v1/memberships', { key, body: { billing_method: 'counter', ...body } });
  const count = async () =>
    (await call(sandbox, 'GET', '/v1/memberships?limit=200', { key })).json.data.length;
  const created = async () => (await call(sandbox, 'GET', '/v1/events', { key })).json.data.length;
  return { sandbox, key, signUp, count, created };
}

describe('max_members on sign-up', () => {
  it('answers 409 MEMBERSHIP_FULL for more people than the plan takes, creating nothing', async () => {
    const { signUp, count, created } = shop();
    const before = await count();
    const single = await signUp({ customer_id: 5, plan_id: SINGLE_PLAN, members: [14] });
    expect(single.status).toBe(409);
    expect(single.json.error).toMatchObject({
      code: 'MEMBERSHIP_FULL',
      details: { max_members: 1, members: 2 },
    });
    const family = await signUp({ customer_id: 1, plan_id: FAMILY_PLAN, members: [5, 7, 8, 9] });
    expect(family.json.error).toMatchObject({
      code: 'MEMBERSHIP_FULL',
      details: { max_members: 4, members: 5 },
    });
    expect(await count()).toBe(before);
    expect(await created()).toBe(0);
  });

  it('signs a family up to the limit, each extra person a member', async () => {
    const { sandbox, key, signUp } = shop();
    const family = await signUp({ customer_id: 1, plan_id: FAMILY_PLAN, members: [5, 7, 8] });
    expect(family.status).toBe(201);
    expect(family.json.data.members).toEqual([
      { customer_id: 1, role: 'primary', added_at: sandbox.clock.iso() },
      { customer_id: 5, role: 'member', added_at: sandbox.clock.iso() },
      { customer_id: 7, role: 'member', added_at: sandbox.clock.iso() },
      { customer_id: 8, role: 'member', added_at: sandbox.clock.iso() },
    ]);
    const found = await call(sandbox, 'GET', `/v1/memberships?customer_id=8&plan_id=${FAMILY_PLAN}`, { key });
    expect(found.json.data.map((row: { id: number }) => row.id)).toEqual([family.json.data.id]);
    const alone = await signUp({ customer_id: 9, plan_id: SINGLE_PLAN });
    expect(alone.status).toBe(201);
  });

  it('refuses a family member already on the plan (409 ALREADY_MEMBER) and bad members (400)', async () => {
    const { signUp } = shop();
    const taken = await signUp({ customer_id: 1, plan_id: FAMILY_PLAN, members: [4] });
    expect(taken.json.error).toMatchObject({ code: 'ALREADY_MEMBER', details: { membership_id: 2 } });
    for (const members of [[999], [1], [5, 5], 'five', [1.5]]) {
      const bad = await signUp({ customer_id: 1, plan_id: FAMILY_PLAN, members });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { members: expect.any(Array) },
      });
    }
  });
});
