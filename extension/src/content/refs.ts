/**
 * References to controls, kept only in the content script's isolated world:
 * the page can neither read nor forge them. A control keeps its ref for its
 * life, so the app recognises it across the snapshots of one fill.
 */
import type { Identity } from '../shared/fill';

/** identityOf reads what a control is now: its name and id attributes and its DOM type. */
export function identityOf(el: Element): Identity {
  return {
    name: el.getAttribute('name') ?? '',
    id: el.getAttribute('id') ?? '',
    type: (el as HTMLInputElement).type ?? '',
  };
}

/** Registry maps refs to elements and back. */
export class Registry {
  private readonly byRef = new Map<string, WeakRef<Element>>();
  private readonly byElement = new WeakMap<Element, string>();
  // measured holds each ref's identity at its latest snapshot.
  private readonly measured = new Map<string, Identity>();
  private next = 0;

  /** refOf returns el's ref, giving it a new one the first time. */
  refOf(el: Element): string {
    let ref = this.byElement.get(el);
    if (ref === undefined) {
      ref = `t${++this.next}`;
      this.byElement.set(el, ref);
      this.byRef.set(ref, new WeakRef(el));
    }
    return ref;
  }

  /** remember records el's identity as measured now. */
  remember(ref: string, el: Element): void {
    this.measured.set(ref, identityOf(el));
  }

  /** lookup returns the element ref names, or undefined when it never existed or was collected. */
  lookup(ref: string): Element | undefined {
    return this.byRef.get(ref)?.deref();
  }

  /** identity returns ref's identity at its latest snapshot. */
  identity(ref: string): Identity | undefined {
    return this.measured.get(ref);
  }

  /** prune forgets refs whose elements were collected, so a churning page does not grow the maps. */
  prune(): void {
    for (const [ref, w] of this.byRef) {
      if (w.deref() === undefined) {
        this.byRef.delete(ref);
        this.measured.delete(ref);
      }
    }
  }
}
