import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/run-cli.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

/** The front-end rules' complaints about `code` as if it were `file`. */
async function frontEndErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId?.startsWith('front-ends/'))
    .map((message) => message.message);
}

const importing = (spec: string): string => `import { x } from '${spec}';\nexport const y = x;\n`;

describe('front ends apart from services (docs/architecture.md, Layers)', () => {
  it('forbids the services from importing a front end', async () => {
    const errors = await frontEndErrors('host/app/example.ts', importing('../front/cli/cli-thing.ts'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('docs/architecture.md');
    expect(
      await frontEndErrors('host/config/example.ts', importing('../front/command-line/common-flags.ts')),
    ).toHaveLength(1);
    expect(await frontEndErrors('host/plugins/mcp/example.ts', importing('../../front/mcp/mcp-token.ts'))).toHaveLength(
      1,
    );
    expect(await frontEndErrors('host/app/example.ts', importing('../front/front-ends.ts'))).toHaveLength(1);
  });

  it('lets the services import each other and front ends import the services', async () => {
    expect(await frontEndErrors('host/app/example.ts', importing('../config/data-dir.ts'))).toEqual([]);
    expect(await frontEndErrors('host/front/web/example.ts', importing('../../app/start-host.ts'))).toEqual([]);
    expect(await frontEndErrors('host/front/mcp/example.ts', importing('../../secrets/token-file.ts'))).toEqual([]);
  });

  it('forbids a front end from importing another front end or the composition root', async () => {
    const errors = await frontEndErrors('host/front/cli/commands/example.ts', importing('../../web/web-server.ts'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('docs/architecture.md');
    expect(await frontEndErrors('host/front/mcp/example.ts', importing('../web/web-server.ts'))).toHaveLength(1);
    expect(await frontEndErrors('host/front/web/example.ts', importing('../mcp/mcp-token.ts'))).toHaveLength(1);
    expect(await frontEndErrors('host/front/web/example.ts', importing('../cli/run-command-line.ts'))).toHaveLength(1);
    expect(await frontEndErrors('host/front/cli/example.ts', importing('../front-ends.ts'))).toHaveLength(1);
    const lazy = "export const load = () => import('../../mcp/mcp-command.ts');\n";
    expect(await frontEndErrors('host/front/cli/commands/example.ts', lazy)).toHaveLength(1);
  });

  it('lets a front end import its own files and the shared command-line folder', async () => {
    expect(await frontEndErrors('host/front/web/example.ts', importing('./web-server.ts'))).toEqual([]);
    expect(await frontEndErrors('host/front/cli/commands/example.ts', importing('../people-output.ts'))).toEqual([]);
    expect(await frontEndErrors('host/front/mcp/example.ts', importing('../command-line/cli-io.ts'))).toEqual([]);
  });

  it('keeps the shared command-line folder free of every front end', async () => {
    const errors = await frontEndErrors('host/front/command-line/example.ts', importing('../cli/run-command-line.ts'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('shared by every front end and imports none of them');
    expect(await frontEndErrors('host/front/command-line/example.ts', importing('../front-ends.ts'))).toHaveLength(1);
    expect(await frontEndErrors('host/front/command-line/example.ts', importing('./cli-io.ts'))).toEqual([]);
  });

  it('forbids Electron’s main process from importing host/front/, and lets it start the host', async () => {
    const errors = await frontEndErrors('electron/example.ts', importing('../host/front/command-line/common-flags.ts'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('docs/architecture.md');
    expect(await frontEndErrors('electron/example.ts', importing('../host/app/start-host.ts'))).toEqual([]);
    // What the front ends add to a window's host comes from the one composition file for it, and no other.
    expect(await frontEndErrors('electron/example.ts', importing('../host/front/link-doors.ts'))).toEqual([]);
    expect(await frontEndErrors('electron/example.ts', importing('../host/front/front-ends.ts'))).toHaveLength(1);
  });

  it('lets only the composition root (host/front/*.ts) import several front ends', async () => {
    const code = `${importing('./cli/run-command-line.ts')}export const load = () => import('./web/serve-command.ts');\nexport const other = () => import('./mcp/mcp-command.ts');\n`;
    expect(await frontEndErrors('host/front/front-ends.ts', code)).toEqual([]);
    expect(await frontEndErrors('host/front/cli/example.ts', code.replaceAll('./', '../'))).toHaveLength(2);
  });
});
