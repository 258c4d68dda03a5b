import type { RefusalObserver } from './types.js';

/**
 * The observers of permission refusals (`RestServer.onRefusal`: e.g. the audit log's `denied`
 * events), told in the order they were added; one that throws is reported and the others are
 * still told.
 */
export class RefusalObservers {
  private readonly observers: RefusalObserver[] = [];

  constructor(private readonly warn: (message: string, detail?: unknown) => void) {}

  add(observer: RefusalObserver): void {
    this.observers.push(observer);
  }

  /** What a request carries to tell them (its `refusalObserver`); undefined while there are none, so a request costs nothing. */
  get teller(): RefusalObserver | undefined {
    return this.observers.length > 0 ? this.tell : undefined;
  }

  private readonly tell: RefusalObserver = (request, error) => {
    for (const observer of this.observers) {
      try {
        observer(request, error);
      } catch (thrown) {
        this.warn('A refusal observer failed', thrown);
      }
    }
  };
}
