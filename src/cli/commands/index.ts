import { apiCommand } from './api.js';
import { completeFrom, completionCommand } from './completion.js';
import { doctorCommand } from './doctor.js';
import { exampleCommand } from './example.js';
import { listenCommand } from './listen.js';
import { loginCommand, logoutCommand, profilesCommand } from './login.js';
import { logsCommand } from './logs.js';
import { mcpCommand } from './mcp.js';
import { replayCommand } from './replay.js';
import { resourceCommands } from './resources.js';
import { sandboxCommand } from './sandbox.js';
import { sendCommand } from './send.js';
import { syncCommand } from './sync.js';
import { triggerCommand } from './trigger.js';
import { whoamiCommand } from './whoami.js';

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
  api: apiCommand,
  login: loginCommand,
  logout: logoutCommand,
  profiles: profilesCommand,
  whoami: whoamiCommand,
  doctor: doctorCommand,
  completion: completionCommand,
  // Every operation of the table, by the client's accessors: `range reservations list`, `me retrieve`, ...
  ...resourceCommands(),
};

completeFrom(() => COMMANDS);
