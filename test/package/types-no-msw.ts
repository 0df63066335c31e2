// Type-checked with skipLibCheck off in a project that has shop-mgmt but neither msw nor @types/node: the
// declarations of the main, webhooks and testing entries must not need them (TS2307 before 0.2).
import { ShopClient } from 'shop-mgmt';
import { createSandbox, type Sandbox, type SandboxHandlers } from 'shop-mgmt/testing';
import { verifyWebhook } from 'shop-mgmt/webhooks';

const sandbox: Sandbox = createSandbox({ seed: 1 });
const shop = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: sandbox.baseUrl, fetch: sandbox.fetch });
const handlers: SandboxHandlers = sandbox.handlers;
export const checks = [shop, handlers, verifyWebhook] as const;
