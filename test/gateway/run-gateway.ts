// The gateway as a real process, exactly as `countersign gateway` runs it
// (the CLI's dispatch is one switch case in front of runGatewayCommand).
import { runGatewayCommand } from '../../electron/cli/gateway-command';
import { processIo } from '../../electron/cli/io';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());
const code = await runGatewayCommand(process.argv.slice(2), processIo(controller.signal));
process.exitCode = code;
// Child servers are closed by now; a stray handle must not keep the process alive.
setTimeout(() => process.exit(code), 1000).unref();
