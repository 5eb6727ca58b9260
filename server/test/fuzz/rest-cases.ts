// Malformed REST requests. Each one must be answered 4xx with an error body (docs/API.md); none may be a
// request the server would accept (a logout, a settings change, an upload), so nothing stored
// changes. `expect` lists the statuses that are right for it (429 is always accepted too).
// The generators are grouped by what they get wrong: the address (rest-address-cases.ts), the body
// (rest-body-cases.ts), and the upload routes' own rules (rest-upload-cases.ts).
import type { RestIds } from './rest-case-shape';
import { addressGenerators } from './rest-address-cases';
import { bodyGenerators } from './rest-body-cases';
import { uploadGenerators } from './rest-upload-cases';


/** One generator per category of malformed request, by category name. */
export function restGenerators(ids: RestIds) {
  return { ...addressGenerators(ids), ...bodyGenerators(ids), ...uploadGenerators(ids) };
}
