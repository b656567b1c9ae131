// @ts-check
// ESLint for Countersign: typescript-eslint with type information, and the
// rules that pay for themselves here (issue 14): no `as never` / `as unknown as`
// in production code outside the named helpers, node: imports, relative
// imports without `.js`, lines within the formatter's width, and the layers
// (which folder may import what) as a lint rule in the style of VS Code's
// code-layering. Formatting itself is Prettier's job (`prettier --check`).
// Run: `npx eslint .` (npm test runs it with --cache in .cache/).
import { builtinModules } from 'node:module';
import { dirname as dirnamePath, isAbsolute, relative as relativePath, resolve as resolvePath } from 'node:path';
import tseslint from 'typescript-eslint';

/** Prettier's printWidth, and the line limit for everything Prettier cannot wrap. */
const LINE_WIDTH = { code: 120, tabWidth: 2, ignoreUrls: true };

/** Production sources (tests, fixtures, benches and test helpers are linted more loosely). */
const PRODUCTION = ['shared/**/*.{ts,tsx}', 'electron/**/*.{ts,tsx}', 'renderer/src/**/*.{ts,tsx}'];
const TESTS = [
  '**/*.test.{ts,tsx}',
  '**/testing/**',
  'test/**',
  'bench/**',
  'renderer/src/harness.tsx',
  'electron/**/fixtures/**',
];

// Files allowed to hold the casts the rule below bans: each is a small, named
// helper whose job is exactly that conversion (keep this list short).
const CAST_HELPERS = ['shared/host-api/host-client.ts'];
const CAST_BANS = [
  {
    selector: 'TSAsExpression[typeAnnotation.type="TSNeverKeyword"]',
    message: '`as never` hides a type error; type the value (or use a named helper).',
  },
  {
    selector: 'TSAsExpression > TSAsExpression.expression[typeAnnotation.type="TSUnknownKeyword"]',
    message: '`as unknown as` hides a type error; type the value (or use a named helper).',
  },
];
// The one production file that writes the protocol's own keys; everything else imports them from it or from
// the SDK (CLIENT_CAPABILITIES_META_KEY, RELATED_TASK_META_KEY, …). The `.` stands for the `/`, which
// esquery's regex syntax cannot hold.
const MCP_KEYS_FILE = 'electron/core/client-identity.ts';
const MCP_KEY_MESSAGE =
  'an io.modelcontextprotocol/* key: import it from the SDK (…_META_KEY) or electron/core/client-identity.ts';
const MCP_KEY_BANS = [
  { selector: 'Literal[value=/^io\\.modelcontextprotocol./]', message: MCP_KEY_MESSAGE },
  { selector: 'TemplateElement[value.raw=/^io\\.modelcontextprotocol./]', message: MCP_KEY_MESSAGE },
];

// An underscore-prefixed member is private to its object in all but name; on an SDK object (client,
// transport, server, read buffer) it is the SDK's internals, which a patch release may change silently
// (issue 25 item 1). Only the protocol's own fields that start with one are allowed: `_meta` is an MCP wire
// field. Checked everywhere (tests and benches too), on reads, writes, computed access and destructuring.
const PROTOCOL_UNDERSCORE = '(?!meta$)';
const UNDERSCORE_MESSAGE =
  "an underscore-prefixed member is the SDK's internals: use its public API (only `_meta` is a protocol field)";
const UNDERSCORE_BANS = [
  {
    selector: `MemberExpression[computed=false][property.name=/^_${PROTOCOL_UNDERSCORE}[a-zA-Z]/]`,
    message: UNDERSCORE_MESSAGE,
  },
  {
    selector: `MemberExpression[computed=true][property.value=/^_${PROTOCOL_UNDERSCORE}[a-zA-Z]/]`,
    message: UNDERSCORE_MESSAGE,
  },
  {
    selector: `ObjectPattern > Property[key.name=/^_${PROTOCOL_UNDERSCORE}[a-zA-Z]/]`,
    message: UNDERSCORE_MESSAGE,
  },
];

// `punycode` is also an npm package (the renderer bundles it); the deprecated built-in is never wanted.
const bareBuiltins = builtinModules.filter((m) => !m.startsWith('node:') && !m.startsWith('_') && m !== 'punycode');

/** Import restrictions every file gets: node: protocol, and relative imports without `.js`. */
const BASE_PATHS = bareBuiltins.map((name) => ({
  name,
  message: `Import Node built-ins with the node: protocol ('node:${name}').`,
}));
const BASE_PATTERNS = [
  {
    regex: '^\\.{1,2}/.*\\.js$',
    message: 'Relative imports are written without a .js suffix (one style across the tree).',
  },
  ...bareBuiltins.map((name) => ({
    regex: `^${name.replace(/[/]/g, '\\/')}/`,
    message: 'Import Node built-ins with the node: protocol.',
  })),
];

const NODE = { regex: '^node:', message: 'no Node built-ins in this layer' };
const ELECTRON = { regex: '^electron(/|$)', message: 'only the Electron glue (main, preload) imports electron' };
const REACT = { regex: '^(react|react-dom|@rjsf|@tanstack)(/|$)', message: 'no React in this layer' };
const SDK = { regex: '^@modelcontextprotocol/', message: 'the MCP SDK stays in the host process' };
/**
 * The one SDK piece the renderer runs: ext-apps' AppBridge, the host side of an MCP App's postMessage channel,
 * which must live beside the app's frame. Only renderer/src/views/tools/apps/ takes it (APP_BRIDGE_FOLDER).
 */
const SDK_BUT_APP_BRIDGE = {
  regex: '^@modelcontextprotocol/(?!ext-apps/app-bridge$)',
  message: 'the MCP SDK stays in the host process; the renderer takes only ext-apps/app-bridge, in views/tools/apps',
};
const APP_BRIDGE_FOLDER = 'renderer/src/views/tools/apps';

/** A relative-path ban: `layer` files may not reach into `folder` (matched on the specifier's path). */
const into = (folder, message) => ({ regex: `(^|/)${folder.replace(/\//g, '\\/')}(/|$)`, message });

/**
 * The layers. Imports point one way: renderer → shared; preload → shared;
 * core → shared; main/cli/web/gateway/demo → core + shared. Only main and
 * preload import electron. Relative specifiers are matched by the folder
 * names they pass through, which is exact for this tree's layout
 * (test/architecture/layers.test.ts checks the resolved targets too).
 */
const LAYERS = [
  {
    files: ['shared/**'],
    patterns: [
      NODE,
      ELECTRON,
      REACT,
      into('electron', 'shared imports only shared'),
      into('renderer', 'shared imports only shared'),
    ],
  },
  {
    files: ['renderer/**'],
    patterns: [NODE, ELECTRON, SDK, into('electron', 'the renderer reaches the host only through its HostApi')],
  },
  {
    files: [`${APP_BRIDGE_FOLDER}/**`],
    patterns: [
      NODE,
      ELECTRON,
      SDK_BUT_APP_BRIDGE,
      into('electron', 'the renderer reaches the host only through its HostApi'),
    ],
  },
  {
    files: ['electron/core/**'],
    patterns: [
      ELECTRON,
      REACT,
      into('renderer', 'core imports no front end'),
      ...['main', 'preload', 'cli', 'web', 'gateway', 'demo'].map((f) => into(f, 'core imports only core and shared')),
    ],
  },
  {
    files: ['electron/preload/**'],
    patterns: [
      NODE,
      REACT,
      SDK,
      into('renderer', 'the preload bundles only electron and shared/host-api'),
      ...['core', 'main', 'cli', 'web', 'gateway', 'demo'].map((f) =>
        into(f, 'the preload bundles only electron and shared/host-api'),
      ),
    ],
  },
  ...['cli', 'web', 'gateway', 'demo'].map((dir) => ({
    files: [`electron/${dir}/**`],
    patterns: [
      ELECTRON,
      REACT,
      into('renderer', 'front ends reach the core, not the renderer'),
      into('main', 'front ends reach the core, never each other'),
      into('preload', 'front ends reach the core, never each other'),
      // The CLI is the one front end that may start the others (`countersign web`, `gateway`).
      ...(dir === 'cli'
        ? []
        : ['cli', 'web', 'gateway']
            .filter((f) => f !== dir)
            .map((f) => into(f, 'front ends reach the core, never each other'))),
    ],
  })),
  {
    files: ['electron/main/**'],
    patterns: [
      REACT,
      into('renderer', 'front ends reach the core, not the renderer'),
      ...['cli', 'web', 'gateway', 'preload'].map((f) => into(f, 'front ends reach the core, never each other')),
    ],
  },
];

/**
 * The floors inside electron/core, ground first. A room is a folder of core (`tasks`) or a file at its top
 * (`host-error`); a room imports only itself and rooms on lower floors, so no import runs back up and no two
 * rooms import each other. Rooms on one floor are independent of each other. A room not listed stands on
 * the ground (it may import nothing of core until it is given a floor here). A file and a folder of one name
 * (host.ts, host/) are one room.
 */
const CORE_FLOORS = [
  ['client-identity', 'console-redaction', 'limits', 'no-inspector', 'task-record', 'terminal-output', 'web-response'],
  ['host-error'],
  ['events', 'storage'],
  ['history', 'links', 'passkeys'],
  ['prompter'],
  ['calls', 'config'],
  ['auth'],
  ['approval', 'connection'],
  ['tasks'],
  ['host'],
  ['apps'],
  ['service'],
];
const CORE_ROOT = resolvePath(import.meta.dirname, 'electron', 'core');

/** A file's room in electron/core (its top folder, or its own name at the top), or undefined outside core. */
function coreRoom(file) {
  const rel = relativePath(CORE_ROOT, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(/[\\/]/)[0].replace(/\.[cm]?[jt]sx?$/, '');
}

/** The literal module specifier of an import, export-from, import(), require() or import type, if any. */
function literalSpecifier(source) {
  if (source?.type === 'Literal' && typeof source.value === 'string') return source.value;
  if (source?.type === 'TemplateLiteral' && source.expressions.length === 0) return source.quasis[0]?.value.cooked;
  return undefined;
}

/** No import inside electron/core runs back up its floors (CORE_FLOORS); relative specifiers, resolved. */
const coreFloors = {
  meta: {
    type: 'problem',
    docs: { description: 'imports inside electron/core point down its floors (CORE_FLOORS), never up or sideways' },
    schema: [{ type: 'array', items: { type: 'array', items: { type: 'string' } } }],
  },
  create(context) {
    /** @type {string[][]} */
    const floors = context.options[0] ?? [];
    const floorOf = (room) => floors.findIndex((rooms) => rooms.includes(room)) + 1;
    const file = context.filename;
    const from = coreRoom(file);
    if (from === undefined) return {};
    /** @param {any} node @param {any} source */
    const check = (node, source) => {
      const spec = literalSpecifier(source);
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = coreRoom(resolvePath(dirnamePath(file), spec));
      if (to === undefined || to === from || floorOf(to) < floorOf(from)) return;
      context.report({
        node,
        message:
          `'${spec}' runs back up inside electron/core: ${from} (floor ${floorOf(from)}) imports only rooms on ` +
          `lower floors, and ${to} is on floor ${floorOf(to)} (CORE_FLOORS in eslint.config.mjs; ground = 0)`,
      });
    };
    return {
      /** @param {any} node */
      ImportDeclaration: (node) => check(node, node.source),
      /** @param {any} node */
      ExportNamedDeclaration: (node) => check(node, node.source),
      /** @param {any} node */
      ExportAllDeclaration: (node) => check(node, node.source),
      /** @param {any} node */
      ImportExpression: (node) => check(node, node.source),
      /** @param {any} node */
      'CallExpression[callee.type="Identifier"][callee.name="require"]': (node) => check(node, node.arguments[0]),
      /** @param {any} node */
      TSImportType: (node) => check(node, node.source ?? node.argument?.literal),
    };
  },
};

/** One no-restricted-imports setting (flat config replaces a rule's options, so each layer carries the base too). */
const restrictedImports = (extra = []) => ['error', { paths: BASE_PATHS, patterns: [...BASE_PATTERNS, ...extra] }];

/**
 * no-restricted-imports sees `import … from`, `export … from` and
 * `import x = require()`. The same paths and patterns must hold for the other
 * ways a module is loaded: `import('electron')`, `require('electron')` and
 * `typeof import('electron')`; otherwise a layer rule is one rewrite away
 * from passing. Only literal specifiers are checked (a computed one is not a
 * layering decision the linter can see).
 */
const restrictedLoads = {
  meta: {
    type: 'problem',
    docs: { description: 'the no-restricted-imports paths and patterns, for dynamic import, require and import types' },
    schema: [
      {
        type: 'object',
        properties: { paths: { type: 'array' }, patterns: { type: 'array' } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { paths = [], patterns = [] } = context.options[0] ?? {};
    const compiled = patterns.map((p) => ({ re: new RegExp(p.regex), message: p.message }));
    /** @param {any} node @param {any} source */
    const check = (node, source) => {
      const spec = literalSpecifier(source);
      if (typeof spec !== 'string') return;
      for (const p of paths)
        if (p.name === spec)
          context.report({ node, message: `'${spec}' import is restricted from being used. ${p.message}` });
      for (const p of compiled)
        if (p.re.test(spec))
          context.report({
            node,
            message: `'${spec}' import is restricted from being used by a pattern. ${p.message}`,
          });
    };
    return {
      /** @param {any} node */
      ImportExpression: (node) => check(node, node.source),
      /** @param {any} node */
      'CallExpression[callee.type="Identifier"][callee.name="require"]': (node) => check(node, node.arguments[0]),
      /** @param {any} node */
      TSImportType: (node) => check(node, node.source ?? node.argument?.literal),
    };
  },
};
const local = { rules: { 'restricted-loads': restrictedLoads, 'core-floors': coreFloors } };
/** Both rules with one setting: the static imports and every other way of loading a module. */
const importRules = (extra = []) => ({
  'no-restricted-imports': restrictedImports(extra),
  'countersign/restricted-loads': restrictedImports(extra),
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      'release/**',
      'coverage/**',
      '.cache/**',
      'test-results/**',
      '**/*.d.ts',
      'renderer/public/**',
    ],
  },
  {
    files: ['**/*.{ts,tsx,mts,cts,mjs,js,cjs}'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.mjs', 'bin/*.mjs', 'scripts/*.mjs'],
          // The plain-JS scripts and the launcher (about a dozen small files; the default allows 8).
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 24,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, countersign: local },
    rules: {
      ...importRules(),
      // Type-aware checks that catch real bugs in async host code.
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true, ignoreIIFE: true }],
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // `<T>x` is gone everywhere; object literals are typed, not asserted.
      '@typescript-eslint/consistent-type-assertions': [
        'error',
        { assertionStyle: 'as', objectLiteralTypeAssertions: 'allow-as-parameter' },
      ],
      // Prettier wraps code at 120; what it cannot wrap must fit too: comments,
      // and strings, template literals and regexes (split a long sentence into
      // parts joined with +; the string stays the same). Only a line holding a
      // URL may be longer, so that a URL stays whole and can be searched for.
      'max-len': ['error', LINE_WIDTH],
    },
  },
  // No file reaches into the SDK's underscore-prefixed internals; tests, fixtures, benches and scripts keep
  // only this one of the restricted-syntax bans (the production entries below repeat it with theirs).
  { files: ['**/*.{ts,tsx,mts,cts,mjs,js,cjs}'], rules: { 'no-restricted-syntax': ['error', ...UNDERSCORE_BANS] } },
  // The casts that silence the type checker: banned in production code. And the protocol's
  // `io.modelcontextprotocol/*` keys are written in one file (or taken from the SDK's exports).
  {
    files: PRODUCTION,
    ignores: [...TESTS, ...CAST_HELPERS, MCP_KEYS_FILE],
    rules: { 'no-restricted-syntax': ['error', ...CAST_BANS, ...MCP_KEY_BANS, ...UNDERSCORE_BANS] },
  },
  { files: [MCP_KEYS_FILE], rules: { 'no-restricted-syntax': ['error', ...CAST_BANS, ...UNDERSCORE_BANS] } },
  { files: CAST_HELPERS, rules: { 'no-restricted-syntax': ['error', ...MCP_KEY_BANS, ...UNDERSCORE_BANS] } },

  // What Countersign's own processes print goes through terminalText (a server's escape sequences and bidi
  // overrides shown escaped): only electron/core/terminal-output.ts writes to stdout and stderr.
  {
    files: ['electron/{cli,gateway,core,web}/**/*.{ts,tsx}'],
    ignores: [...TESTS, 'electron/core/terminal-output.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        ...['stdout', 'stderr'].map((property) => ({
          object: 'process',
          property,
          message: 'print through the CLI io (electron/cli/io.ts) or electron/core/terminal-output.ts (terminalText)',
        })),
      ],
    },
  },
  ...LAYERS.map((layer) => ({
    files: layer.files,
    ignores: TESTS,
    rules: importRules(layer.patterns),
  })),
  {
    files: ['electron/core/**/*.{ts,tsx}'],
    ignores: TESTS,
    rules: { 'countersign/core-floors': ['error', CORE_FLOORS] },
  },
  // Tests and fixtures: test names and expected texts may run long (about 125
  // such lines in 60 test files; an expected text is easier to check whole),
  // but code and comments keep the width. Asserting a fixture's shape or
  // awaiting a maybe-async helper is harmless.
  {
    files: TESTS,
    rules: {
      'max-len': [
        'error',
        { ...LINE_WIDTH, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      '@typescript-eslint/await-thenable': 'off',
      // `getByLabelText(...) as HTMLInputElement` reads better in a test than type arguments.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'as' }],
    },
  },
);
