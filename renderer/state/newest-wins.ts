/** Requests of one kind that may overlap, of which only the newest may change what the store shows. */
export interface NewestWins {
  /**
   * Makes the request; its answer goes to `onAnswer`, its failure to `onError`, but only while no
   * newer request (nor `supersede`) has come since: an older answer landing last is dropped.
   */
  run<T>(options: {
    request: () => Promise<T>;
    onAnswer: (answer: T) => void;
    onError: (error: unknown) => void;
  }): Promise<void>;
  /** Makes every request in flight stale: something newer (a save's answer, a cleared search) already said what is true. */
  supersede(): void;
}

/**
 * A fresh sequence of requests where the newest wins. Look-ups overlap (a turn ends while the
 * person presses a button, a search is typed on): without this an older answer could land last.
 */
export function newestWins(): NewestWins {
  let newest = 0;
  return {
    async run({ request, onAnswer, onError }) {
      const ticket = ++newest;
      try {
        const answer = await request();
        if (ticket === newest) onAnswer(answer);
      } catch (error) {
        if (ticket === newest) onError(error);
      }
    },
    supersede() {
      newest += 1;
    },
  };
}
