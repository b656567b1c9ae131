// A second process writing servers.json (for servers-hand-edits.test.ts):
// adds `count` servers named `<prefix>-<i>`, one update each, through the
// same ServersFile the app uses, then prints "done".
import { ServersFile } from '../../../electron/core/config/servers-file';

const [file, prefix, count] = process.argv.slice(2);
const servers = await ServersFile.open(file!);
for (let i = 0; i < Number(count); i++) {
  const name = `${prefix}-${i}`;
  await servers.update((raw) => void (raw[name] = { command: process.execPath, args: ['-e', '', name] }));
}
process.stdout.write('done\n');
