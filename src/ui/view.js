// Pieces every page draws with: the htm template tag over Preact, times, durations, JSON, status badges, errors,
// and highlighted code.
import { h } from "./vendor/preact.mjs"
import htm from "./vendor/htm.mjs"
import { highlight } from "./highlight.js"

export const html = htm.bind(h)

export const ENDED = new Set(["succeeded", "failed", "cancelled"])

/** A time as the person's clock shows it, to the second; the ISO time is in the title. */
export const Time = ({ at }) =>
  at === undefined ? "" : html`<time datetime=${at} title=${at}>${new Date(at).toLocaleString(undefined, { hour12: false })}</time>`

export const duration = (ms) => {
  if (ms === undefined || !Number.isFinite(ms)) return ""
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
  const m = Math.floor(ms / 60_000)
  return m < 60 ? `${m} min ${Math.round((ms % 60_000) / 1000)} s` : `${Math.floor(m / 60)} h ${m % 60} min`
}

/** JSON for reading, cut at `max` characters (the full text is in the title). */
export const Json = ({ value, max = 2000 }) => {
  const text = value === undefined ? "(not recorded)" : JSON.stringify(value, null, 2)
  return html`<pre class="json">${text.length > max ? `${text.slice(0, max)}…` : text}</pre>`
}

/** A run's status, as a word and a colour (the word carries it for everyone who cannot tell the colours apart). */
export const Status = ({ status }) => html`<span class=${`status status-${status}`}>${status}</span>`

export const Failure = ({ error }) =>
  error === undefined ? null : html`<p class="failure" role="alert"><strong>${error.kind ?? "Error"}</strong>: ${error.message}</p>`

/**
 * Highlighted source with line numbers. `marks` maps a 1-based line to `{ kind, label }` (kinds: call,
 * suspended, error); a marked line gets the class, and its label beside it for screen readers and for the eye.
 * `numbered` false leaves the line numbers out (a signature is not a program).
 */
export const Code = ({ source, marks = new Map(), label, numbered = true }) => {
  const lines = highlight(source)
  return html`<figure class="code">
    <figcaption class="visually-hidden">${label}</figcaption>
    <ol class=${numbered ? "lines" : "lines plain"}>
      ${lines.map((tokens, i) => {
        const mark = marks.get(i + 1)
        return html`<li class=${mark === undefined ? "" : `mark-${mark.kind}`} data-line=${i + 1}>
          <code>${tokens.map((t) => (t.kind === "space" || t.kind === "punct" || t.kind === "name" ? t.text : html`<span class=${`tok-${t.kind}`}>${t.text}</span>`))}</code>
          ${mark !== undefined && html`<span class="mark-label">${mark.label}</span>`}
        </li>`
      })}
    </ol>
  </figure>`
}
