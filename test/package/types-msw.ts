// Type-checked with skipLibCheck off in a project with msw: `sandbox.handlers` still spreads into msw, and
// `shop-mgmt/testing/msw` gives msw's own HttpHandler type.
import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox } from 'shop-mgmt/testing';
import { sandboxHandlers } from 'shop-mgmt/testing/msw';

const sandbox = createSandbox({ seed: 1 });
const typed: HttpHandler[] = sandboxHandlers(sandbox);
export const servers = [setupServer(...sandbox.handlers), setupServer(...typed)];
