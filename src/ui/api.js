// The inspector's one way to the service: the same /v1 API any client uses, on this origin, with the API key the
// person entered once (kept in sessionStorage, so it goes when the tab closes). Every answer that is not 2xx becomes
// an ApiError carrying the service's { error: { kind, message } }.

const KEY = "codemode.apiKey"

export const apiKey = {
  get: () => sessionStorage.getItem(KEY) ?? "",
  set: (key) => (key === "" ? sessionStorage.removeItem(KEY) : sessionStorage.setItem(KEY, key)),
}

export class ApiError extends Error {
  constructor(status, kind, message) {
    super(message)
    this.status = status
    this.kind = kind
  }
}

/** Called with every 401, so the app can ask for a key wherever the person is. */
let onUnauthorized = () => {}
export const whenUnauthorized = (f) => (onUnauthorized = f)

const headers = (extra = {}) => {
  const key = apiKey.get()
  return { ...(key === "" ? {} : { authorization: `Bearer ${key}` }), ...extra }
}

const fail = async (res) => {
  let body
  try {
    body = await res.json()
  } catch {
    body = undefined
  }
  if (res.status === 401) onUnauthorized()
  return new ApiError(res.status, body?.error?.kind ?? "HttpError", body?.error?.message ?? `${res.status} ${res.statusText}`)
}

export const api = async (method, path, body) => {
  const res = await fetch(path, {
    method,
    headers: headers(body === undefined ? {} : { "content-type": "application/json" }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (!res.ok) throw await fail(res)
  return res.status === 204 ? undefined : res.json()
}

/** `/v1/runs?…` with only the filters that are set. */
export const query = (params) => {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v))
  const s = q.toString()
  return s === "" ? "" : `?${s}`
}

/**
 * Follows a run's events (Server-Sent Events) with fetch rather than EventSource, which cannot send the API key.
 * Calls `onEvent({ id, event, data })` for each event after `after`; reconnects with Last-Event-ID when the
 * connection drops, and stops when the service ends the stream or `signal` aborts. Answers the last event's id: a
 * stream also ends when its replica shuts down, so the caller follows again from there while the run goes on.
 */
export const follow = async (runId, onEvent, signal, after) => {
  let last = after
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      const res = await fetch(`/v1/runs/${encodeURIComponent(runId)}/events`, {
        headers: headers(last === undefined ? {} : { "last-event-id": last }),
        signal,
      })
      if (!res.ok) throw await fail(res)
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ""
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return last
        buffer += value
        let end
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const fields = {}
          for (const line of block.split("\n")) {
            const colon = line.indexOf(":")
            if (colon <= 0) continue
            const name = line.slice(0, colon)
            const text = line.slice(colon + 1).replace(/^ /, "")
            fields[name] = name === "data" && fields.data !== undefined ? `${fields.data}\n${text}` : text
          }
          if (fields.data === undefined) continue
          last = fields.id
          onEvent({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) })
        }
      }
    } catch (e) {
      if (signal.aborted) return last
      if (e instanceof ApiError && e.status < 500) throw e
      await new Promise((ok) => setTimeout(ok, Math.min(5000, 250 * 2 ** attempt)))
    }
  }
  return last
}
