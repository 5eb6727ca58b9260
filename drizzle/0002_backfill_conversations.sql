-- Conversations for messages stored before the conversations table existed: one row per side of
-- each pair, pointing at the pair's newest message, counting the peer's unread messages.
INSERT INTO "conversations" ("user_id", "peer_id", "last_message_id", "last_message_at", "unread_count")
SELECT side.user_id, side.peer_id, max(m.id), (array_agg(m.created_at ORDER BY m.id DESC))[1],
       count(*) FILTER (WHERE m.recipient_id = side.user_id AND m.read_at IS NULL)
FROM "messages" m
CROSS JOIN LATERAL (VALUES (m.sender_id, m.recipient_id), (m.recipient_id, m.sender_id)) AS side(user_id, peer_id)
GROUP BY side.user_id, side.peer_id
ON CONFLICT DO NOTHING;
