// Multipart bodies for the operations that take files (project import, project uploads, the appearance's
// logos). The generated types say `string` for a `format: binary` field; here it takes a Blob (or File),
// and the body is sent as multipart/form-data instead of JSON.
import type { paths } from './spec.js';

type WriteMethod = 'post' | 'put';

/** The paths whose `Method` operation takes a multipart/form-data body. */
export type MultipartPath<Method extends WriteMethod = 'post'> = {
  [P in keyof paths]: paths[P][Method] extends { requestBody: { content: { 'multipart/form-data': object } } }
    ? P
    : never;
}[keyof paths];

/** The multipart body of an operation, as the spec types it. */
export type MultipartBody<
  P extends MultipartPath<Method>,
  Method extends WriteMethod = 'post',
> = paths[P][Method] extends { requestBody: { content: { 'multipart/form-data': infer Body } } }
  ? Body
  : never;

/** The body as the caller gives it: every string field may be a Blob (the file fields are strings in the types). */
export type MultipartInput<Body> = {
  [K in keyof Body]: Body[K] extends string
    ? Body[K] | Blob
    : string extends Body[K]
      ? Body[K] | Blob
      : Body[K];
};

/**
 * `client.POST('/projects/import', multipart<'/projects/import'>({ path: 'imported', file: archive }))`:
 * the body and the serializer that sends it as FormData (the browser or undici sets the boundary).
 */
export function multipart<P extends MultipartPath<Method>, Method extends WriteMethod = 'post'>(
  body: MultipartInput<MultipartBody<P, Method>>,
): { body: MultipartBody<P, Method>; bodySerializer: (body: unknown) => FormData } {
  return { body: body as MultipartBody<P, Method>, bodySerializer: toFormData };
}

/** Fields as Rails reads them: `key[]` for lists, `key[name]` for objects; absent and null values left out. */
export function toFormData(body: unknown): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) append(form, key, value);
  return form;
}

function append(form: FormData, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  // A File keeps its name; FormData names any other Blob "blob".
  if (value instanceof Blob) {
    form.append(key, value);
  } else if (Array.isArray(value)) {
    for (const item of value) append(form, `${key}[]`, item);
  } else if (typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) append(form, `${key}[${name}]`, item);
  } else {
    form.append(key, String(value));
  }
}
