-- A smaller GIN pending list for message search: merged in smaller, more frequent steps.
ALTER INDEX "messages_search_idx" SET (gin_pending_list_limit = 256);
