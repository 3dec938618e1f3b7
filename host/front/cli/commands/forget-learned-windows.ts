import type { WindowFilter } from '../../../../core/context/context-memory.ts';
import { safeText } from '../../../../core/text/safe-text.ts';
import { databaseFileOf, resolveDataDir } from '../../../config/data-dir.ts';
import { describeForgottenWindows } from '../../../models/describe-forgotten-windows.ts';
import { ModelContextStore } from '../../../store/model-context-store.ts';
import { openDatabase } from '../../../store/open-database.ts';

/**
 * `home-agent models forget-window`: forgets the learned windows `filter` matches in the data
 * folder, printing one line each (base URL, model, window; tab separated) and a sentence on
 * stderr. Exit status 0, also when none matched.
 */
export function forgetLearnedWindows(
  filter: WindowFilter & { dataDir?: string },
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): number {
  const { dataDir, ...windows } = filter;
  const db = openDatabase({ file: databaseFileOf(resolveDataDir(dataDir)) });
  try {
    const forgotten = new ModelContextStore({ db }).forgetWindows(windows);
    // A base URL or a model name came from a server's refusal or a person: shown safely, one line each.
    for (const entry of forgotten)
      io.stdout.write(`${safeText(entry.baseUrl || '-')}\t${safeText(entry.model)}\t${entry.windowTokens}\n`);
    io.stderr.write(`home-agent: ${safeText(describeForgottenWindows(forgotten, windows))}\n`);
    return 0;
  } finally {
    db.close();
  }
}
