/**
 * A hidden line of every text style a batch panel draws, in its own nesting (so each takes the same
 * size, weight and family). The app's first screen draws none of them, and a font looked up for the
 * first time costs the main thread about a millisecond each (fontconfig, through the sandbox): without
 * this, the first batch of a session paid for all of them inside the frame that draws its panel.
 * Class names only, no test ids: nothing that finds the page's batches finds this (`test/e2e/font-warmup.spec.ts`
 * checks it holds every style a batch draws).
 */
export function FontWarmup() {
  return (
    <div className="visually-hidden" aria-hidden="true" data-font-warmup="">
      <div className="batch-panel">
        <div className="batch-header">
          <span className="batch-title">a</span> <span className="batch-mode">a</span>{' '}
          <span className="batch-reason">a</span> <span className="batch-totals">1</span>
        </div>
        <div className="tool-row">
          <span className="tool-index">1</span> <span className="tool-name">a</span>{' '}
          <span className="tool-args">a</span> <span className="tool-outcome tool-outcome-unknown">1</span>{' '}
          <span className="approval-outcome">a</span>
        </div>
        <div className="batch-stream-label">a</div>
        <div className="batch-axis">1</div>
        <div className="batch-legend">a</div>
      </div>
    </div>
  );
}
