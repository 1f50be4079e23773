/**
 * How a program is presented to parsers: as the body of an async function. A codemode program body *is* an async
 * function body (top-level `await`, `return` and `for await`), and neither meriyah nor Node's TypeScript stripper has
 * a script mode that allows those, so both parse this wrapper instead. The prefix sits on the user's first line and
 * the suffix starts on a new line, so only line-1 columns shift, by exactly `PREFIX.length`, and a trailing `//`
 * comment in the user's source cannot swallow the closing brace.
 */

export const PREFIX = "(async function () {"
export const SUFFIX = "\n})"

export const wrap = (text: string): string => PREFIX + text + SUFFIX

/** The user's text back out of a wrapped string of the same shape (e.g. the stripper's output). */
export const unwrap = (wrapped: string): string => wrapped.slice(PREFIX.length, wrapped.length - SUFFIX.length)
