/**
 * Sandbox regular expressions run on the host's V8 (intrinsics/regexp.ts), and one match is one host call that
 * `timeoutMs` cannot interrupt. A pattern with catastrophic backtracking (`/(a+)+$/` on "aaa…b") would hold the
 * process for minutes. V8 has a second, linear-time engine for the patterns it supports; with this flag, a match
 * that backtracks too much is finished there instead (patterns that engine refuses never run on V8: see
 * intrinsics/regexp-matcher). It is a process-wide V8 setting, set once when the library is loaded: it changes how
 * long a match takes, never what it finds, so host code is unaffected.
 */
import { setFlagsFromString } from "node:v8"

setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks")
