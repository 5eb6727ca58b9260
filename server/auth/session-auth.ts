// How sessions are judged, for HTTP requests and sockets alike: the lifetime rules and the check
// that the Firebase account behind a session still stands.
import type { AccountCheck } from './account-check';
import type { SessionRules } from '../db/session-rules';

export interface SessionAuth {
  rules: SessionRules;
  accountCheck: AccountCheck;
}
