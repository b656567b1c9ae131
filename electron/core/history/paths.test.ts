import { join } from 'node:path';
import { expect, it } from 'vitest';
import { appDataDir, defaultHistoryDir } from './paths';

it('the journal folder follows COUNTERSIGN_DATA_DIR, then the platform data folder', () => {
  expect(defaultHistoryDir({ COUNTERSIGN_DATA_DIR: '/data' }, 'linux', '/home/u')).toBe(join('/data', 'history'));
  expect(appDataDir({}, 'linux', '/home/u')).toBe(join('/home/u', '.config', 'countersign'));
  expect(appDataDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/u')).toBe(join('/xdg', 'countersign'));
  expect(appDataDir({}, 'darwin', '/Users/u')).toBe(join('/Users/u', 'Library', 'Application Support', 'Countersign'));
  expect(appDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toBe(
    join('C:\\Users\\u\\AppData\\Roaming', 'Countersign'),
  );
});
