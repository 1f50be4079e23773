// The tool catalog: every registered tool under its namespace, with its description, TypeScript signature and
// registration details (mode, the webhook's host, timeouts — never its secret, which the API does not show), and
// a search: the service's own (`GET /v1/tools/search`), which finds and ranks tools as a program's `search()` does.
import { useEffect, useState } from "./vendor/hooks.mjs"
import { api, query } from "./api.js"
import { Code, Failure, duration, html } from "./view.js"

const namespaceOf = (path) => (path.includes(".") ? path.slice(0, path.lastIndexOf(".")) : "")

const hostOf = (url) => {
  try {
    return new URL(url).host
  } catch {
    return ""
  }
}

const search = (q) => api("GET", `/v1/tools/search${query({ q, limit: 50 })}`).then((found) => found.results.map((r) => r.path))

const Tool = ({ tool }) => html`<article class="tool" aria-labelledby=${`tool-${tool.path}`} data-tool=${tool.path}>
  <h3 id=${`tool-${tool.path}`}><code>${tool.path}</code></h3>
  <p>${tool.description}</p>
  <${Code} source=${tool.signature} label=${`The signature of ${tool.path}`} numbered=${false} />
  <dl class="facts">
    <div><dt>Mode</dt><dd>${tool.mode}</dd></div>
    <div><dt>Webhook host</dt><dd>${hostOf(tool.url)}</dd></div>
    ${tool.timeoutMs !== undefined && html`<div><dt>Timeout</dt><dd>${duration(tool.timeoutMs)}</dd></div>`}
    ${tool.heartbeatTimeoutMs !== undefined && html`<div><dt>Heartbeat timeout</dt><dd>${duration(tool.heartbeatTimeoutMs)}</dd></div>`}
  </dl>
</article>`

export const ToolsPage = () => {
  const [catalog, setCatalog] = useState(undefined)
  const [q, setQ] = useState("")
  const [found, setFound] = useState(undefined)
  const [error, setError] = useState(undefined)
  useEffect(() => {
    api("GET", "/v1/tools").then(setCatalog, setError)
  }, [])
  const submit = (e) => {
    e.preventDefault()
    if (q.trim() === "") return setFound(undefined)
    search(q.trim()).then((paths) => (setFound(paths), setError(undefined)), setError)
  }
  if (catalog === undefined) return error === undefined ? html`<p aria-busy="true">Loading tools…</p>` : html`<h1>Tools</h1><${Failure} error=${error} />`
  const byPath = new Map(catalog.tools.map((t) => [t.path, t]))
  const shown = found === undefined ? catalog.tools : found.map((p) => byPath.get(p)).filter(Boolean)
  const namespaces = new Map(catalog.namespaces.map((n) => [n.path, n.description]))
  const groups = Map.groupBy(shown, (t) => namespaceOf(t.path))
  return html`<section aria-labelledby="tools-title">
    <h1 id="tools-title">Tools</h1>
    <form class="filters" role="search" aria-label="Search tools" onSubmit=${submit}>
      <label for="tool-search">Search</label>
      <input id="tool-search" type="search" placeholder="what the tool does" value=${q} onInput=${(e) => setQ(e.currentTarget.value)} />
      <button type="submit">Search</button>
      ${found !== undefined && html`<button type="button" onClick=${() => (setQ(""), setFound(undefined))}>Show all</button>`}
    </form>
    <${Failure} error=${error} />
    <p aria-live="polite">${found === undefined ? `${catalog.tools.length} tools` : `${shown.length} found for “${q}”`}</p>
    ${[...groups].map(
      ([ns, tools]) => html`<section class="namespace" aria-labelledby=${`ns-${ns}`}>
        <h2 id=${`ns-${ns}`}>${ns === "" ? "(top level)" : html`<code>${ns}</code>`}</h2>
        ${namespaces.has(ns) && html`<p class="ns-description">${namespaces.get(ns)}</p>`}
        ${tools.map((t) => html`<${Tool} tool=${t} />`)}
      </section>`,
    )}
  </section>`
}
