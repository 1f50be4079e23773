/**
 * A version per tenant of its tools and namespaces (issue 20), raised by every change of either table: a replica
 * keeps a tenant's registrations with the version it read, and a new run started with them is written only while
 * that version is still the tenant's (`NewRun.toolsVersion`), so a run never commits with registrations another
 * replica changed before its first write. Before, every POST /v1/runs read the tenant's registrations.
 *
 * Raised by a trigger, so every write of the tables counts, whoever makes it. A tenant with no row is at version 0.
 *
 * Mixed versions: a replica of an older version neither checks the version nor keeps registrations; its writes of
 * tools raise the version through the trigger like any other.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE tool_versions (tenant text PRIMARY KEY, version bigint NOT NULL)`
  yield* sql`
    CREATE FUNCTION tool_versions_raise() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      of_tenant text := CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant ELSE NEW.tenant END;
    BEGIN
      INSERT INTO tool_versions AS v (tenant, version) VALUES (of_tenant, 1)
      ON CONFLICT (tenant) DO UPDATE SET version = v.version + 1;
      RETURN NULL;
    END $$`
  yield* sql`CREATE TRIGGER tools_version AFTER INSERT OR UPDATE OR DELETE ON tools FOR EACH ROW EXECUTE FUNCTION tool_versions_raise()`
  yield* sql`CREATE TRIGGER namespaces_version AFTER INSERT OR UPDATE OR DELETE ON namespaces FOR EACH ROW EXECUTE FUNCTION tool_versions_raise()`
})
