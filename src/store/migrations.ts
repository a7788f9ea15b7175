/**
 * The store's schema, one migration per version. A migration is applied once, in a transaction, and the
 * database's `user_version` records how far it got; migrations are only ever appended.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: input reservations of pending builds (see src/engine/build/reservations.ts).
  `CREATE TABLE reservations (
     key TEXT PRIMARY KEY,
     expires_at INTEGER NOT NULL
   ) STRICT;
   CREATE TABLE reservation_refs (
     key TEXT NOT NULL REFERENCES reservations(key) ON DELETE CASCADE,
     ref TEXT NOT NULL,
     mode TEXT NOT NULL CHECK (mode IN ('spend', 'collateral')),
     PRIMARY KEY (key, ref, mode)
   ) STRICT;
   CREATE INDEX reservation_refs_by_ref ON reservation_refs(ref);
   CREATE INDEX reservations_by_expiry ON reservations(expires_at);`
]
