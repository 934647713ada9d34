// What the person typed into an app's text fields, kept across redraws.

/**
 * Remembers what the user typed into an app's text fields, so a redraw from the server does not
 * undo keystrokes it has not seen yet, and sends edits after a pause.
 */
export class FieldMemory {
  constructor() {
    this.values = new Map();
    this.timers = new Map();
  }

  valueFor(id, serverValue) {
    if (!this.values.has(id)) return serverValue;
    const local = this.values.get(id);
    if (local === serverValue && !this.timers.has(id)) this.values.delete(id);
    return local;
  }

  remember(id, value) {
    this.values.set(id, value);
  }

  change(id, value, send, delay) {
    this.values.set(id, value);
    const existing = this.timers.get(id);
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => this.flush(id), delay);
    this.timers.set(id, { timer, send, value });
  }

  flush(id) {
    const pending = this.timers.get(id);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.timers.delete(id);
    pending.send(this.values.get(id) ?? pending.value);
  }

  flushAll() {
    for (const id of [...this.timers.keys()]) this.flush(id);
  }

  /** Forgets everything (the app closed). */
  reset() {
    for (const pending of this.timers.values()) clearTimeout(pending.timer);
    this.timers.clear();
    this.values.clear();
  }
}
