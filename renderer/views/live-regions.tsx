import { useAppStore } from './use-app-store.ts';

/**
 * The page's two live regions: polite news (replies, progress, the state after a Stop) and urgent
 * news (a question for the person, an error). Each new sentence replaces the last; keyed by its
 * id, so the same sentence twice is heard twice.
 */
export function LiveRegions() {
  const polite = useAppStore((state) => state.spoken.polite);
  const urgent = useAppStore((state) => state.spoken.urgent);
  return (
    <>
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="live-polite">
        {polite && <span key={polite.id}>{polite.text}</span>}
      </div>
      <div className="visually-hidden" role="alert" aria-live="assertive" data-testid="live-urgent">
        {urgent && <span key={urgent.id}>{urgent.text}</span>}
      </div>
    </>
  );
}
