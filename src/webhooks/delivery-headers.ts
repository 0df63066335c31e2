import { signPayload } from './sign.js';

/** What one signed delivery says about itself (reference section 6). */
export interface DeliveryHeaderInput {
  /** The exact body sent. */
  readonly body: string;
  readonly eventType: string;
  readonly eventId: string;
  readonly deliveryId: string;
  /** 1 for the first try. */
  readonly attempt: number;
  /** The endpoint's secret(s). */
  readonly secret: string | readonly string[];
  /** Unix seconds to sign at. @default now */
  readonly timestamp?: number;
  readonly userAgent: string;
}

/** The headers of a delivery as the service sends it, signature included (CLI forwarder, testing helper). */
export async function deliveryHeaders(input: DeliveryHeaderInput): Promise<Record<string, string>> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': input.userAgent,
    'Service-Event': input.eventType,
    'Service-Event-Id': input.eventId,
    'Service-Delivery-Id': input.deliveryId,
    'Service-Attempt': String(input.attempt),
    'Service-Signature': await signPayload({
      body: input.body,
      secret: input.secret,
      ...(input.timestamp !== undefined ? { timestamp: input.timestamp } : {}),
    }),
  };
}
