// `countersign gateway`: the MCP server agents add, e.g.
//   claude mcp add countersign -- node /path/to/countersign/bin/countersign.mjs gateway
// It exposes the configured servers; every question they ask goes to the
// human in the Countersign app, never to the agent. In stdio mode stdout is
// the MCP channel: everything else goes to stderr.
import { parseCommandFlags, parsePort, untilAborted } from './run-flags';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Transport } from '@modelcontextprotocol/server';
import { defaultLauncher, type AppLauncher } from '../gateway/app-launcher';
import { approverChoice } from '../gateway/approver-config';
import { HostError, messageOf } from '../core/host-error';
import { openDataFolder } from '../core/storage/private-files';
import { Gateway, type GatewayOptions } from '../gateway/gateway';
import { loadHttpToken, startHttpEndpoint } from '../gateway/http-endpoint';
import { serveGatewayStdio } from '../gateway/stdio';
import { errorLine, logTo, type CliIo } from './io';
import { terminalText } from '../../shared/terminal-text';
import { dataDir } from './paths';

export const GATEWAY_USAGE =
  'usage: countersign gateway [--data-dir DIR] [--no-start-app] ' +
  `[--approver USER --approval-dir DIR] [--http [--port N] [--new-token]] [--keep-alive SECONDS]
  an MCP server for agents (Claude Code, Codex, VS Code, ...): the tools, prompts and resources of the
  servers configured in Countersign, named <server>__<name>. Every question a server asks is answered
  by the user in the Countersign app; the agent only gets the final result.
  (default)       serve MCP over stdio, for an agent to launch: ` +
  `claude mcp add countersign -- node /path/to/countersign/bin/countersign.mjs gateway
  --http          serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead, for agents that take a URL;
                  every request needs "Authorization: Bearer <token>" (token in DIR/run/gateway-http.token)
  --port N        the HTTP port (default: a free one; choose one so the agent's configuration stays valid)
  --new-token     replace the saved HTTP token
  --data-dir DIR  servers, settings and the app's approval channel (default: the platform data folder,
                  or COUNTERSIGN_DATA_DIR)
  --keep-alive SECONDS
                  while the user decides, end each request of a 2026-07-28 agent (one without tasks) after
                  this long with a result that makes it repeat the request, so that its own per-request
                  timeout does not end the call (default 50, under the 60 s most agents allow; 0: never)
  --no-start-app  when a question arrives and the app is not running, do not start it: the call ends
                  with "approval app not running, nothing was done" (also: COUNTERSIGN_GATEWAY_AUTOSTART=0)
  --approver USER --approval-dir DIR
                  the agent runs as its own OS user: send questions only to USER's Countersign app, which
                  shares its socket in DIR; before each connection the gateway checks that only USER (or
                  root) can have bound it, and refuses otherwise (also: "approver" and "approvalDir" in the
                  data folder's gateway.json). The app is never started.`;

/** What tests and embedders may supply instead of the process's own. */
export interface GatewayCommandDeps {
  /** The stdio transport (default: this process's stdin/stdout). */
  transport?: Transport;
  /** How to start the app (default: chosen by defaultLauncher; null: never). */
  launcher?: AppLauncher | null;
  /** Replaces the approval channel (benchmarks). */
  approval?: GatewayOptions['approval'];
}

function numberFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new HostError('config', `${name} must be a positive number of milliseconds, not ${JSON.stringify(raw)}`);
  return n;
}

/** `--keep-alive SECONDS` in milliseconds (0: off), or undefined when not given. */
function keepAliveFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(seconds))
    throw new HostError('config', `--keep-alive must be a number of seconds (0: never), not ${JSON.stringify(raw)}`);
  return Math.round(seconds * 1000);
}

/** Run `countersign gateway`; resolves with the exit code once the agent hangs up (stdio) or on Ctrl-C (HTTP). */
export async function runGatewayCommand(argv: string[], io: CliIo, deps: GatewayCommandDeps = {}): Promise<number> {
  // --help goes to stderr too: an agent that runs `gateway --help` reads stdout as MCP.
  const flags = parseCommandFlags(
    io,
    GATEWAY_USAGE,
    () => {
      const { values } = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: false,
        options: {
          'data-dir': { type: 'string' },
          http: { type: 'boolean' },
          port: { type: 'string' },
          'new-token': { type: 'boolean' },
          'no-start-app': { type: 'boolean' },
          'keep-alive': { type: 'string' },
          approver: { type: 'string' },
          'approval-dir': { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      const port = parsePort(values.port);
      if ((values.port !== undefined || values['new-token']) && !values.http)
        throw new HostError('config', '--port and --new-token need --http');
      const keepAliveMs = keepAliveFlag(values['keep-alive']);
      const env = {
        keepAliveMs: keepAliveMs ?? numberFromEnv(io.env, 'COUNTERSIGN_GATEWAY_KEEP_ALIVE_MS'),
        keepAliveGraceMs: numberFromEnv(io.env, 'COUNTERSIGN_GATEWAY_KEEP_ALIVE_GRACE_MS'),
        startTimeoutMs: numberFromEnv(io.env, 'COUNTERSIGN_GATEWAY_START_TIMEOUT_MS'),
        progressIntervalMs: numberFromEnv(io.env, 'COUNTERSIGN_GATEWAY_PROGRESS_MS'),
        requestTimeoutMs: numberFromEnv(io.env, 'COUNTERSIGN_GATEWAY_REQUEST_TIMEOUT_MS'),
      };
      return { values, port, env };
    },
    'stderr',
  );
  if (typeof flags === 'number') return flags;
  const { values, port, env } = flags;

  const dir = values['data-dir'] !== undefined ? resolve(values['data-dir']) : dataDir(io.env);
  const log = logTo(io);
  let gateway: Gateway | undefined;
  try {
    // Before anything in it is read: ours and no symlink, or refused; tightened when loose.
    await openDataFolder(dir);
    const choice = approverChoice(dir, {
      ...(values.approver !== undefined ? { approver: values.approver } : {}),
      ...(values['approval-dir'] !== undefined ? { approvalDir: values['approval-dir'] } : {}),
    });
    if (choice) {
      io.stderr(
        `countersign gateway: questions go only to ${choice.approver.name}'s Countersign app in ` +
          `${choice.approvalDir} (checked before each connection: ` +
          `only ${choice.approver.name} or root can have bound its socket)`,
      );
      if (choice.approver.uid === process.getuid?.())
        io.stderr(
          `countersign gateway: warning: the approver ${choice.approver.name} is this gateway's own user, ` +
            'so this is no boundary: run the agent as another user (docs/agents.md)',
        );
    }
    const launcher =
      choice || values['no-start-app'] === true
        ? null
        : deps.launcher !== undefined
          ? deps.launcher
          : defaultLauncher({
              env: io.env,
              dataDir: dir,
              log,
              defaultDataDir: values['data-dir'] === undefined && !io.env.COUNTERSIGN_DATA_DIR,
            });
    gateway = await Gateway.open({
      dataDir: dir,
      launcher,
      ...(choice ? { approver: choice.approver, approvalDir: choice.approvalDir } : {}),
      log,
      ...(deps.approval ? { approval: deps.approval } : {}),
      ...(env.startTimeoutMs !== undefined ? { startTimeoutMs: env.startTimeoutMs } : {}),
      ...(env.progressIntervalMs !== undefined ? { progressIntervalMs: env.progressIntervalMs } : {}),
      ...(env.requestTimeoutMs !== undefined ? { requestTimeoutMs: env.requestTimeoutMs } : {}),
      ...(env.keepAliveMs !== undefined ? { keepAliveMs: env.keepAliveMs } : {}),
      ...(env.keepAliveGraceMs !== undefined ? { keepAliveGraceMs: env.keepAliveGraceMs } : {}),
    });
    const names = gateway.serverNames();
    const serving =
      names.length === 0
        ? `no servers configured in ${dir}`
        : `serving ${names.map((n) => `"${terminalText(n)}"`).join(', ')}`;
    io.stderr(`countersign gateway: ${serving}`);

    if (values.http) {
      const { token, file, created } = await loadHttpToken(dir, values['new-token'] === true);
      const endpoint = await startHttpEndpoint({ gateway, token, port, log });
      io.stdout(`LISTENING ${endpoint.url}`);
      io.stdout(created ? `Bearer token (new; also saved in ${file}): ${token}` : `Bearer token: saved in ${file}`);
      try {
        await untilAborted(io.signal);
      } finally {
        await endpoint.close();
      }
    } else {
      const served = serveGatewayStdio(gateway, deps.transport);
      await Promise.race([served.closed, untilAborted(io.signal)]);
      await served.close();
    }
    return 0;
  } catch (error) {
    io.stderr(errorLine(messageOf(error)));
    return 2;
  } finally {
    await gateway?.close();
  }
}
