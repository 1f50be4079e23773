/**
 * The backtracking machine: runs a compiled pattern (compile.ts) at one start position. Choice points live on an
 * explicit stack (never the host's call stack, so no pattern or input can overflow it), writes to captures and
 * registers are recorded on a trail and undone when the machine backtracks past them, and every instruction is
 * charged to the run: every POLL_EVERY of them the machine asks the run whether its time is up, so `timeoutMs`
 * ends a catastrophic backtrack as it ends a busy loop.
 *
 * Lookarounds push a barrier: a positive one that succeeds drops the choice points above its barrier (it is
 * atomic, as the spec says), a negative one succeeds when backtracking reaches its barrier.
 */
import { SandboxError } from "../../runtime/completion.ts"
import { chargeMemory } from "../../runtime/memory.ts"
import { caseEquals, type StringsTest } from "./charset.ts"
import { Op, type Program } from "./compile.ts"

export type Poll = (work: number) => void

const POLL_EVERY = 1024

/** Stack entry kinds. */
const CHOICE = 0
const POSITIVE = 1
const NEGATIVE = 2
/** A greedy one-character loop that can still give characters back (forward or backward). */
const STAR_FORWARD = 3
const STAR_BACKWARD = 4
/** A class of strings that can still try shorter strings. */
const STRINGS = 5
/** A lazy one-character loop that can still take another character (aux: the characters taken). */
const LAZY = 6
/** kind, pc, position, trail length, aux (Star: the position after its minimum; Strings: the next length to try). */
const ENTRY = 5

/** V8 gives up on a match whose backtracking stack passes 64 MiB; ours stops at about the same size. */
const MAX_STACK = 1 << 23
const MAX_TRAIL = 1 << 22
/** The buffers' first size (a power of two, so that they grow to exactly the maxima). */
const SMALL = 256

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff

const isLineTerminator = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029

const overflow = (): never => {
  throw new SandboxError("RangeError", "Maximum call stack size exceeded")
}

/** Set by readChar: the position after the character it read. */
let nextPos = 0

/** Is pos between the two halves of a surrogate pair? */
export const insidePair = (S: string, pos: number): boolean => isLow(S.charCodeAt(pos)) && isHigh(S.charCodeAt(pos - 1))

/**
 * The character before (dir -1) or at (dir 1) pos, a code point in unicode mode; -1 at the end of the input.
 * NON-SPEC (V8 compatibility): in unicode mode V8 tries a search at every code unit, also between the halves of a
 * pair, where no character can be read in either direction (so only an empty match can start there).
 */
const readChar = (S: string, pos: number, dir: number, unicode: boolean): number => {
  if (unicode && insidePair(S, pos)) return -1
  if (dir === 1) {
    if (pos >= S.length) return -1
    const c = S.charCodeAt(pos)
    nextPos = pos + 1
    if (unicode && c >= 0xd800 && c <= 0xdbff && nextPos < S.length) {
      const d = S.charCodeAt(nextPos)
      if (d >= 0xdc00 && d <= 0xdfff) {
        nextPos++
        return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000
      }
    }
    return c
  }
  if (pos <= 0) return -1
  const c = S.charCodeAt(pos - 1)
  nextPos = pos - 1
  if (unicode && c >= 0xdc00 && c <= 0xdfff && nextPos > 0) {
    const h = S.charCodeAt(nextPos - 1)
    if (h >= 0xd800 && h <= 0xdbff) {
      nextPos--
      return (h - 0xd800) * 0x400 + (c - 0xdc00) + 0x10000
    }
  }
  return c
}

export class Machine {
  /** Captures (start, end per group; -1 when unset) and registers, as the last successful match left them. */
  readonly mem: Float64Array
  private stack: Int32Array = new Int32Array(SMALL)
  private trailSlot = new Int32Array(SMALL)
  private trailOld = new Float64Array(SMALL)
  private budget = POLL_EVERY
  /** Stack and trail heights of the attempt in progress. */
  private sp = 0
  private tp = 0
  private readonly program: Program
  /** The run that the current match charges its steps to. */
  poll: Poll = () => {}

  constructor(program: Program) {
    this.program = program
    this.mem = new Float64Array(program.slots)
  }

  private charge(work: number): void {
    this.budget -= work
    if (this.budget <= 0) {
      this.poll(POLL_EVERY - this.budget)
      this.budget = POLL_EVERY
    }
  }

  /** Buffers grown by a match are charged to the run's memory budget, and given back when it ends (`shrink`). */
  private growStack(): Int32Array {
    if (this.stack.length >= MAX_STACK) overflow()
    chargeMemory(this.stack.length * 8)
    const bigger = new Int32Array(this.stack.length * 2)
    bigger.set(this.stack)
    return (this.stack = bigger)
  }

  private growTrail(): void {
    if (this.trailSlot.length >= MAX_TRAIL) overflow()
    chargeMemory(this.trailSlot.length * 24)
    const slots = new Int32Array(this.trailSlot.length * 2)
    slots.set(this.trailSlot)
    const old = new Float64Array(this.trailOld.length * 2)
    old.set(this.trailOld)
    this.trailSlot = slots
    this.trailOld = old
  }

  /** Drops buffers a match grew, so a cached pattern keeps no more than a small machine between matches. */
  shrink(): void {
    if (this.stack.length > SMALL) this.stack = new Int32Array(SMALL)
    if (this.trailSlot.length > SMALL) {
      this.trailSlot = new Int32Array(SMALL)
      this.trailOld = new Float64Array(SMALL)
    }
  }

  /** Records slot's value on the trail (unless no choice point could undo it) and sets it. */
  private write(slot: number, value: number): void {
    if (this.sp === 0) this.tp = 0
    else {
      if (this.tp === this.trailSlot.length) this.growTrail()
      this.trailSlot[this.tp] = slot
      this.trailOld[this.tp++] = this.mem[slot]!
    }
    this.mem[slot] = value
  }

  private push(kind: number, to: number, at: number, aux: number): void {
    let sp = this.sp
    const stack = sp + ENTRY > this.stack.length ? this.growStack() : this.stack
    stack[sp++] = kind
    stack[sp++] = to
    stack[sp++] = at
    stack[sp++] = this.tp
    stack[sp++] = aux
    this.sp = sp
  }

  /** The longest length ≤ most of a string of the class next to pos (after it, or before it for dir -1), or -1. */
  private shorterString(S: string, pos: number, dir: number, strings: StringsTest, most: number): number {
    const room = dir === 1 ? S.length - pos : pos
    for (let length = Math.min(most, room); length >= 0; length--) {
      this.charge(1)
      const from = dir === 1 ? pos : pos - length
      const to = dir === 1 ? pos + length : pos
      // Never split a surrogate pair.
      if (insidePair(S, dir === 1 ? to : from)) continue
      if (strings.matches(S, from, to)) return length
    }
    return -1
  }

  /** Matches at exactly `start`: the end of the match, or -1. */
  matchAt(S: string, start: number): number {
    const { code, tests, unicode, unicodeSets } = this.program
    const mem = this.mem
    // Only captures can be read before this attempt writes them; registers are always set first.
    mem.fill(-1, 0, 2 * (this.program.captureCount + 1))
    const end = S.length
    let pc = 0
    let pos = start
    this.sp = 0
    this.tp = 0
    for (;;) {
      if (--this.budget <= 0) this.charge(0)
      matched: switch (code[pc]) {
        case Op.Char: {
          const c = readChar(S, pos, code[pc + 1]!, unicode)
          if (c < 0 || c !== code[pc + 2]) break
          pos = nextPos
          pc += 3
          continue
        }
        case Op.Test: {
          const c = readChar(S, pos, code[pc + 1]!, unicode)
          if (c < 0 || !tests[code[pc + 2]!]!(c)) break
          pos = nextPos
          pc += 3
          continue
        }
        case Op.Star: {
          const dir = code[pc + 1]!
          const test = tests[code[pc + 2]!]!
          const min = code[pc + 3]!
          const max = code[pc + 4]!
          let count = 0
          let p = pos
          let minPos = min === 0 ? pos : -1
          while (count < max) {
            const c = readChar(S, p, dir, unicode)
            if (c < 0 || !test(c)) break
            p = nextPos
            if (++count === min) minPos = p
            if ((count & (POLL_EVERY - 1)) === 0) this.charge(POLL_EVERY)
          }
          if (count < min) break
          if (p !== minPos) this.push(dir === 1 ? STAR_FORWARD : STAR_BACKWARD, pc + 5, p, minPos)
          pos = p
          pc += 5
          continue
        }
        case Op.LazyStar: {
          const dir = code[pc + 1]!
          const test = tests[code[pc + 2]!]!
          const min = code[pc + 3]!
          let count = 0
          let p = pos
          while (count < min) {
            const c = readChar(S, p, dir, unicode)
            if (c < 0 || !test(c)) break
            p = nextPos
            if ((++count & (POLL_EVERY - 1)) === 0) this.charge(POLL_EVERY)
          }
          if (count < min) break
          if (count < code[pc + 4]!) this.push(LAZY, pc, p, count)
          pos = p
          pc += 5
          continue
        }
        case Op.LineStart:
          if (pos !== 0 && !(code[pc + 1] === 1 && isLineTerminator(S.charCodeAt(pos - 1)))) break
          pc += 2
          continue
        case Op.LineEnd:
          if (pos !== end && !(code[pc + 1] === 1 && isLineTerminator(S.charCodeAt(pos)))) break
          pc += 2
          continue
        case Op.WordBoundary: {
          const isWord = tests[code[pc + 2]!]!
          const a = pos > 0 && isWord(S.charCodeAt(pos - 1))
          const b = pos < end && isWord(S.charCodeAt(pos))
          if ((a !== b) === (code[pc + 1] === 1)) break
          pc += 3
          continue
        }
        case Op.Jump:
          pc = code[pc + 1]!
          continue
        case Op.Split:
          this.push(CHOICE, code[pc + 1]!, pos, 0)
          pc += 2
          continue
        case Op.SetPosition:
          this.write(code[pc + 1]!, pos)
          pc += 2
          continue
        case Op.SetZero:
          this.write(code[pc + 1]!, 0)
          pc += 2
          continue
        case Op.Reset:
          for (let slot = code[pc + 1]!; slot < code[pc + 2]!; slot++) if (mem[slot] !== -1) this.write(slot, -1)
          pc += 3
          continue
        case Op.Capture: {
          const group = code[pc + 2]!
          const other = mem[code[pc + 3]!]!
          this.write(2 * group, code[pc + 1] === 1 ? other : pos)
          this.write(2 * group + 1, code[pc + 1] === 1 ? pos : other)
          pc += 4
          continue
        }
        case Op.Repeat: {
          const count = mem[code[pc + 1]!]!
          const exit = code[pc + 5]!
          if (count < code[pc + 2]!) pc += 6
          else if (count >= code[pc + 3]!) pc = exit
          else if (code[pc + 4] === 1) {
            this.push(CHOICE, exit, pos, 0)
            pc += 6
          } else {
            this.push(CHOICE, pc + 6, pos, 0)
            pc = exit
          }
          continue
        }
        case Op.RepeatEnd: {
          const counter = code[pc + 1]!
          const count = mem[counter]!
          // An iteration past the minimum that matched the empty string fails (the spec's empty check).
          if (count >= code[pc + 3]! && pos === mem[code[pc + 2]!]) break
          this.write(counter, count + 1)
          pc = code[pc + 4]!
          continue
        }
        case Op.Backref: {
          const dir = code[pc + 1]!
          const n = code[pc + 3]!
          let from = -1
          let to = -1
          for (let k = 0; k < n; k++) {
            const group = code[pc + 4 + k]!
            if (mem[2 * group]! >= 0 && mem[2 * group + 1]! >= 0) {
              from = mem[2 * group]!
              to = mem[2 * group + 1]!
              break
            }
          }
          const len = to - from
          const at = dir === 1 ? pos : pos - len
          if (at < 0 || at + len > end) break
          this.charge(len >>> 4)
          if (code[pc + 2] === 1) {
            for (let k = 0; k < len; ) {
              const a = unicode ? S.codePointAt(from + k)! : S.charCodeAt(from + k)
              const b = unicode ? S.codePointAt(at + k)! : S.charCodeAt(at + k)
              if (a !== b && !caseEquals(a, b, unicode, unicodeSets)) break matched
              k += a > 0xffff ? 2 : 1
            }
          } else if (S.substr(from, len) !== S.substr(at, len)) break
          pos = dir === 1 ? pos + len : at
          pc += 4 + n
          continue
        }
        case Op.Look:
          this.write(code[pc + 2]!, this.sp)
          this.push(code[pc + 1] === 1 ? NEGATIVE : POSITIVE, code[pc + 3]!, pos, 0)
          pc += 4
          continue
        case Op.LookEnd: {
          const barrier = mem[code[pc + 2]!]!
          const at = this.stack[barrier + 2]!
          this.sp = barrier
          if (code[pc + 1] === 1) break
          pos = at
          pc += 3
          continue
        }
        case Op.Match:
          return pos
        case Op.Strings: {
          const dir = code[pc + 1]!
          const strings = this.program.strings[code[pc + 2]!]!
          if (insidePair(S, pos)) break
          const length = dir === 1 ? strings.longestAt(S, pos) : this.shorterString(S, pos, dir, strings, code[pc + 3]!)
          if (length < 0) break
          if (length > 0) this.push(STRINGS, pc, pos, length - 1)
          pos += dir * length
          pc += 4
          continue
        }
      }
      // Failure: resume at the most recent choice point.
      for (;;) {
        let sp = this.sp
        if (sp === 0) return -1
        if (--this.budget <= 0) this.charge(0)
        const stack = this.stack
        sp -= ENTRY
        this.sp = sp
        const kind = stack[sp]!
        const mark = stack[sp + 3]!
        let tp = this.tp
        while (tp > mark) {
          tp--
          mem[this.trailSlot[tp]!] = this.trailOld[tp]!
        }
        this.tp = tp
        if (kind === POSITIVE) continue
        pc = stack[sp + 1]!
        pos = stack[sp + 2]!
        if (kind === STRINGS) {
          const dir = code[pc + 1]!
          const length = this.shorterString(S, pos, dir, this.program.strings[code[pc + 2]!]!, stack[sp + 4]!)
          if (length < 0) continue
          if (length > 0) this.push(STRINGS, pc, pos, length - 1)
          pos += dir * length
          pc += 4
          break
        }
        if (kind === LAZY) {
          // Take one more character, and keep the entry while the loop may take more.
          const c = readChar(S, pos, code[pc + 1]!, unicode)
          if (c < 0 || !tests[code[pc + 2]!]!(c)) continue
          pos = nextPos
          const count = stack[sp + 4]! + 1
          if (count < code[pc + 4]!) this.push(LAZY, pc, pos, count)
          pc += 5
          break
        }
        if (kind === STAR_FORWARD || kind === STAR_BACKWARD) {
          // Give back one character and keep the entry while characters above the minimum remain.
          readChar(S, pos, kind === STAR_FORWARD ? -1 : 1, unicode)
          pos = nextPos
          if (pos !== stack[sp + 4]) {
            stack[sp + 2] = pos
            this.sp = sp + ENTRY
          }
        }
        break
      }
    }
  }
}
