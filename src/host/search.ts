/**
 * Tool search (spec "Discovery"), as pure data: a query and options in, one page of matches out. The sandbox's
 * `search(...)` global (search-global.ts) is a thin wrapper around it.
 *
 * - A query that names a tool exactly (`orders.lookup`, `tools.orders.lookup`, `tools.x["a-b"]`) returns that tool.
 * - A query that names a namespace exactly browses it.
 * - An empty query browses everything (or the `namespace` option's subtree), in tree order.
 * - Otherwise words are matched against path segments (split at camelCase, `-` and `_`), the tool's description,
 *   the descriptions of enclosing namespaces, and the signature, in decreasing weight; tools matching more words
 *   rank first.
 *
 * Every item carries the callable path and the full signature, so a program can call what it found without
 * another lookup. Pages are `limit` items from `offset`, with `total`, `hasMore` and `nextOffset`.
 */
import { signatureOf } from "./catalog.ts"
import { canonicalPath, parsePathText } from "./path.ts"
import type { ToolEntry, ToolIndex } from "./tree.ts"

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

/**
 * @since 0.1.0
 * @category models
 */
export interface SearchRequest {
  readonly query?: string | undefined
  readonly namespace?: string | undefined
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SearchItem {
  /** The callable path, `tools.orders.lookup`. */
  readonly path: string
  readonly description: string
  readonly signature: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SearchPage {
  readonly items: ReadonlyArray<SearchItem>
  /** Matches in all pages. */
  readonly total: number
  readonly offset: number
  readonly limit: number
  readonly hasMore: boolean
  /** The `offset` of the next page, when there is one. */
  readonly nextOffset?: number
}

/**
 * The signature programs and hosts see for the `search` built-in.
 *
 * @since 0.1.0
 * @category constructors
 */
export const searchSignature =
  "search(query?: string, options?: { namespace?: string; limit?: number; offset?: number }): " +
  "{ items: { path: string; description: string; signature: string }[]; total: number; offset: number; limit: number; hasMore: boolean; nextOffset?: number }"

/** Why a request was refused (a TypeError for the program). */
export class SearchRequestError {
  readonly message: string
  constructor(message: string) {
    this.message = message
  }
}

/**
 * A search item as a host sees it (`runtime.search`, non-spec): the catalog's entry — canonical path — with how well
 * it matched, from 0 to 1: the weighted share of the query's words it contains (1 for an exact path or a browse).
 *
 * @since 0.1.0
 * @category models
 */
export interface RankedItem {
  readonly path: string
  readonly description: string
  readonly signature: string
  readonly score: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface RankedPage extends Omit<SearchPage, "items"> {
  readonly items: ReadonlyArray<RankedItem>
}

/** One page of the ranking, as the built-in and the host both read it. */
const rankedPage = <A>(index: ToolIndex, request: SearchRequest, shape: (m: Match) => A) => {
  const limit = request.limit === undefined ? DEFAULT_LIMIT : Math.min(checkCount("limit", request.limit, 1), MAX_LIMIT)
  const offset = request.offset === undefined ? 0 : checkCount("offset", request.offset, 0)
  const scope = request.namespace === undefined || request.namespace.trim() === "" ? [] : parsePathText(request.namespace)
  if (scope === undefined) throw new SearchRequestError(`search: ${JSON.stringify(request.namespace)} is not a namespace path`)
  const inScope = index.entries.filter((e) => isBelow(e.segments, scope))
  const matches = match(index, inScope, (request.query ?? "").trim())
  const items = matches.slice(offset, offset + limit).map(shape)
  const hasMore = offset + limit < matches.length
  return { items, total: matches.length, offset, limit, hasMore, ...(hasMore ? { nextOffset: offset + limit } : {}) }
}

export const search = (index: ToolIndex, request: SearchRequest): SearchPage => rankedPage(index, request, (m) => item(m.entry))

/** The same page for a host: canonical paths, with scores. */
export const rankedSearch = (index: ToolIndex, request: SearchRequest): RankedPage =>
  rankedPage(index, request, (m) => ({ path: m.entry.path, description: m.entry.tool.description, signature: signatureOf(m.entry), score: m.score }))

const checkCount = (name: string, v: number, min: number): number => {
  if (!Number.isInteger(v) || v < min) throw new SearchRequestError(`search: ${name} must be an integer of at least ${min}`)
  return v
}

const isBelow = (segments: ReadonlyArray<string>, scope: ReadonlyArray<string>): boolean =>
  segments.length > scope.length && scope.every((s, i) => segments[i] === s)

const item = (e: ToolEntry): SearchItem => ({ path: e.expression, description: e.tool.description, signature: signatureOf(e) })

interface Match {
  readonly entry: ToolEntry
  readonly score: number
}

const whole = (entry: ToolEntry): Match => ({ entry, score: 1 })

const match = (index: ToolIndex, entries: ReadonlyArray<ToolEntry>, query: string): ReadonlyArray<Match> => {
  if (query === "") return entries.map(whole)
  const asPath = parsePathText(query)
  if (asPath !== undefined && asPath.length > 0) {
    const exact = index.byPath.get(canonicalPath(asPath))
    if (exact !== undefined && entries.includes(exact)) return [whole(exact)]
    if (index.namespaces.has(canonicalPath(asPath))) return entries.filter((e) => isBelow(e.segments, asPath)).map(whole)
  }
  const words = tokenize(query)
  if (words.length === 0) return entries.map(whole)
  const scored = entries
    .map((entry, order) => ({ entry, order, ...score(entry, words) }))
    .filter((s) => s.matched > 0)
  scored.sort((a, b) => b.matched - a.matched || b.score - a.score || a.order - b.order)
  // Rounded: a score is for people to read and compare, not to carry float noise.
  return scored.map((s) => ({ entry: s.entry, score: Math.round((s.score / (WEIGHTS.path * words.length)) * 1000) / 1000 }))
}

/** Words of a text: split at non-alphanumerics and camelCase humps, lowercased. */
export const tokenize = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "")

/** A crude stem so `orders` finds `order` and `searches` finds `search`. */
const stem = (w: string): string => (w.length > 4 && w.endsWith("es") ? w.slice(0, -2) : w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w)

/** How well `word` matches one of `candidates`: 1 exact (or same stem), 0.6 prefix, 0.3 substring, 0 none. */
const wordMatch = (word: string, candidates: ReadonlyArray<string>): number => {
  let best = 0
  for (const c of candidates) {
    if (c === word || stem(c) === stem(word)) return 1
    if (word.length >= 3 && (c.startsWith(word) || word.startsWith(c) && c.length >= 3)) best = Math.max(best, 0.6)
    else if (word.length >= 3 && c.includes(word)) best = Math.max(best, 0.3)
  }
  return best
}

/** Words every signature has: matching them says nothing about a tool. */
const SIGNATURE_NOISE = new Set([
  "tools", "input", "promise", "string", "number", "boolean", "null", "void", "unknown", "record", "key", "integer",
  "minimum", "maximum", "exclusive", "min", "max", "length", "items", "pattern", "format", "default",
])

/** Field weights: where a word is found matters more than how often. */
const WEIGHTS = { path: 10, description: 4, namespace: 2, signature: 1 } as const

const score = (entry: ToolEntry, words: ReadonlyArray<string>): { matched: number; score: number } => {
  const fields = {
    path: entry.segments.flatMap((s) => [s.toLowerCase(), ...tokenize(s)]),
    description: tokenize(entry.tool.description),
    namespace: entry.namespaceDescriptions.flatMap(tokenize),
    signature: tokenize(signatureOf(entry)).filter((w) => !SIGNATURE_NOISE.has(w)),
  }
  let matched = 0
  let total = 0
  for (const w of words) {
    let best = 0
    for (const field of ["path", "description", "namespace", "signature"] as const) {
      best = Math.max(best, wordMatch(w, fields[field]) * WEIGHTS[field])
    }
    if (best > 0) matched++
    total += best
  }
  return { matched, score: total }
}
