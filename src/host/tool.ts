/**
 * `Tool.make` (spec "Tool.make"): a tool is data — a description, an input schema, an optional output schema and
 * an `execute` — that `CodeMode.make` installs in the program's `tools` tree. `execute(input, { key })` receives
 * the decoded input and the call's idempotency key `<runId>:<callId>`, and may return an Effect, a Promise or a
 * plain value; an Effect's requirements become requirements of `runtime.execute`.
 *
 * `Tool.idempotent` and `Tool.durable` are markers saying how a call may be treated across a suspend (spec
 * "Idempotent and durable tools"). On this engine-agnostic path an idempotent tool is run as is, and a durable one
 * runs `start` then `wait`, with `cancel` run when the run is interrupted or ends while it waits.
 */
import * as Effect from "effect/Effect"
import { callHost } from "./returned.ts"
import { prepareSchema, type DecodingServices, type JsonSchemaValidator, type Decoded, type Encoded, type PreparedSchema, type ToolSchema } from "./schema.ts"

export const TypeId: unique symbol = Symbol.for("codemode/Tool") as never
export type TypeId = typeof TypeId

/**
 * What `execute` learns about its call besides the input.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolContext {
  /** `<runId>:<callId>`: stable for a call, also across suspend and resume. */
  readonly key: string
}

/**
 * What tool code may return: an Effect, a Promise or a plain value.
 *
 * @since 0.1.0
 * @category models
 */
export type Returned<A> = Effect.Effect<A, unknown, any> | PromiseLike<A> | A

/** The services an Effect among `T` requires. */
export type ServicesOf<T> = T extends Effect.Effect<any, any, infer R> ? R : never

/** The host-side view of an `execute`: how a suspend may treat it (spec "Idempotent and durable tools"). */
export type ExecuteKind =
  | { readonly _tag: "Plain" }
  | { readonly _tag: "Idempotent" }
  | {
      readonly _tag: "Durable"
      readonly start: (input: unknown, context: ToolContext) => unknown
      readonly wait: (data: unknown, context: ToolContext) => unknown
      readonly cancel: ((data: unknown) => unknown) | undefined
    }

/**
 * The marker `Tool.idempotent` and `Tool.durable` put on the function they return. They return functions (not
 * records) so that TypeScript infers `execute`'s parameter types from the tool's input schema through them.
 */
const KindId: unique symbol = Symbol.for("codemode/Tool/ExecuteKind") as never

const PLAIN: ExecuteKind = { _tag: "Plain" }

/** How `execute` was declared. */
export const executeKind = (execute: AnyExecute): ExecuteKind => (execute as { [KindId]?: ExecuteKind })[KindId] ?? PLAIN

/** `execute` with its types erased, as the host runs it. */
export type AnyExecute = (input: unknown, context: ToolContext) => unknown

/**
 * A tool; `R` is what running it requires.
 *
 * @since 0.1.0
 * @category models
 */
export interface Tool<out R = never> {
  readonly [TypeId]: { readonly _R: (_: never) => R }
  readonly description: string
  /** The input schema as given. */
  readonly input: ToolSchema
  /** The output schema as given; undefined when the tool returns nothing to the program. */
  readonly output: ToolSchema | undefined
  readonly execute: AnyExecute
  /** The input, ready to render (encoded side) and decode. */
  readonly preparedInput: PreparedSchema
  /** The output, ready to render (decoded side) and decode; undefined without an output schema. */
  readonly preparedOutput: PreparedSchema | undefined
}

/** The value a tool's `execute` must produce for output schema `O` (before decoding). */
export type OutputArg<O> = [O] extends [undefined] ? unknown : Encoded<O>

/**
 * Makes a tool. `input` and `output` are Effect Schemas, Zod schemas or JSON Schema documents; `execute`
 * receives the decoded input and `{ key }`, and returns an Effect, a Promise or a value.
 *
 * @example
 * ```ts
 * const lookupOrder = Tool.make({
 *   description: "Look up an order by ID",
 *   input: Schema.Struct({ id: Schema.String }),
 *   output: Schema.Struct({ id: Schema.String, status: Schema.String }),
 *   execute: ({ id }) => Effect.succeed({ id, status: "open" }),
 * })
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <I extends ToolSchema, Ret extends Returned<OutputArg<O>>, O extends ToolSchema | undefined = undefined>(options: {
  readonly description: string
  readonly input: I
  readonly output?: O
  readonly execute: (input: Decoded<I>, context: ToolContext) => Ret
  /**
   * Checks for JSON Schema `input` / `output` (a host's JSON Schema validator): with one, a JSON Schema is enforced
   * as an Effect Schema is (`InvalidToolInput` / `InvalidToolOutput`) instead of only shaping the signature.
   */
  readonly validate?: { readonly input?: JsonSchemaValidator; readonly output?: JsonSchemaValidator }
}): Tool<ServicesOf<Ret> | DecodingServices<I> | DecodingServices<O>> => {
  if (typeof options !== "object" || options === null) throw new TypeError("Tool.make expects an options object")
  if (typeof options.description !== "string") throw new TypeError("Tool.make: description must be a string")
  if (typeof options.execute !== "function") {
    throw new TypeError("Tool.make: execute must be a function, Tool.idempotent(...) or Tool.durable(...)")
  }
  return {
    [TypeId]: variance,
    description: options.description,
    input: options.input,
    output: options.output,
    execute: options.execute as AnyExecute,
    preparedInput: prepareSchema(options.input, "encoded", "input", options.validate?.input),
    preparedOutput: options.output === undefined ? undefined : prepareSchema(options.output, "type", "output", options.validate?.output),
  }
}

const variance = { _R: (_: never) => _ }

export const isTool = (u: unknown): u is Tool<unknown> => typeof u === "object" && u !== null && TypeId in u

/**
 * Marks `execute` as idempotent: safe to run again with the same key (after a suspend, on the VM). On the default
 * runtime it runs as it is.
 *
 * @since 0.1.0
 * @category constructors
 */
export const idempotent = <In, Ret>(execute: (input: In, context: ToolContext) => Ret): ((input: In, context: ToolContext) => Ret) => {
  const marked = (input: In, context: ToolContext): Ret => execute(input, context)
  return Object.assign(marked, { [KindId]: { _tag: "Idempotent" } satisfies ExecuteKind })
}

/**
 * Marks a tool as durable. `start` begins the work and returns JSON data, `wait` connects to it and waits for its
 * result, `cancel` stops it when the run is interrupted or ends while it waits (never when it is suspended). Called
 * directly, as the default runtime does, the returned function runs `start` then `wait`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const durable = <In, Data, RS, Ret, CancelRet = void>(options: {
  readonly start: (input: In, context: ToolContext) => Effect.Effect<Data, unknown, RS>
  readonly wait: (data: Data, context: ToolContext) => Ret
  readonly cancel?: (data: Data) => CancelRet
}): ((input: In, context: ToolContext) => Ret | Effect.Effect<never, never, RS | ServicesOf<CancelRet>>) => {
  const kind: ExecuteKind = {
    _tag: "Durable",
    start: options.start as (input: unknown, context: ToolContext) => unknown,
    wait: options.wait as (data: unknown, context: ToolContext) => unknown,
    cancel: options.cancel as ((data: unknown) => unknown) | undefined,
  }
  const run = (input: In, context: ToolContext) => runDurable(kind as Extract<ExecuteKind, { _tag: "Durable" }>, input, context)
  return Object.assign(run, { [KindId]: kind }) as never
}

/** The engine-agnostic durable call: `start`, then `wait`; `cancel` if interrupted once `start` has returned. */
const runDurable = (kind: Extract<ExecuteKind, { _tag: "Durable" }>, input: unknown, context: ToolContext) =>
  Effect.uninterruptibleMask((restore) =>
    Effect.gen(function* () {
      const data = yield* restore(callHost(() => kind.start(input, context)))
      const cancel = kind.cancel
      return yield* restore(callHost(() => kind.wait(data, context))).pipe(
        Effect.onInterrupt(() => (cancel === undefined ? Effect.void : Effect.ignore(callHost(() => cancel(data))))),
      )
    }),
  )
