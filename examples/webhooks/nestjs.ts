// Receiving Shop webhooks in NestJS (Express platform).
//
// The pitfall: Nest parses JSON bodies before the controller runs. Create the app with `rawBody: true` and
// verify `req.rawBody`, the exact bytes received, never the parsed `@Body()`.
//
// Run: SHOP_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx webhooks/nestjs.ts
import 'reflect-metadata';
import { Controller, Module, Post, type RawBodyRequest, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request, Response } from 'express';
import { createWebhookHandler } from 'shop-mgmt/webhooks';

const webhooks = createWebhookHandler({
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  onEvent: (event) => console.log(`handled ${event.type} ${event.id}`),
});

@Controller('webhooks')
class ShopWebhooksController {
  /** `POST /webhooks/shop`: answers with the status and JSON body the handler chose. */
  @Post('shop')
  async receive(@Req() request: RawBodyRequest<Request>, @Res() response: Response): Promise<void> {
    const result = await webhooks.handle({ body: request.rawBody, headers: request.headers });
    response.status(result.status).type('application/json').send(result.body);
  }
}

@Module({ controllers: [ShopWebhooksController] })
class AppModule {}

const app = await NestFactory.create(AppModule, { rawBody: true, logger: ['error', 'warn'] });
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log('listening');
