/**
 * The service schema (issue 6). Postgres is the source of truth; replicas hold nothing a restart would lose.
 *
 * - runs: one row per run. `owner` + `lease_expires_at` say which replica executes it (null when suspended or
 *   finished); `version` increases on every state change; `control` carries a suspend/cancel request (and the
 *   owner's refusal) for the replica that executes the run, so a lost NOTIFY is caught by the owner's poll.
 *   `seq` orders the list newest first and is the page cursor.
 * - calls: every host call of a run, keyed by (run_id, key) — the key is `<runId>:<callId>` — with its state
 *   (queued, running, started, settled), durable data and outcome.
 * - tools / namespaces: webhook registrations per tenant; `secret` signs every request (Standard Webhooks).
 * - events: the per-run history (status changes, calls), for the event stream of issue 7.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE runs (
    id text PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    tenant text NOT NULL,
    status text NOT NULL CHECK (status IN ('running', 'suspended', 'succeeded', 'failed', 'cancelled')),
    code text NOT NULL,
    limits jsonb NOT NULL DEFAULT '{}',
    tools jsonb,
    snapshot bytea,
    result jsonb,
    owner text,
    lease_expires_at timestamptz,
    control jsonb,
    version integer NOT NULL DEFAULT 0,
    recovery_attempts integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`
  yield* sql`CREATE INDEX runs_tenant_seq ON runs (tenant, seq DESC)`
  yield* sql`CREATE INDEX runs_tenant_status_seq ON runs (tenant, status, seq DESC)`
  yield* sql`CREATE INDEX runs_owner ON runs (owner) WHERE status = 'running'`
  yield* sql`CREATE TABLE calls (
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key text NOT NULL,
    path text NOT NULL,
    mode text NOT NULL DEFAULT 'plain',
    input jsonb,
    state text NOT NULL CHECK (state IN ('queued', 'running', 'started', 'settled')),
    data jsonb,
    outcome jsonb,
    attempts integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, key)
  )`
  yield* sql`CREATE UNIQUE INDEX calls_key ON calls (key)`
  yield* sql`CREATE TABLE tools (
    tenant text NOT NULL,
    path text NOT NULL,
    description text NOT NULL,
    input_schema jsonb NOT NULL,
    output_schema jsonb,
    url text NOT NULL,
    mode text NOT NULL CHECK (mode IN ('plain', 'idempotent', 'durable')),
    timeout_ms integer,
    secret text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, path)
  )`
  yield* sql`CREATE TABLE namespaces (
    tenant text NOT NULL,
    path text NOT NULL,
    description text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, path)
  )`
  yield* sql`CREATE TABLE events (
    id bigserial PRIMARY KEY,
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    type text NOT NULL,
    data jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
  )`
  yield* sql`CREATE INDEX events_run ON events (run_id, id)`
})
