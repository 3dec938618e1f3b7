// Layer rules (docs/architecture.md, "Layers"): imports point down only. One rule per folder, no exemption lists.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import path from 'node:path';

const nativeOrUi = [
  'electron',
  'serialport',
  '@serialport/*',
  'better-sqlite3',
  'react',
  'react-dom',
  'react-dom/*',
  'zustand',
  'zustand/*',
  'ws',
];

// The MCP SDK (client and server) and its processes and sockets live only in host/plugins/mcp/ (the client) and host/front/mcp/ (the server).
const mcpSdk = ['@modelcontextprotocol/*'];

/**
 * The folders of the ways in (devices/links/way-in.ts): only their list, devices/ways-in/, names
 * them. The registry, pairing, the device tools and the host reach a device through the seam.
 */
const wayInFolders = ['modbus', 'mqtt', 'serial'];

/** @param {string[]} layers @param {string[]} packages @param {{ aboveTheSeam?: boolean }} [options] */
function forbid(layers, packages, options = {}) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...layers.map((layer) => ({
            group: [`**/${layer}/*`, `**/${layer}`],
            message: `Bad layering: this folder must not import ${layer}/ (docs/architecture.md, Layers).`,
          })),
          ...(options.aboveTheSeam
            ? wayInFolders.map((folder) => ({
                group: [`**/devices/${folder}/*`, `../${folder}/*`],
                message: `Above the seam: reach a device through devices/links/ (a WayIn), never devices/${folder}/ (docs/architecture.md, The way-in seam).`,
              }))
            : []),
          ...(packages.length
            ? [
                {
                  group: packages,
                  message: 'Bad layering: this package belongs to another layer (docs/architecture.md, Layers).',
                },
              ]
            : []),
        ],
      },
    ],
  };
}

/**
 * The order of the sub-folders inside each layer, lowest first (docs/architecture.md, Layers): a file
 * may import its own sub-folder and those listed before it, never one listed after it. A sub-folder
 * missing from its layer's list is an error too, so the order stays declared in full.
 */
const folderOrder = {
  core: ['text', 'tools', 'plugins', 'prompt', 'models', 'stream', 'context', 'events', 'batch', 'agent'],
  devices: [
    'files',
    'protocol',
    'transport',
    'profiles',
    'links',
    'registry',
    'session',
    'simulator',
    'discovery',
    'serial',
    'modbus',
    'mqtt',
    'tools',
    'ways-in',
    'pairing',
  ],
  host: [
    'contract',
    'config',
    'secrets',
    'store',
    'approvals',
    'plugins',
    'models',
    'devices',
    'api',
    'app',
    'link',
    'front',
  ],
};

/** The visitors of a rule that checks every module a file names: imports, re-exports, `import()`. */
function everyImport(check) {
  return {
    ImportDeclaration: check,
    ExportNamedDeclaration: check,
    ExportAllDeclaration: check,
    ImportExpression: check,
  };
}

/** Reports a relative import of a sub-folder of the same layer listed above the importing file's own. */
const folderOrderRule = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { layer: { type: 'string' }, folders: { type: 'array' } } }],
  },
  create(context) {
    const { layer, folders } = context.options[0];
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const [, own] = file.split('/');
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const [targetLayer, target, ...rest] = path.posix.join(path.posix.dirname(file), spec).split('/');
      if (targetLayer !== layer || rest.length === 0 || target === own) return;
      const unlisted = [own, target].find((folder) => !folders.includes(folder));
      const message = unlisted
        ? `Folder order: ${layer}/${unlisted}/ is not in the folder order of eslint.config.js (docs/architecture.md, Layers).`
        : folders.indexOf(target) > folders.indexOf(own)
          ? `Folder order: ${layer}/${own}/ must not import ${layer}/${target}/, which sits above it (docs/architecture.md, Layers): move what both need down.`
          : undefined;
      if (message) context.report({ node: node.source, message });
    };
    return everyImport(check);
  },
};
const homeAgentLint = { rules: { 'folder-order': folderOrderRule } };

/**
 * Front ends apart from services (docs/architecture.md, Layers): the services (host/ outside
 * host/front/) never import a front end; a front end (host/front/NAME/) imports none of the others
 * and not the composition root; host/front/command-line/, which every front end may import, imports
 * none of them; Electron's main process is a front end beside them. Only host/front/*.ts, the
 * composition root, imports several.
 */
const FRONT = 'host/front/';
/** The composition file that gives a window's host what other front ends add to it (Electron's main imports it). */
const WINDOW_DOORS = 'host/front/link-doors.ts';
/** The folder of host/front/ every front end may import. */
const SHARED_FRONT = 'command-line';

/** The file an import names, relative to the repository (undefined for a package). */
function importedFile(context, node) {
  const spec = node.source?.value;
  if (typeof spec !== 'string' || !spec.startsWith('.')) return undefined;
  return path
    .relative(context.cwd, path.resolve(path.dirname(context.filename), spec))
    .split(path.sep)
    .join('/');
}

/** @param {(file: string, target: string) => string | undefined} refusal the message, when `file` may not import `target` */
function frontEndRule(refusal) {
  return {
    meta: { type: 'problem', schema: [] },
    create(context) {
      const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
      const check = (node) => {
        const target = importedFile(context, node);
        const message = target === undefined ? undefined : refusal(file, target);
        if (message) context.report({ node: node.source, message });
      };
      return everyImport(check);
    },
  };
}

/** The front end a file of host/front/ belongs to (its folder), or undefined for the composition root. */
function frontEndOf(file) {
  const [folder, ...rest] = file.slice(FRONT.length).split('/');
  return rest.length > 0 ? folder : undefined;
}

const frontEnds = {
  rules: {
    'services-below': frontEndRule((_file, target) =>
      target.startsWith(FRONT)
        ? `Bad layering: the services (host/ outside host/front/) must not import a front end (${target}); a front end hands them what it read (docs/architecture.md, Layers).`
        : undefined,
    ),
    apart: frontEndRule((file, target) => {
      if (!target.startsWith(FRONT)) return undefined;
      const own = frontEndOf(file);
      if (target.startsWith(`${FRONT}${own}/`)) return undefined;
      if (own === SHARED_FRONT)
        return `Bad layering: host/front/command-line/ is shared by every front end and imports none of them (${target}) (docs/architecture.md, Layers).`;
      if (target.startsWith(`${FRONT}${SHARED_FRONT}/`)) return undefined;
      return `Bad layering: a front end never imports another front end or the composition root (${target}); host/front/front-ends.ts composes them (docs/architecture.md, Layers).`;
    }),
    'electron-beside': frontEndRule((_file, target) =>
      target.startsWith(FRONT) && target !== WINDOW_DOORS
        ? `Bad layering: Electron's main process is a front end beside host/front/, never importing it (${target}); what both need lives in the services (docs/architecture.md, Layers).`
        : undefined,
    ),
  },
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.vite', 'out', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // No import points up inside a layer: one block per layer, from folderOrder.
  ...Object.entries(folderOrder).map(([layer, folders]) => ({
    files: [`${layer}/**/*.ts`],
    plugins: { 'home-agent': homeAgentLint },
    rules: { 'home-agent/folder-order': ['error', { layer, folders }] },
  })),
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['core/**/*.ts', 'devices/**/*.ts', 'host/**/*.ts', 'electron/**/*.ts'],
    rules: {
      // Node 20 collects a timeout signal that only AbortSignal.any refers to before it fires.
      'no-restricted-properties': [
        'error',
        {
          object: 'AbortSignal',
          property: 'timeout',
          message:
            'A deadline that can be collected before it fires: use deadlineSignal (core/text/deadline-signal.ts).',
        },
      ],
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: forbid(
      ['devices', 'host', 'electron', 'renderer'],
      [...nativeOrUi, ...mcpSdk, 'node:fs', 'node:child_process', 'node:net', 'node:http'],
    ),
  },
  {
    files: ['devices/**/*.ts'],
    rules: forbid(
      ['host', 'electron', 'renderer'],
      ['electron', 'better-sqlite3', 'react', 'react-dom', 'zustand', 'ws', ...mcpSdk],
    ),
  },
  {
    files: ['devices/{links,registry,pairing,tools,profiles}/**/*.ts'],
    rules: forbid(
      ['host', 'electron', 'renderer'],
      ['electron', 'better-sqlite3', 'react', 'react-dom', 'zustand', 'ws', ...mcpSdk],
      { aboveTheSeam: true },
    ),
  },
  {
    files: ['host/**/*.ts'],
    rules: forbid(['electron', 'renderer'], ['electron', 'react', 'react-dom', 'zustand', ...mcpSdk], {
      aboveTheSeam: true,
    }),
  },
  // MCP both ways (host/plugins/mcp, host/front/mcp): may use the SDK, and core, devices and host below it.
  {
    files: ['host/front/mcp/**/*.ts', 'host/plugins/mcp/**/*.ts'],
    rules: forbid(['electron', 'renderer'], ['electron', 'react', 'react-dom', 'zustand'], { aboveTheSeam: true }),
  },
  {
    files: ['electron/**/*.ts'],
    rules: forbid(['renderer', 'core', 'devices'], ['serialport', 'better-sqlite3', 'react', ...mcpSdk]),
  },
  // Front ends apart from services and from each other (frontEnds above).
  {
    files: ['host/**/*.ts'],
    ignores: ['host/front/**'],
    plugins: { 'front-ends': frontEnds },
    rules: { 'front-ends/services-below': 'error' },
  },
  {
    files: ['host/front/*/**/*.ts'],
    plugins: { 'front-ends': frontEnds },
    rules: { 'front-ends/apart': 'error' },
  },
  {
    files: ['electron/**/*.ts'],
    plugins: { 'front-ends': frontEnds },
    rules: { 'front-ends/electron-beside': 'error' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(core|devices|electron)/|^(\\.\\./)+host/(?!contract/)',
              message: 'Bad layering: the renderer sees only host/contract (docs/architecture.md, Layers).',
            },
            {
              group: ['electron', 'serialport', 'better-sqlite3', 'node:*', 'ws'],
              message: 'Bad layering: the renderer never touches Node (docs/architecture.md, Layers).',
            },
          ],
        },
      ],
      // Names, models and answers come from devices and people: the window renders text as text, never as markup.
      'no-restricted-syntax': [
        'error',
        ...[
          "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          'AssignmentExpression > MemberExpression.left[property.name=/^(innerHTML|outerHTML)$/]',
          "CallExpression > MemberExpression.callee[property.name='insertAdjacentHTML']",
        ].map((selector) => ({
          selector,
          message: 'The window renders text as text (docs/security.md): put strings in as React children.',
        })),
      ],
    },
  },
);
