// REST cases against the upload routes: an upload with a bad name or framing, a download with the
// wrong id or name, a range past the file's end, a deletion of an upload that is not the caller's.
import { encodePart, hostileString } from './hostile-values';
import type { Rng } from './prng';
import { TOKEN_ALPHABET, requestParts, type RestCase, type RestIds } from './rest-case-shape';

export function uploadGenerators(ids: RestIds) {
  const { auth } = requestParts(ids);

  const generators: Record<string, (rng: Rng) => RestCase> = {
    'upload-post': (rng) => {
      const defect = rng.pick(['name', 'name', 'name', 'chunked', 'empty']);
      const badName = () => rng.pick([
        '', ' ', '.', '..', '/', 'a%2F', '%2F', 'dir%2F', '..%2F..%2F', '%5C', 'C%3A%5C', '%', '%E0%A4%A', '%ZZ', '%00', 'a%00b',
        'a%0Ab', 'a%0D%0Ab', '%7F', '%1B%5B31m', encodeURIComponent('x'.repeat(256)), encodeURIComponent('é'.repeat(300)), '%20%20',
      ]);
      const headers: Record<string, string> = { ...auth, 'content-type': rng.pick(['image/png', 'application/json', 'text/plain']) };
      const body = rng.bytes(rng.int(1, 2_048));
      if (defect === 'name') {
        const name = rng.chance(0.1) ? undefined : badName();
        if (name !== undefined) headers['x-file-name'] = name;
        return { category: 'upload-post', method: 'POST', path: '/api/uploads', headers, body, expect: [400] };
      }
      headers['x-file-name'] = 'file.bin';
      if (defect === 'chunked') return { category: 'upload-post', method: 'POST', path: '/api/uploads', headers, body, chunked: true, expect: [400] };
      return { category: 'upload-post', method: 'POST', path: '/api/uploads', headers: { ...headers, 'content-length': '0' }, body: Buffer.alloc(0), expect: [400] };
    },

    // Public, but only with the right id and name.
    'upload-get': (rng) => {
      const { id, name } = ids.peerUpload;
      const [badId, badName] = rng.pick<[string, string]>([
        [rng.chars(24, TOKEN_ALPHABET), name], [id.toLowerCase(), name], [id.slice(0, -1), name], [`${id}x`, name], [id, `${name}x`],
        [id, name.toUpperCase()], [id, encodeURIComponent(`../${name}`)], [id, '*'], [id, '%00'], [id, `${name}%00`], ['*', '*'],
        [id, encodePart(hostileString(rng, 200)) || 'x'], [encodePart(hostileString(rng, 200)) || 'x', name],
        ['..%2F..%2Fpackage.json', 'x'], ['%2e%2e', '%2e%2e'], [id, `${name}/`],
      ]);
      if (badId === id && badName === name) return generators['upload-get']!(rng);
      return { category: 'upload-get', method: rng.pick(['GET', 'HEAD']), path: `/api/uploads/${badId}/${badName}`, headers: {}, expect: [400, 404] };
    },

    // Deleting an unsent upload: someone else's (the peer's, which must survive), an id spelled
    // wrong, or no id at all.
    'upload-delete': (rng) => {
      const { id } = ids.peerUpload;
      const badId = rng.pick<string>([
        id, id.toLowerCase(), id.slice(0, -1), `${id}x`, `${id}%00`, '%00', rng.chars(24, TOKEN_ALPHABET), '*', '%2e%2e', '..%2F..%2Fpackage.json',
        encodePart(hostileString(rng, 200)) || 'x', `${id}%20`, "x' OR '1'='1",
      ]);
      return { category: 'upload-delete', method: 'DELETE', path: `/api/uploads/${badId}`, headers: auth, expect: [400, 404] };
    },

    // A real download asked for bytes it does not have: a suffix of none, or a start past any
    // file's end, however it is spelled (a range the server does not serve would be a 200).
    'upload-range': (rng) => {
      const { id, name } = ids.peerUpload;
      const start = rng.pick(['99999999999', '9'.repeat(rng.int(16, 400)), String(2 ** 31), String(2 ** 53 + 1), '000000000000099999999']);
      const spec = rng.pick([`${start}-`, `${start}-${start}`, `${start}-${start}${'9'.repeat(rng.int(1, 40))}`, '-0', '-000']);
      const unit = rng.pick(['bytes', 'BYTES', 'Bytes']);
      const range = rng.chance(0.3) ? `${unit} = ${spec.replace('-', ' - ')}` : `${unit}=${spec}`;
      const headers: Record<string, string> = { range, ...(rng.chance(0.3) && { 'if-range': `"${id}"` }) };
      return { category: 'upload-range', method: rng.pick(['GET', 'HEAD']), path: `/api/uploads/${id}/${name}`, headers, expect: [416] };
    },
  };
  return generators;
}
