/**
 * The page's CSP admits style elements only with the per-response nonce. @wordpress/components
 * injects the CSS of its modules through a shared runtime (`globalThis.__wpStyleRuntime`) with
 * un-nonced style elements, which the browser would refuse. Installed before the library loads
 * (this module is main.tsx's first import), this runtime has no registered document (so the
 * library injects nothing itself) and writes every registered style into a nonced element,
 * with the same `data-wp-hash` the library looks for.
 */

export const cspNonce: string | undefined = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce || undefined;

class NoncedStyles extends Map<string, string> {
  override set(hash: string, css: string): this {
    if (!this.has(hash)) {
      const style = document.createElement('style');
      if (cspNonce) style.nonce = cspNonce;
      style.setAttribute('data-wp-hash', hash);
      style.textContent = css;
      document.head.appendChild(style);
    }
    return super.set(hash, css);
  }
}

interface StyleRuntime {
  documents: Map<Document, number>;
  styles: Map<string, string>;
  injectedStyles: WeakMap<Document, Set<string>>;
}

const scope = globalThis as typeof globalThis & { __wpStyleRuntime?: StyleRuntime };
scope.__wpStyleRuntime ??= { documents: new Map(), styles: new NoncedStyles(), injectedStyles: new WeakMap() };
