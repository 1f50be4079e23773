/**
 * `SnapshotError`: a saved state that cannot be resumed here — malformed or hostile bytes, another build of this
 * package, another format version, extensions this runtime lacks. Decoding raises it and nothing else, whatever the
 * input; `run()` of a resumed program fails with it (spec "Bytecode VM and suspending/resuming a run").
 *
 * @since 0.1.0
 * @category errors
 */
export class SnapshotError extends Error {
  readonly _tag = "SnapshotError"
  constructor(message: string) {
    super(message)
    this.name = "SnapshotError"
  }
}
