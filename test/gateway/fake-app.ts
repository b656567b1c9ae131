// A stand-in for the desktop app, started BY the gateway in the auto-start
// test (named in app-command.json): the real HostService and approval server on
// COUNTERSIGN_DATA_DIR, a "human" who declines everything, and a pid file so
// the test can stop it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApprovalServer } from '../../electron/core/approval/approval-server';
import { HostService } from '../../electron/core/service/host-service';

const dataDir = process.env.COUNTERSIGN_DATA_DIR!;
const service = await HostService.create({ dataDir, openExternal: async () => undefined, connectOnStart: false });
service.log = () => undefined;
service.on(
  'questionAdded',
  (q) => void service.invoke('answerQuestion', { questionId: q.id, answer: { action: 'decline' } }),
);
// Slow on purpose: the gateway must wait for a started app, not give up at once.
await new Promise((r) => setTimeout(r, 300));
const approval = await startApprovalServer({ service, dataDir, app: 'fake' });
writeFileSync(join(dataDir, 'fake-app.pid'), String(process.pid));
const stop = async () => {
  await approval.close();
  await service.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
setTimeout(() => void stop(), 60_000).unref();
setInterval(() => undefined, 1_000);
