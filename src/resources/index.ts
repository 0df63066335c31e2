// The resource groups of ShopClient. Generated classes (groups.ts, one file per group, from the spec) and the
// hand-written parts: shop.webhooks (no API call) and the deprecated class names.
export * from './deprecated-names.js';
export * from './groups.js';
export { type Webhooks, webhooks } from './webhooks.js';
