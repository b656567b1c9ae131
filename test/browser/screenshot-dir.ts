// Where the browser tests write their screenshots. `npm test` must leave the
// working tree clean, so by default they go to the git-ignored .cache/screenshots;
// `npm run docs` sets COUNTERSIGN_SCREENSHOT_DIR=docs/screenshots to refresh the
// committed ones deliberately.
import { isAbsolute, join } from 'node:path';
import { repoRoot } from './paint-latency';

const fromEnv = process.env.COUNTERSIGN_SCREENSHOT_DIR;

/** The folder screenshots are written to (absolute). */
export const screenshotDir = fromEnv
  ? isAbsolute(fromEnv)
    ? fromEnv
    : join(repoRoot, fromEnv)
  : join(repoRoot, '.cache', 'screenshots');
