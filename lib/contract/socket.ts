// Socket.IO events shared by lib/socket (client) and server/realtime.
// Event names are the spec's (SPEC §7); payload fields beyond `id` and `count` are ours.
import type { ErrorBody } from './http';

/** Every acknowledgement is either the result or an error in the HTTP error shapes. */
export type Ack<T> = { data: T } | { error: ErrorBody };
export type AckCallback<T> = (response: Ack<T>) => void;

export interface InitPayload {
  id: number;
}

export interface MessageCountPayload {
  count: number;
}

/** A stored direct message as the server sends it. */
export interface MessagePayload {
  id: number;
  client_id: string;
  sender_id: number;
  recipient_id: number;
  text: string;
  created_at: string;
  read_at: string | null;
}

export interface SendPayload {
  client_id: string;
  recipient_id: number;
  text: string;
}

export interface FollowPayload {
  user_id: number;
  follow: boolean;
}

export interface FollowedPayload {
  follower_id: number;
  followee_id: number;
  following: boolean;
}

export interface ClientToServerEvents {
  init: (payload: InitPayload, ack?: AckCallback<InitPayload>) => void;
  send: (payload: SendPayload, ack?: AckCallback<MessagePayload>) => void;
  follow: (payload: FollowPayload, ack?: AckCallback<FollowedPayload>) => void;
}

export interface ServerToClientEvents {
  message_count: (payload: MessageCountPayload) => void;
  message: (payload: MessagePayload) => void;
  followed: (payload: FollowedPayload) => void;
}

/** The handshake's `auth` object: the stored token value, with or without its Bearer prefix. */
export interface HandshakeAuth {
  token: string;
}
