/**
 * At most `capacity` values by key, kept in the order they were last given or kept, the least recent forgotten first.
 * Used where both sides of a channel must evict the same way on the same steps (isolation/protocol.ts catalogs), so
 * its eviction is exactly this and nothing else.
 */
export class Kept<K, V> {
  private readonly entries = new Map<K, V>()
  private readonly capacity: number
  constructor(capacity: number) {
    this.capacity = capacity
  }
  /** The value kept under `key`, now the most recently given; undefined when it is not kept. */
  given(key: K): V | undefined {
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }
  /** Keeps `value` under `key` as the most recent, forgetting the least recent past the capacity. */
  keep(key: K, value: V): V {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!)
    return value
  }
  forget(key: K): void {
    this.entries.delete(key)
  }
}
