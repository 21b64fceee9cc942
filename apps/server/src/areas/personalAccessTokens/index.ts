// Personal access tokens (GitLab v4's lib/api/personal_access_tokens.rb and POST
// /users/:user_id/personal_access_tokens): administrators make them for users; users list, read and revoke
// their own; the token of a request reads and revokes itself.
import type { Area } from '../../core/area.js';
import { personalAccessTokensHandlers } from './routes.js';

export const personalAccessTokensArea: Area = {
  name: 'personalAccessTokens',
  handlers: personalAccessTokensHandlers,
};
