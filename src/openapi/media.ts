/**
 * Media types, as a generated tool treats them: JSON is parsed, text is a string, `*∕*` is read by the response's
 * own content type; event streams, JSON-lines streams and anything binary cannot be a tool's single result.
 * RFC 6839 structured syntax suffixes count: `application/problem+json` is JSON, `application/atom+xml` is text.
 */

export type MediaKind = "json" | "any" | "text" | "event-stream" | "stream" | "binary"

const STREAMS = new Set(["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines", "application/json-seq", "application/stream+json"])

const TEXT_APPLICATIONS = new Set(["application/xml", "application/yaml", "application/x-yaml", "application/javascript", "application/x-www-form-urlencoded", "application/graphql"])

/** The essence of a media type: lower case, without parameters. */
export const essence = (mediaType: string): string => mediaType.split(";")[0]!.trim().toLowerCase()

/** What a media type (with its schema, when the document gives one) is to a tool. */
export const classifyMedia = (mediaType: string, schema?: unknown): MediaKind => {
  const type = essence(mediaType)
  if (type === "text/event-stream") return "event-stream"
  if (STREAMS.has(type)) return "stream"
  if (type === "application/json" || /^application\/[^/]+\+json$/.test(type)) return "json"
  // A string schema with a binary format is how OpenAPI 3.0 writes "bytes" (3.1 also has contentEncoding).
  const binary =
    typeof schema === "object" && schema !== null && ((schema as { format?: unknown }).format === "binary" || (schema as { contentMediaType?: unknown }).contentMediaType !== undefined)
  if (binary) return "binary"
  if (type === "*/*" || type === "application/*") return "any"
  if (type.startsWith("text/") || TEXT_APPLICATIONS.has(type) || /^application\/[^/]+\+xml$/.test(type)) return "text"
  return "binary"
}

/** Whether a response's `Content-Type` says its body is JSON. */
export const isJsonContentType = (contentType: string | undefined): boolean => contentType !== undefined && classifyMedia(contentType) === "json"
