/** The examples `--help` prints under each command's usage (docs/cli.md has more). */
export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  'shop-mgmt': [
    'npx shop-mgmt sandbox --forward-to http://localhost:3000/webhooks/shop',
    'SHOP_API_BASE_URL=http://127.0.0.1:4010 SHOP_API_KEY=sk_test_... npx shop-mgmt trigger sale.completed',
  ],
  sandbox: [
    'npx shop-mgmt sandbox --port 4010 --forward-to http://localhost:3000/webhooks/shop --state shop.json',
    'npx shop-mgmt sandbox --clock 60x --records reservations=50000 --permissions range:read --locations 1',
  ],
  listen: [
    'SHOP_API_BASE_URL=http://127.0.0.1:4010 SHOP_API_KEY=sk_test_... npx shop-mgmt listen --forward-to http://localhost:3000/webhooks/shop',
    'npx shop-mgmt listen --forward-to http://localhost:3000/webhooks/shop --print-secret',
    'npx shop-mgmt listen --forward-to http://localhost:3000/webhooks/shop --events sale.completed,inventory.changed --since 2h',
  ],
  trigger: [
    'npx shop-mgmt trigger range.reservation.booked',
    'npx shop-mgmt trigger sale.completed --override status=awaiting_transfer --override customer.email=a@b.example',
    'npx shop-mgmt trigger --fixture checkout.json',
    'npx shop-mgmt trigger --list',
  ],
  logs: ['npx shop-mgmt logs tail --status 4xx,5xx'],
  tail: [
    'npx shop-mgmt logs tail',
    'npx shop-mgmt logs tail --status 4xx --path /v1/range --json',
    'npx shop-mgmt logs tail --event sale.completed,range.*',
  ],
  send: [
    'npx shop-mgmt send --event event.json --forward-to http://localhost:3000/webhooks/shop --secret whsec_...',
  ],
  sync: [
    'npx shop-mgmt sync --db ./shop.db --once',
    'npx shop-mgmt sync --db postgres://user@db.internal/shop --shop north-store --max-share 50% --listen 3000 --secret whsec_...',
    'npx shop-mgmt sync --db ./shop.db --dry-run',
  ],
  'dead-letters': [
    'npx shop-mgmt sync dead-letters --db ./shops.db',
    'npx shop-mgmt sync dead-letters --db postgres://user@db.internal/shops --shop north --json',
  ],
  'replay-dead': [
    'npx shop-mgmt sync replay-dead --db ./shops.db --shop north --event evt_0123456789abcdef',
    'npx shop-mgmt sync replay-dead --db ./shops.db --shop north --all',
  ],
  receiver: [
    'npx shop-mgmt example receiver --port 3000',
    'SHOP_WEBHOOK_SECRET=whsec_... npx shop-mgmt example receiver --port 0 --json',
  ],
  replay: ['npx shop-mgmt replay evt_0123456789abcdef --forward-to http://localhost:3000/webhooks/shop'],
};
