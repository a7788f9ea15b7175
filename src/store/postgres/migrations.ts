/**
 * The PostgreSQL store's schema, one migration per version, recorded in `schema_version`; migrations are only
 * ever appended. Version 1 is the SQLite schema after its migration 9 (src/store/migrations.ts), table for table
 * and index for index, in PostgreSQL's terms: SQLite's INTEGER columns are BIGINT (slots, block numbers, epoch
 * ms; read back as BigInt, as SQLite's safe integers are), BLOB is BYTEA, lossless JSON stays TEXT. Text that
 * lists order by is collated "C" (bytewise), as SQLite orders it, whatever the database's locale. The kept list
 * counts are maintained by triggers, as schema 8's are; chain_seq comes from a sequence, so that two processes
 * confirming at once never take one number.
 */

/** Text compared bytewise, as SQLite compares it. */
const TEXT = 'TEXT COLLATE "C"'

export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE reservations (
     key ${TEXT} PRIMARY KEY,
     expires_at BIGINT NOT NULL,
     -- The server's clock when it was taken: the orphans a restart frees are only those old enough that no other
     -- process can still be between reserving and storing its build.
     reserved_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );
   CREATE TABLE reservation_refs (
     key ${TEXT} NOT NULL REFERENCES reservations(key) ON DELETE CASCADE,
     ref ${TEXT} NOT NULL,
     mode ${TEXT} NOT NULL CHECK (mode IN ('spend', 'collateral')),
     PRIMARY KEY (key, ref, mode)
   );
   CREATE INDEX reservation_refs_by_ref ON reservation_refs(ref);
   CREATE INDEX reservations_by_expiry ON reservations(expires_at);

   CREATE TABLE txs (
     tx_id ${TEXT} PRIMARY KEY,
     kind ${TEXT} NOT NULL CHECK (kind IN ('create', 'apply', 'withdraw', 'burn')),
     contract_id ${TEXT},
     era ${TEXT} NOT NULL,
     unsigned_tx BYTEA NOT NULL,
     signed_tx BYTEA,
     status ${TEXT} NOT NULL CHECK (status IN ('unsigned', 'submitted', 'confirmed')),
     reservation_key ${TEXT} NOT NULL,
     created_at BIGINT NOT NULL,
     submitted_at BIGINT,
     block_slot BIGINT,
     block_no BIGINT,
     block_hash ${TEXT},
     details TEXT NOT NULL,
     origin ${TEXT} NOT NULL DEFAULT 'built' CHECK (origin IN ('built', 'chain')),
     chain_seq BIGINT,
     tags TEXT,
     metadata TEXT,
     marlowe_input ${TEXT},
     marlowe_output ${TEXT},
     superseded_at BIGINT,
     discarded_at BIGINT,
     CHECK ((kind IN ('withdraw', 'burn')) = (contract_id IS NULL)),
     CHECK ((status = 'confirmed') = (block_hash IS NOT NULL))
   );
   CREATE SEQUENCE chain_seq;
   CREATE INDEX txs_by_status ON txs(status);
   CREATE INDEX txs_by_contract ON txs(contract_id, kind);
   CREATE INDEX txs_by_chain_seq ON txs(chain_seq);
   CREATE INDEX txs_by_block ON txs(block_no) WHERE block_no IS NOT NULL;
   CREATE INDEX txs_by_reservation ON txs(reservation_key);
   CREATE INDEX txs_applied ON txs(contract_id, block_no, tx_id) WHERE kind = 'apply' AND status = 'confirmed';
   CREATE INDEX txs_by_marlowe_input ON txs(marlowe_input) WHERE kind = 'apply' AND status = 'confirmed';
   CREATE INDEX txs_withdrawals ON txs(kind, block_no, tx_id) WHERE kind = 'withdraw' AND status = 'confirmed';
   CREATE INDEX txs_creations ON txs(created_at, tx_id) WHERE kind = 'create';

   CREATE TABLE contracts (
     contract_id ${TEXT} PRIMARY KEY,
     create_tx_id ${TEXT} NOT NULL UNIQUE REFERENCES txs(tx_id),
     roles_currency ${TEXT} NOT NULL,
     head_tx_id ${TEXT} REFERENCES txs(tx_id),
     utxo ${TEXT},
     parties_known INTEGER NOT NULL DEFAULT 0 CHECK (parties_known IN (0, 1)),
     created_block_no BIGINT,
     applied BIGINT NOT NULL DEFAULT 0
   );
   CREATE UNIQUE INDEX contracts_by_utxo ON contracts(utxo) WHERE utxo IS NOT NULL;
   CREATE INDEX contracts_by_creation ON contracts(created_block_no, contract_id) WHERE created_block_no IS NOT NULL;
   CREATE INDEX contracts_without_parties ON contracts(contract_id) WHERE parties_known = 0;

   CREATE TABLE contract_parties (
     party ${TEXT} NOT NULL,
     contract_id ${TEXT} NOT NULL REFERENCES contracts(contract_id) ON DELETE CASCADE,
     PRIMARY KEY (party, contract_id)
   );
   CREATE INDEX contract_parties_by_contract ON contract_parties(contract_id);

   CREATE TABLE chain_cursor (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     slot BIGINT NOT NULL,
     block_no BIGINT NOT NULL,
     block_hash ${TEXT} NOT NULL
   );

   CREATE TABLE payouts (
     payout_id ${TEXT} PRIMARY KEY,
     contract_id ${TEXT} NOT NULL REFERENCES contracts(contract_id),
     tx_id ${TEXT} NOT NULL REFERENCES txs(tx_id),
     roles_currency ${TEXT} NOT NULL,
     role ${TEXT} NOT NULL,
     assets TEXT NOT NULL,
     withdrawal_id ${TEXT} REFERENCES txs(tx_id),
     block_no BIGINT NOT NULL DEFAULT 0,
     output_index BIGINT NOT NULL DEFAULT 0
   );
   CREATE INDEX payouts_by_withdrawal ON payouts(withdrawal_id);
   CREATE INDEX payouts_by_tx ON payouts(tx_id, payout_id);
   CREATE INDEX payouts_unclaimed ON payouts(contract_id, payout_id) WHERE withdrawal_id IS NULL;
   CREATE INDEX payouts_in_order ON payouts(block_no, tx_id, output_index);
   CREATE INDEX payouts_of_contract_in_order ON payouts(contract_id, block_no, tx_id, output_index);
   CREATE INDEX payouts_of_role_in_order ON payouts(roles_currency, role, block_no, tx_id, output_index);

   CREATE TABLE contract_sources (
     hash ${TEXT} PRIMARY KEY,
     contract TEXT NOT NULL,
     adjacency TEXT NOT NULL
   );

   CREATE TABLE list_counts (list ${TEXT} PRIMARY KEY, n BIGINT NOT NULL);
   INSERT INTO list_counts (list, n) VALUES ('contracts', 0), ('withdrawals', 0), ('payouts', 0), ('payouts available', 0);
   CREATE FUNCTION list_count_add(counted TEXT, delta BIGINT) RETURNS void LANGUAGE sql
     AS $$ UPDATE list_counts SET n = n + delta WHERE list = counted $$;
   CREATE FUNCTION contracts_counted() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP <> 'DELETE' AND NEW.created_block_no IS NOT NULL THEN PERFORM list_count_add('contracts', 1); END IF;
     IF TG_OP <> 'INSERT' AND OLD.created_block_no IS NOT NULL THEN PERFORM list_count_add('contracts', -1); END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER contracts_counted AFTER INSERT OR DELETE OR UPDATE OF created_block_no ON contracts
     FOR EACH ROW EXECUTE FUNCTION contracts_counted();
   CREATE FUNCTION withdrawals_counted() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP <> 'DELETE' AND NEW.kind = 'withdraw' AND NEW.status = 'confirmed' THEN
       PERFORM list_count_add('withdrawals', 1);
     END IF;
     IF TG_OP <> 'INSERT' AND OLD.kind = 'withdraw' AND OLD.status = 'confirmed' THEN
       PERFORM list_count_add('withdrawals', -1);
     END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER withdrawals_counted AFTER INSERT OR DELETE OR UPDATE OF status, kind ON txs
     FOR EACH ROW EXECUTE FUNCTION withdrawals_counted();
   CREATE FUNCTION payouts_counted() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN PERFORM list_count_add('payouts', 1); END IF;
     IF TG_OP = 'DELETE' THEN PERFORM list_count_add('payouts', -1); END IF;
     IF TG_OP <> 'DELETE' AND NEW.withdrawal_id IS NULL THEN PERFORM list_count_add('payouts available', 1); END IF;
     IF TG_OP <> 'INSERT' AND OLD.withdrawal_id IS NULL THEN PERFORM list_count_add('payouts available', -1); END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER payouts_counted AFTER INSERT OR DELETE OR UPDATE OF withdrawal_id ON payouts
     FOR EACH ROW EXECUTE FUNCTION payouts_counted();

   -- A record's JSON, or NULL where it is not JSON: the filters that read records pass such a row over, as
   -- SQLite's json_valid guards do, instead of failing the whole list.
   CREATE FUNCTION json_or_null(t TEXT) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
   BEGIN
     RETURN t::jsonb;
   EXCEPTION WHEN others THEN
     RETURN NULL;
   END $$;

   -- Takes the transaction-scoped locks that serialise reservations of the same outputs across processes, in
   -- one order (by the refs' hashes) whoever asks, so that two reservations never wait on each other in a cycle.
   CREATE FUNCTION lock_refs(namespace INTEGER, refs TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
   DECLARE h INTEGER;
   BEGIN
     FOR h IN SELECT DISTINCT hashtext(r) FROM unnest(refs) AS r ORDER BY 1 LOOP
       PERFORM pg_advisory_xact_lock(namespace, h);
     END LOOP;
   END $$;`
]
