// A local stand-in for API Gateway in front of webhooks/lambda.ts: each HTTP request becomes an
// APIGatewayProxyEvent (payload 1.0) with the body base64-encoded, as API Gateway sends binary media, and
// the handler's result becomes the HTTP response. For running the Lambda recipe on a laptop and in CI.
//
// Run: SHOP_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx harness/lambda-local.ts
import { createServer } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { handler } from '../webhooks/lambda.js';

function toEvent(method: string, path: string, headers: Record<string, string>, body: Buffer) {
  return {
    httpMethod: method,
    path,
    resource: path,
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {} as APIGatewayProxyEvent['requestContext'],
    body: body.toString('base64'),
    isBase64Encoded: true,
  } satisfies APIGatewayProxyEvent;
}

const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value;
  }
  const event = toEvent(request.method ?? 'GET', request.url ?? '/', headers, Buffer.concat(chunks));
  const result = await handler(event);
  response.writeHead(result.statusCode, result.headers as Record<string, string>);
  response.end(result.body);
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log('listening'));
