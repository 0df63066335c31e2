// An event's ordering key, and a failure's text as `last_error` stores it.
import { readEnv } from '../../internal/env.js';
import { redact } from '../../internal/redact.js';
import type { ShopEvent } from '../../webhooks/events.js';

/** The key `orderingKey: true` gives an event (`range_reservation:5001`; null runs unordered). */
export function objectKeyOf(event: ShopEvent): string | null {
  const object = event.data?.object as Record<string, unknown> | undefined;
  if (typeof object !== 'object' || object === null) return null;
  const kind = typeof object.object === 'string' ? object.object : '';
  if (event.type === 'inventory.changed' || kind === 'inventory_level') {
    const product = idText(object.product_id);
    const location = idText(object.location_id);
    return product !== null && location !== null ? `inventory_level:${product}:${location}` : null;
  }
  const id = idText(object.id);
  return id === null ? null : `${kind}:${id}`;
}

/** A key function's result as the store keeps it: text, or null for none. */
export function keyText(value: unknown): string | null {
  return idText(value);
}

function idText(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  return null;
}

/** The values cut out of stored errors when none are given: the SDK's own environment variables. */
export function defaultSecrets(): string[] {
  return [readEnv('SHOP_API_KEY'), readEnv('SHOP_WEBHOOK_SECRET')].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
}

/** A failure as `last_error` keeps it: `Name: message`, credentials redacted, at most 2000 characters. */
export function storedMessageOf(error: unknown, secrets: readonly string[]): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return redact(text.slice(0, 100_000), secrets).slice(0, 2000);
}
