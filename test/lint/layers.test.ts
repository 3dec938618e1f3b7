import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/run-cli.ts';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function layeringErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return (result?.messages ?? [])
    .filter((message) => message.message.includes('Bad layering'))
    .map((message) => message.message);
}

describe('layer rules (docs/architecture.md, Layers)', () => {
  it('forbids core/ from importing another layer or a native package', async () => {
    expect(
      await layeringErrors(
        'core/agent/example.ts',
        "import { x } from '../../host/app/version.ts';\nexport const y = x;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layeringErrors(
        'core/agent/example.ts',
        "import Database from 'better-sqlite3';\nexport const y = Database;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layeringErrors(
        'core/agent/example.ts',
        "import { SerialPort } from 'serialport';\nexport const y = SerialPort;\n",
      ),
    ).toHaveLength(1);
  });

  it('forbids devices/ from importing host/ and host/ from importing renderer/', async () => {
    expect(
      await layeringErrors(
        'devices/tools/example.ts',
        "import { x } from '../../host/app/version.ts';\nexport const y = x;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layeringErrors(
        'host/app/example.ts',
        "import { x } from '../../renderer/main.tsx';\nexport const y = x;\n",
      ),
    ).toHaveLength(1);
  });

  it('lets the renderer see host/contract but nothing else of ours', async () => {
    expect(
      await layeringErrors(
        'renderer/example.ts',
        "import { apiContract } from '../host/contract/api-contract.ts';\nexport const y = apiContract;\n",
      ),
    ).toHaveLength(0);
    expect(
      await layeringErrors(
        'renderer/example.ts',
        "import { Agent } from '../core/agent/agent.ts';\nexport const y = Agent;\n",
      ),
    ).toHaveLength(1);
    expect(
      await layeringErrors('renderer/example.ts', "import { readFile } from 'node:fs';\nexport const y = readFile;\n"),
    ).toHaveLength(1);
  });

  it('allows imports that point down', async () => {
    expect(
      await layeringErrors(
        'host/app/example.ts',
        "import { Agent } from '../../core/agent/agent.ts';\nexport const y = Agent;\n",
      ),
    ).toHaveLength(0);
    expect(
      await layeringErrors(
        'devices/tools/example.ts',
        "import { ToolError } from '../../core/tools/tool-error.ts';\nexport const y = ToolError;\n",
      ),
    ).toHaveLength(0);
  });

  it('keeps the MCP SDK in host/plugins/mcp/ and host/front/mcp/: core, devices, the rest of host and electron may not import it', async () => {
    const sdk = "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nexport const y = Client;\n";
    expect(await layeringErrors('core/tools/example.ts', sdk)).toHaveLength(1);
    expect(await layeringErrors('devices/tools/example.ts', sdk)).toHaveLength(1);
    expect(await layeringErrors('host/app/example.ts', sdk)).toHaveLength(1);
    expect(await layeringErrors('electron/example.ts', sdk)).toHaveLength(1);
    expect(await layeringErrors('host/plugins/mcp/example.ts', sdk)).toHaveLength(0);
    expect(await layeringErrors('host/front/mcp/example.ts', sdk)).toHaveLength(0);
    // MCP code may use what lies below it, but never a front end.
    expect(
      await layeringErrors(
        'host/plugins/mcp/example.ts',
        "import { Agent } from '../../../core/agent/agent.ts';\nimport { x } from '../../store/data-version.ts';\nexport const y = [Agent, x];\n",
      ),
    ).toHaveLength(0);
    expect(
      await layeringErrors(
        'host/plugins/mcp/example.ts',
        "import { x } from '../../../renderer/main.tsx';\nexport const y = x;\n",
      ),
    ).toHaveLength(1);
  });
});
