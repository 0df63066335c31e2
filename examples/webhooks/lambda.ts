// Receiving Shop webhooks in AWS Lambda behind API Gateway (REST or HTTP API, payload 1.0).
//
// The pitfall: API Gateway hands the body over as a string, base64-encoded when binary media types are on
// (`isBase64Encoded: true`); decode it back to the exact bytes before verifying, never JSON.parse it first.
// Each Lambda instance has its own memory: share a DedupeStore (RedisDedupeStore, or your own over
// DynamoDB) to process each event once across instances.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createWebhookHandler } from 'shop-mgmt/webhooks';

const webhooks = createWebhookHandler({
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  onEvent: (event) => console.log(`handled ${event.type} ${event.id}`),
});

/** The Lambda handler: `handler` in the function's configuration. */
export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const raw = event.body ?? '';
  const body = event.isBase64Encoded ? Buffer.from(raw, 'base64') : raw;
  const result = await webhooks.handle({ body, headers: event.headers });
  return { statusCode: result.status, headers: { 'content-type': 'application/json' }, body: result.body };
}
