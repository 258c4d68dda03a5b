/**
 * Events that plugins and services can listen to (`api.on('module.activated', …)`).
 * Listeners run after the change is stored; a throwing listener is logged, never breaks the request.
 */
export interface SitewardEvents {
  'module.activated': { slug: string };
  'module.deactivated': { slug: string };
  'module.option_updated': { slug: string; option: string; value: unknown };
  'setting.updated': { name: string; value: unknown };
  'options.reset': { kind: 'options' | 'modules' };
}

export type EventName = keyof SitewardEvents;
export type Listener<E extends EventName> = (payload: SitewardEvents[E]) => void | Promise<void>;

/** A small typed event bus. */
export class EventBus {
  private readonly listeners = new Map<EventName, Set<Listener<EventName>>>();

  constructor(private readonly onListenerError: (event: string, error: unknown) => void = () => {}) {}

  /** Subscribes; returns an unsubscribe function. */
  on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<EventName>);
    return () => set.delete(listener as Listener<EventName>);
  }

  /** Calls every listener in subscription order and waits for them. */
  async emit<E extends EventName>(event: E, payload: SitewardEvents[E]): Promise<void> {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        await listener(payload);
      } catch (error) {
        this.onListenerError(event, error);
      }
    }
  }
}
