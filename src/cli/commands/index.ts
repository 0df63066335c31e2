import { exampleCommand } from './example.js';
import { listenCommand } from './listen.js';
import { logsCommand } from './logs.js';
import { mcpCommand } from './mcp.js';
import { replayCommand } from './replay.js';
import { sandboxCommand } from './sandbox.js';
import { sendCommand } from './send.js';
import { syncCommand } from './sync.js';
import { triggerCommand } from './trigger.js';

/** The commands of `shop-mgmt`, by name (the strict check of the command line reads their args). */
export const COMMANDS = {
  sandbox: sandboxCommand,
  listen: listenCommand,
  trigger: triggerCommand,
  replay: replayCommand,
  sync: syncCommand,
  logs: logsCommand,
  send: sendCommand,
  example: exampleCommand,
  mcp: mcpCommand,
};
