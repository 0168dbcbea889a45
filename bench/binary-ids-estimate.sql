-- What binary ids would save: the three largest subgraph tables copied, once as they are (hex-text ids) and once with
-- every id as bytea (hex parts decoded, decimal parts such as a chain id as 4 bytes), each copy written at once
-- (no dead or free room), with the same indexes and fillfactor as the original. Run on a database bench:table-space
-- kept (its index schema is `idx`):
--   psql postgresql://postgres@127.0.0.1:5432/<database> -f bench/binary-ids-estimate.sql
-- docs/benchmarks.md, "Where a table's bytes go". Leaves its copies in schema `cmp` (dropped with the database).
CREATE SCHEMA IF NOT EXISTS cmp;
CREATE OR REPLACE FUNCTION cmp.bin(t text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(CASE WHEN p LIKE '0x%' THEN decode(lpad(substr(p, 3), (length(p) - 1) / 2 * 2, '0'), 'hex') ELSE int4send(p::int) END, ''::bytea ORDER BY o)
    FROM unnest(string_to_array(t, '-')) WITH ORDINALITY AS x(p, o)
$$;
DROP TABLE IF EXISTS cmp.domain_text, cmp.domain_bin, cmp.domain_history_text, cmp.domain_history_bin, cmp.resolver_history_text, cmp.resolver_history_bin;
-- Each table twice: as it is, and with its ids as bytea.
CREATE TABLE cmp.domain_text AS SELECT * FROM idx.domain;
CREATE TABLE cmp.domain_bin AS SELECT cmp.bin(id) id, name, label_name, cmp.bin(labelhash) labelhash, cmp.bin(parent_id) parent_id,
  subdomain_count, cmp.bin(resolved_address_id) resolved_address_id, cmp.bin(resolver_id) resolver_id, ttl, is_migrated, created_at,
  cmp.bin(owner_id) owner_id, cmp.bin(registrant_id) registrant_id, cmp.bin(wrapped_owner_id) wrapped_owner_id, expiry_date,
  registration_start_key, registration_expiry_key, cmp.bin(registration_event_id) registration_event_id FROM idx.domain;
CREATE TABLE cmp.domain_history_text WITH (fillfactor = 80) AS SELECT * FROM idx.domain_history;
CREATE TABLE cmp.domain_history_bin WITH (fillfactor = 80) AS SELECT cmp.bin(id) id, version, deleted, valid_to, name, label_name, cmp.bin(labelhash) labelhash,
  cmp.bin(parent_id) parent_id, subdomain_count, cmp.bin(resolved_address_id) resolved_address_id, cmp.bin(resolver_id) resolver_id, ttl,
  is_migrated, created_at, cmp.bin(owner_id) owner_id, cmp.bin(registrant_id) registrant_id, cmp.bin(wrapped_owner_id) wrapped_owner_id, expiry_date
  FROM idx.domain_history;
CREATE TABLE cmp.resolver_history_text WITH (fillfactor = 80) AS SELECT * FROM idx.resolver_history;
CREATE TABLE cmp.resolver_history_bin WITH (fillfactor = 80) AS SELECT cmp.bin(id) id, version, deleted, valid_to, cmp.bin(domain_id) domain_id,
  cmp.bin(address) address, cmp.bin(addr_id) addr_id, cmp.bin(content_hash) content_hash, texts, coin_types FROM idx.resolver_history;
DO $$
DECLARE r record; s text;
BEGIN
  FOR r IN SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'idx' AND tablename IN ('domain', 'domain_history', 'resolver_history') LOOP
    FOREACH s IN ARRAY ARRAY['text', 'bin'] LOOP
      EXECUTE regexp_replace(regexp_replace(r.indexdef, 'INDEX (\S+) ON idx\.(\S+)', 'INDEX \1_' || s || ' ON cmp.\2_' || s), 'UNIQUE ', '');
    END LOOP;
  END LOOP;
END $$;
SELECT relname AS copy, pg_size_pretty(pg_relation_size(c.oid)) heap, pg_size_pretty(pg_indexes_size(c.oid)) idx,
       round(pg_total_relation_size(c.oid) / 1048576.0, 1) AS total_mib,
       round(pg_relation_size(c.oid)::numeric / greatest(reltuples, 1)) AS heap_b_per_row
  FROM pg_class c WHERE relnamespace = 'cmp'::regnamespace AND relkind = 'r' ORDER BY relname;
