// A bare stdio relay for the gateway benchmark: a process that only pipes
// bytes between its own stdio and a child's, with no parsing at all. It
// prices the extra process hop alone, so the gateway's own work is what it
// costs beyond this. Usage: node --import tsx bench/stdio-relay.ts <command> [args...]
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: stdio-relay <command> [args...]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
