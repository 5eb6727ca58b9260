import type { FastifyInstance } from 'fastify';
import type { User } from '../../lib/contract';
import { profileRequestSchema } from '../../lib/contract/schemas';
import type { Db } from '../db/engine/open-database';
import { profileWatchers, updateProfile } from '../db/profile';
import type { FileStorage } from '../storage/file-storage';
import { authenticateActive } from './authenticate';
import { HttpError, parseBody } from './errors';
import type { SocketNotifier } from '../realtime/socket-reach';
import { toUser } from '../db/user-dto';

export interface ProfileRoutesDeps {
  db: Db;
  storage: FileStorage;
  sockets: SocketNotifier;
}

const fieldError = (message: string) => new HttpError(400, { non_field_errors: [message] });

/** The user's own name and photo (docs/API.md, "PATCH /api/accounts/profile"). */
export function profileRoutes(app: FastifyInstance, { db, storage, sockets }: ProfileRoutesDeps): void {
  app.patch('/accounts/profile', { config: { rateLimit: 'profile' } }, async (request): Promise<User> => {
    const { user } = await authenticateActive(db, request);
    const body = parseBody(profileRequestSchema, request.body);
    const result = await updateProfile(db, user.id, { username: body.username, avatarUploadId: body.avatar_upload_id });
    if (!result.ok) {
      if (result.problem === 'no-user') throw HttpError.msg(404, 'User not found.');
      // The same answer for an upload of someone else's as for none: ids of others' files stay unconfirmed.
      if (result.problem === 'no-upload') throw fieldError('avatar_upload_id: No such upload of yours.');
      throw fieldError('avatar_upload_id: Must be an image (PNG, JPEG, WebP or GIF).');
    }
    // The replaced photo's file, now that no row points at it; one that fails to go is logged.
    await Promise.all(
      result.removedStorageKeys.map((key) =>
        storage.remove(key).catch((error: unknown) => request.log.error({ err: error }, 'replaced photo: upload file not removed')),
      ),
    );
    const after = toUser(result.user);
    if (result.changed) {
      // Live to the user's own tabs and to everyone whose list shows them; anyone else (search,
      // follow lists, a profile card) reads the new values on their next request.
      const watchers = await profileWatchers(db, user.id).catch((error: unknown) => {
        request.log.warn({ err: error }, 'profile change not announced to conversation peers');
        return [];
      });
      sockets.notify([user.id, ...watchers], 'user_updated', { id: after.id, username: after.username, avatar: after.avatar });
    }
    return after;
  });
}
