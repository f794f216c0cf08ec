// A Cloudflare Worker: the module a user deploys with `wrangler deploy`, bundled as wrangler bundles it.
import { createHandler } from './server.mjs';

const handler = createHandler();
export default { fetch: (request) => handler(request) };
