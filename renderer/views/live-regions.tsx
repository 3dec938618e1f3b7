import type { SpokenLine } from '../state/app-slice.ts';
import { useAppStore } from './use-app-store.ts';

/**
 * The page's two live regions: polite news (replies, progress, the state after a Stop) and urgent
 * news (a question for the person, an error). Each new sentence replaces the text of the last in
 * place: swapping the node instead costs a long frame in Chromium's accessibility tree on every
 * announcement (measured with the UI frames bench). A trailing no-break space on every other line
 * makes the same sentence twice a change, so it is heard twice.
 */
export function LiveRegions() {
  const polite = useAppStore((state) => state.spoken.polite);
  const urgent = useAppStore((state) => state.spoken.urgent);
  return (
    <>
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="live-polite">
        {spokenText(polite)}
      </div>
      <div className="visually-hidden" role="alert" aria-live="assertive" data-testid="live-urgent">
        {spokenText(urgent)}
      </div>
    </>
  );
}

function spokenText(line: SpokenLine | null): string {
  if (!line) return '';
  return line.id % 2 === 0 ? `${line.text}\u00a0` : line.text;
}
