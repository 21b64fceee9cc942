// The one place the client names the spec's generated types. At build time (scripts/build.mjs) the emitted
// dist/spec.d.ts is replaced by a copy of @collab/spec's dist/schema.d.ts, so the published package carries
// the types it was built against and needs no @collab/spec at install time.
export type { components, operations, paths } from '@collab/spec/schema';
