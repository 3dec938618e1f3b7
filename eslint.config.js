// Layer rules (docs/architecture.md, "Layers"): imports point down only. One rule per folder, no exemption lists.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
const wayInFolders = ['modbus', 'mqtt'];

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

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.vite', 'out', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
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
