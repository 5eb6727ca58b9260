-- Search folds accents (unaccent) and finds the middle of names (pg_trgm): contrib extensions that
-- come with PostgreSQL, and with PGlite, whose worker loads them (server/db/pglite-worker.mjs).
-- Both are trusted: the database's owner may create them (docs/DEPLOY.md).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- What search compares (server/db/tables/search.ts). unaccent() is STABLE because it looks its
-- dictionary up by name when it runs; a SQL-standard body is resolved once, here, dictionary
-- included, so the result depends on the text alone and IMMUTABLE (which indexes need) is true.
-- A change to unaccent's rules calls for REINDEX of the three indexes below.
CREATE FUNCTION parley_search_text(value text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN translate(lower(unaccent('unaccent'::regdictionary, value)), '.@/-', '    ');--> statement-breakpoint
CREATE FUNCTION parley_search_vector(value text) RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN to_tsvector('simple'::regconfig, parley_search_text(value));--> statement-breakpoint
-- Each word of the folded text as a prefix, all required; the words come out of the parser, and
-- are quoted, so nothing typed is read as a tsquery operator.
CREATE FUNCTION parley_search_query(value text) RETURNS tsquery LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (SELECT to_tsquery('simple'::regconfig, coalesce(string_agg('''' || replace(replace(word, '\', '\\'), '''', '''''') || ''':*', ' & '), ''))
    FROM unnest(tsvector_to_array(parley_search_vector(value))) AS word);--> statement-breakpoint
-- Messages: the index on the stored vector of the raw text gives way to one on the folded text.
-- The column stays for the previous release's nodes during a rolling deploy (they then search
-- the caller's messages by filter); the next release drops it. The name's index is replaced the
-- same way (those nodes look names up without it meanwhile).
DROP INDEX "messages_search_idx";--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin (parley_search_vector("text")) WITH (gin_pending_list_limit=256);--> statement-breakpoint
DROP INDEX "users_username_search_idx";--> statement-breakpoint
CREATE INDEX "users_username_search_idx" ON "users" USING gin (parley_search_vector("username")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin (parley_search_text("username") gin_trgm_ops) WITH (fastupdate=false);
