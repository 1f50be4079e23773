// The runs list: newest first, filtered by status, tool path and creation time (by the service, so paging stays
// right), a page at a time (the service's cursor), the first page refreshed every two seconds so new runs and
// status changes appear by themselves.
import { useEffect, useState } from "./vendor/hooks.mjs"
import { api, query } from "./api.js"
import { ENDED, Failure, Status, Time, duration, html } from "./view.js"

const PAGE_SIZE = 20
const LIVE_MS = 2000

/** The tools a run called or is calling, as the program named them. */
const toolsOf = (run) => [...new Set([...(run.result?.toolCalls ?? []), ...(run.pendingCalls ?? [])].map((c) => c.path))]

const toIso = (local) => (local === "" ? "" : new Date(local).toISOString())

const load = (f, cursor) =>
  api("GET", `/v1/runs${query({ status: f.status, tool: f.tool, since: toIso(f.since), until: toIso(f.until), limit: PAGE_SIZE, cursor })}`)

export const RunsPage = () => {
  const [filters, setFilters] = useState({ status: "", tool: "", since: "", until: "" })
  // The cursors of the pages before this one, so "Newer" can go back.
  const [cursors, setCursors] = useState([undefined])
  const [page, setPage] = useState(undefined)
  const [error, setError] = useState(undefined)
  const cursor = cursors.at(-1)

  useEffect(() => {
    let stopped = false
    const refresh = () =>
      load(filters, cursor).then(
        (p) => stopped || (setPage(p), setError(undefined)),
        (e) => stopped || setError(e),
      )
    refresh()
    const timer = cursor === undefined ? setInterval(() => document.visibilityState === "visible" && refresh(), LIVE_MS) : undefined
    return () => ((stopped = true), clearInterval(timer))
  }, [filters, cursor])

  const set = (name) => (e) => {
    setFilters({ ...filters, [name]: e.currentTarget.value })
    setCursors([undefined])
  }
  const runs = page?.runs ?? []
  return html`<section aria-labelledby="runs-title">
    <h1 id="runs-title">Runs</h1>
    <form class="filters" role="search" aria-label="Filter runs" onSubmit=${(e) => e.preventDefault()}>
      <div class="field">
        <label for="filter-status">Status</label>
        <select id="filter-status" value=${filters.status} onChange=${set("status")}>
          <option value="">any</option>
          ${["running", "suspended", "succeeded", "failed", "cancelled"].map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </div>
      <div class="field"><label for="filter-tool">Tool</label><input id="filter-tool" type="search" placeholder="orders.lookup" value=${filters.tool} onChange=${set("tool")} /></div>
      <div class="field"><label for="filter-since">Created after</label><input id="filter-since" type="datetime-local" step="1" value=${filters.since} onChange=${set("since")} /></div>
      <div class="field"><label for="filter-until">Created before</label><input id="filter-until" type="datetime-local" step="1" value=${filters.until} onChange=${set("until")} /></div>
    </form>
    <${Failure} error=${error} />
    ${page === undefined && error === undefined
      ? html`<p aria-busy="true">Loading…</p>`
      : html`<table class="runs">
          <caption class="visually-hidden">Runs, newest first${cursor === undefined ? ", updating live" : ""}</caption>
          <thead><tr><th scope="col">Run</th><th scope="col">Status</th><th scope="col">Tools</th><th scope="col">Created</th><th scope="col">Took</th></tr></thead>
          <tbody>
            ${runs.length === 0 && html`<tr><td colspan="5">No runs${filters.status || filters.tool || filters.since || filters.until ? " match these filters" : " yet"}.</td></tr>`}
            ${runs.map(
              (r) => html`<tr data-run=${r.id}>
                <th scope="row"><a href=${`#/runs/${encodeURIComponent(r.id)}`}>${r.id}</a></th>
                <td><${Status} status=${r.status} /></td>
                <td class="paths">${toolsOf(r).join(", ")}</td>
                <td><${Time} at=${r.createdAt} /></td>
                <td>${ENDED.has(r.status) ? duration(Date.parse(r.updatedAt) - Date.parse(r.createdAt)) : ""}</td>
              </tr>`,
            )}
          </tbody>
        </table>`}
    <nav class="pager" aria-label="Pages of runs">
      <button type="button" disabled=${cursors.length === 1} onClick=${() => setCursors(cursors.slice(0, -1))}>← Newer</button>
      <button type="button" disabled=${page?.nextCursor === undefined} onClick=${() => setCursors([...cursors, page.nextCursor])}>Older →</button>
    </nav>
  </section>`
}
