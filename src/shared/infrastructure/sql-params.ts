/**
 * The parameters of one SQL statement, bound by name: `bind(name, value)` answers the `$n` that
 * carries the value, and binding the name again answers the same `$n`. Functions that build parts
 * of one statement share a parameter by naming it, never by agreeing on its position; the owner
 * of the statement runs it with `values`.
 */
export class SqlParams {
  readonly values: unknown[] = [];
  private readonly bound = new Map<string, { placeholder: string; value: unknown }>();

  /** The `$n` of `value` under `name`. A name bound again must be bound to the same value. */
  bind(name: string, value: unknown): string {
    const known = this.bound.get(name);
    if (known) {
      if (known.value !== value) throw new Error(`SQL parameter ${name} is already bound to another value`);
      return known.placeholder;
    }
    const placeholder = `$${this.values.push(value)}`;
    this.bound.set(name, { placeholder, value });
    return placeholder;
  }

  /** The `$n` of a name the statement's owner bound (a part that reads the value without having it). */
  ref(name: string): string {
    const known = this.bound.get(name);
    if (!known) throw new Error(`SQL parameter ${name} is not bound`);
    return known.placeholder;
  }
}
