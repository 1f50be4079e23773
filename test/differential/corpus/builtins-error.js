// Error constructors: message and cause, own property layout, prototype chain, names, toString, subclassing,
// AggregateError, the V8 `stack` property and Error.captureStackTrace.

// === error-basic
const e = new Error("boom")
return [e.name, e.message, e instanceof Error, String(e), Object.keys(e), Object.prototype.hasOwnProperty.call(e, "message")]

// === error-without-new
const e = Error("x")
const t = TypeError("y")
return [e instanceof Error, t instanceof TypeError, t instanceof Error, t.message]

// === error-no-message
const e = new Error()
const u = new Error(undefined)
return [e.hasOwnProperty("message"), u.hasOwnProperty("message"), e.message, String(e), String(new TypeError())]

// === error-message-coercion
return [new Error(42).message, new Error(null).message, new Error({ toString: () => "obj" }).message, new Error([1, 2]).message]

// === error-message-symbol-throws
return new Error(Symbol("x"))

// === error-cause
const cause = new Error("root")
const e = new Error("wrapped", { cause })
const d = Object.getOwnPropertyDescriptor(e, "cause")
return [e.cause === cause, d.enumerable, d.writable, d.configurable, "cause" in new Error("x", {}), "cause" in new Error("x", { cause: undefined }), new Error("x", 5).hasOwnProperty("cause")]

// === error-cause-getter
const log = []
const options = {
  get cause() {
    log.push("get")
    return "c"
  },
}
const e = new RangeError("m", options)
return [e.cause, log]

// === error-own-property-names
return [Object.getOwnPropertyNames(new Error("x")), Object.getOwnPropertyNames(new Error("x", { cause: 1 })), Object.getOwnPropertyNames(new Error())]

// === error-message-descriptor
const d = Object.getOwnPropertyDescriptor(new Error("m"), "message")
return [d.value, d.writable, d.enumerable, d.configurable]

// === native-error-types
const types = [EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError]
return types.map((T) => {
  const e = new T("msg")
  return [T.name, e.name, String(e), e instanceof Error, Object.getPrototypeOf(T) === Error, Object.getPrototypeOf(T.prototype) === Error.prototype, T.length, T.prototype.hasOwnProperty("message")]
})

// === error-prototype-shape
const p = Error.prototype
return [p.name, p.message, Object.prototype.toString.call(p), typeof p.toString, Object.getOwnPropertyNames(p).sort(), Error.length, Error.name]

// === error-to-string-generic
const ts = Error.prototype.toString
return [
  ts.call({ name: "N", message: "M" }),
  ts.call({ name: "", message: "only message" }),
  ts.call({ name: "only name", message: "" }),
  ts.call({}),
  ts.call({ name: undefined, message: undefined }),
  ts.call({ name: 5, message: { toString: () => "obj" } }),
]

// === error-to-string-non-object
try {
  Error.prototype.toString.call(1)
} catch (e) {
  return [e.name, e.message]
}

// === error-subclass
class ValidationError extends Error {
  constructor(message, field) {
    super(message)
    this.name = "ValidationError"
    this.field = field
  }
}
const e = new ValidationError("bad input", "email")
return [e.name, e.message, e.field, String(e), e instanceof ValidationError, e instanceof Error, Object.keys(e), e.stack.split("\n")[0]]

// === error-subclass-prototype-name
class HttpError extends Error {}
HttpError.prototype.name = "HttpError"
const e = new HttpError("404")
return [String(e), e.stack.split("\n")[0], Object.prototype.toString.call(e)]

// === error-subclass-of-type-error
class MyTypeError extends TypeError {
  get name() {
    return "MyTypeError"
  }
}
const e = new MyTypeError("nope")
return [String(e), e instanceof TypeError, e.constructor.name]

// === error-thrown-and-caught-name
const out = []
for (const f of [() => null.x, () => undefinedVariable, () => (1)(), () => new Array(-1), () => decodeURIComponent("%")]) {
  try {
    f()
  } catch (e) {
    out.push(e.constructor.name, e instanceof Error)
  }
}
return out

// === error-stack-first-line
const e = new TypeError("tt")
const plain = new Error()
return [typeof e.stack, e.stack.split("\n")[0], plain.stack.split("\n")[0], Object.getOwnPropertyDescriptor(e, "stack").enumerable]

// === error-stack-reflects-later-message
const e = new Error("first")
e.message = "second"
return e.stack.split("\n")[0]

// === error-stack-assignable
const e = new Error("x")
e.stack = "custom"
return [e.stack, Object.keys(e)]

// === error-capture-stack-trace
const o = { name: "Custom", message: "msg" }
Error.captureStackTrace(o)
const d = Object.getOwnPropertyDescriptor(o, "stack")
return [typeof o.stack, o.stack.split("\n")[0], d.enumerable, typeof Error.captureStackTrace, Error.captureStackTrace.length]

// === error-capture-stack-trace-in-constructor
class AppError extends Error {
  constructor(m) {
    super(m)
    this.name = "AppError"
    if (Error.captureStackTrace) Error.captureStackTrace(this, AppError)
  }
}
return new AppError("hi").stack.split("\n")[0]

// === error-stack-trace-limit
return typeof Error.stackTraceLimit

// === aggregate-error
const e = new AggregateError([new Error("a"), "b"], "many", { cause: 0 })
return [e.name, e.message, e.errors.length, e.errors[1], Array.isArray(e.errors), e.cause, Object.getOwnPropertyNames(e), AggregateError.length, Object.getPrototypeOf(AggregateError) === Error]

// === aggregate-error-iterable
function* gen() {
  yield 1
  yield 2
}
const e = new AggregateError(gen())
return [e.errors, e.message, e.hasOwnProperty("message"), String(e)]

// === aggregate-error-not-iterable
return new AggregateError(5)

// === error-constructor-property
return [new Error("x").constructor === Error, new RangeError().constructor === RangeError, Error.prototype.constructor === Error]

// === error-new-target-prototype
function Fake() {}
Fake.prototype = Object.create(RangeError.prototype)
const e = Reflect.construct(RangeError, ["m"], Fake)
return [e instanceof Fake, e instanceof RangeError, e.message, Object.prototype.toString.call(e)]

// === throw-non-error-values
const out = []
for (const v of [1, "s", { a: 1 }, null]) {
  try {
    throw v
  } catch (e) {
    out.push(e instanceof Error, typeof e)
  }
}
return out

// === error-json-stringify
const e = new Error("m")
e.code = 42
return [JSON.stringify(e), JSON.stringify({ e: new TypeError("t") })]

// === error-uncaught-type
throw new URIError("uri")

// === error-uncaught-subclass
class NotFound extends Error {
  constructor() {
    super("missing")
    this.name = "NotFound"
  }
}
throw new NotFound()
