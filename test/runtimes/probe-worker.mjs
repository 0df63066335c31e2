// Entry for workerd (Cloudflare Workers through miniflare): bundled with esbuild; the URL and key arrive as
// bindings, with a D1 database for the D1 inbox, and the Worker answers the probe's result as JSON.
import { runProbe } from './probe.mjs';

export default {
  async fetch(_request, env) {
    try {
      const passed = await runProbe({ url: env.SHOP_URL, key: env.SHOP_KEY, d1: env.DB });
      return Response.json({ ok: true, passed });
    } catch (error) {
      return Response.json({ ok: false, error: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
