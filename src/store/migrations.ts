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
   CREATE INDEX reservations_by_expiry ON reservations(expires_at);`,
  // 2: the service's transactions (built, submitted, confirmed), the contracts they open and move, and payouts.
  `CREATE TABLE txs (
     tx_id TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('create', 'apply', 'withdraw')),
     contract_id TEXT,
     era TEXT NOT NULL,
     unsigned_tx BLOB NOT NULL,
     signed_tx BLOB,
     status TEXT NOT NULL CHECK (status IN ('unsigned', 'submitted', 'confirmed')),
     reservation_key TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     submitted_at INTEGER,
     block_slot INTEGER,
     block_no INTEGER,
     block_hash TEXT,
     details TEXT NOT NULL,
     CHECK ((kind = 'withdraw') = (contract_id IS NULL)),
     CHECK ((status = 'confirmed') = (block_hash IS NOT NULL))
   ) STRICT;
   CREATE INDEX txs_by_status ON txs(status);
   CREATE INDEX txs_by_contract ON txs(contract_id, kind);
   CREATE TABLE contracts (
     contract_id TEXT PRIMARY KEY,
     create_tx_id TEXT NOT NULL UNIQUE REFERENCES txs(tx_id),
     roles_currency TEXT NOT NULL,
     head_tx_id TEXT REFERENCES txs(tx_id)
   ) STRICT;
   CREATE TABLE payouts (
     payout_id TEXT PRIMARY KEY,
     contract_id TEXT NOT NULL REFERENCES contracts(contract_id),
     tx_id TEXT NOT NULL REFERENCES txs(tx_id),
     roles_currency TEXT NOT NULL,
     role TEXT NOT NULL,
     assets TEXT NOT NULL,
     withdrawal_id TEXT REFERENCES txs(tx_id)
   ) STRICT;
   CREATE INDEX payouts_by_contract ON payouts(contract_id);
   CREATE INDEX payouts_by_withdrawal ON payouts(withdrawal_id);`,
  // 3: the chain index. Transactions read from the chain (whoever built them) sit beside our builds, marked by
  // origin; chain_seq orders confirmations as the chain made them; a contract's current UTxO finds it when a
  // transaction spends it; the cursor is the last block read. Each contract's parties (its addresses and roles)
  // are kept for the party filters; contracts stored before this are filled in by the engine (parties_known).
  // created_block_no (the block of a contract's confirmed creation) orders and pages the lists by an index.
  `ALTER TABLE txs ADD COLUMN origin TEXT NOT NULL DEFAULT 'built' CHECK (origin IN ('built', 'chain'));
   ALTER TABLE txs ADD COLUMN chain_seq INTEGER;
   CREATE INDEX txs_by_chain_seq ON txs(chain_seq);
   CREATE INDEX txs_by_block ON txs(block_no) WHERE block_no IS NOT NULL;
   ALTER TABLE contracts ADD COLUMN utxo TEXT;
   UPDATE contracts SET utxo = (
     SELECT CASE t.kind WHEN 'create' THEN contracts.contract_id ELSE json_extract(t.details, '$.output.ref') END
       FROM txs t WHERE t.tx_id = contracts.head_tx_id)
    WHERE head_tx_id IS NOT NULL;
   CREATE UNIQUE INDEX contracts_by_utxo ON contracts(utxo) WHERE utxo IS NOT NULL;
   CREATE TABLE chain_cursor (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     slot INTEGER NOT NULL,
     block_no INTEGER NOT NULL,
     block_hash TEXT NOT NULL
   ) STRICT;
   ALTER TABLE contracts ADD COLUMN parties_known INTEGER NOT NULL DEFAULT 0 CHECK (parties_known IN (0, 1));
   CREATE TABLE contract_parties (
     party TEXT NOT NULL,
     contract_id TEXT NOT NULL REFERENCES contracts(contract_id) ON DELETE CASCADE,
     PRIMARY KEY (party, contract_id)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX contract_parties_by_contract ON contract_parties(contract_id);
   ALTER TABLE contracts ADD COLUMN created_block_no INTEGER;
   UPDATE contracts SET created_block_no =
     (SELECT block_no FROM txs WHERE tx_id = contracts.create_tx_id AND status = 'confirmed');
   CREATE INDEX contracts_by_creation ON contracts(created_block_no, contract_id) WHERE created_block_no IS NOT NULL;`,
  // 4: reads that cost the answer, not the history. A creation or application keeps its tags and metadata beside
  // its record, and an application the Marlowe UTxO it spends and the one it leaves, so a page of transaction
  // headers reads no record (whose datums grow with the contract), and the transaction that spends an output is
  // found by index instead of by reading every record of the contract; a record SQLite cannot read leaves them
  // NULL, and its row is read from its record as before. A contract keeps how many confirmed applications it has
  // (its list's Total-Count), and they are paged by index in Runtime's order (block, then tx id), as are confirmed
  // withdrawals and payouts (the paying transaction's block and id, then the output index, kept beside each: a
  // payout exists only while its transaction is confirmed). Payouts are found by the transaction that made them,
  // and a contract's unclaimed ones without reading its withdrawn ones.
  `ALTER TABLE txs ADD COLUMN tags TEXT;
   ALTER TABLE txs ADD COLUMN metadata TEXT;
   ALTER TABLE txs ADD COLUMN marlowe_input TEXT;
   ALTER TABLE txs ADD COLUMN marlowe_output TEXT;
   UPDATE txs SET tags = json_extract(details, '$.tags'), metadata = json_extract(details, '$.metadata')
    WHERE kind <> 'withdraw' AND json_valid(details);
   UPDATE txs SET marlowe_input = json_extract(details, '$.input'),
                  marlowe_output = json_extract(details, '$.output.ref')
    WHERE kind = 'apply' AND json_valid(details);
   CREATE INDEX txs_applied ON txs(contract_id, block_no, tx_id) WHERE kind = 'apply' AND status = 'confirmed';
   ALTER TABLE contracts ADD COLUMN applied INTEGER NOT NULL DEFAULT 0;
   UPDATE contracts SET applied =
     (SELECT COUNT(*) FROM txs WHERE contract_id = contracts.contract_id AND kind = 'apply' AND status = 'confirmed');
   CREATE INDEX txs_by_marlowe_input ON txs(marlowe_input) WHERE kind = 'apply' AND status = 'confirmed';
   CREATE INDEX txs_withdrawals ON txs(kind, block_no, tx_id) WHERE kind = 'withdraw' AND status = 'confirmed';
   CREATE INDEX payouts_by_tx ON payouts(tx_id, payout_id);
   CREATE INDEX payouts_unclaimed ON payouts(contract_id, payout_id) WHERE withdrawal_id IS NULL;
   ALTER TABLE payouts ADD COLUMN block_no INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE payouts ADD COLUMN output_index INTEGER NOT NULL DEFAULT 0;
   UPDATE payouts SET block_no = COALESCE((SELECT block_no FROM txs WHERE txs.tx_id = payouts.tx_id), 0),
                      output_index = CAST(substr(payout_id, instr(payout_id, '#') + 1) AS INTEGER);
   DROP INDEX payouts_by_contract;
   CREATE INDEX payouts_in_order ON payouts(block_no, tx_id, output_index);
   CREATE INDEX payouts_of_contract_in_order ON payouts(contract_id, block_no, tx_id, output_index);
   CREATE INDEX payouts_of_role_in_order ON payouts(roles_currency, role, block_no, tx_id, output_index);`,
  // 5: an unsigned build whose inputs a newer build took (when nothing else was left) is marked, so that its
  // submit is refused with that reason (the reservations are found by the outputs they spend, as indexed).
  `ALTER TABLE txs ADD COLUMN superseded_at INTEGER;`,
  // 6: an unsigned build the user discarded: its own column, not superseded_at, because the two refusals say
  // different things (the user gave it up; a newer build took its inputs) and a build can be both.
  `ALTER TABLE txs ADD COLUMN discarded_at INTEGER;`,
  // 7: the contract store (Runtime's contract sources): merkleized contracts by merkle hash, as uploaded in
  // object bundles, with the hashes of the continuations each names (its adjacency), so that a closure is read
  // without decoding contracts. Rows are only ever added: a hash names one contract forever.
  `CREATE TABLE contract_sources (
     hash TEXT PRIMARY KEY,
     contract TEXT NOT NULL,
     adjacency TEXT NOT NULL
   ) STRICT, WITHOUT ROWID;`,
  // 8: lists whose cost is the page's. The unfiltered lists' Total-Count is kept as rows change, by triggers, so
  // that every write path (a confirmation, a rollback, a deleted chain transaction) keeps it right, instead of a
  // COUNT(*) over the whole list; and the desk's list of every stored contract (newest build first) pages by an
  // index on the creations' build time.
  `CREATE TABLE list_counts (list TEXT PRIMARY KEY, n INTEGER NOT NULL) STRICT, WITHOUT ROWID;
   INSERT INTO list_counts (list, n) VALUES
     ('contracts', (SELECT COUNT(*) FROM contracts WHERE created_block_no IS NOT NULL)),
     ('withdrawals', (SELECT COUNT(*) FROM txs WHERE kind = 'withdraw' AND status = 'confirmed')),
     ('payouts', (SELECT COUNT(*) FROM payouts)),
     ('payouts available', (SELECT COUNT(*) FROM payouts WHERE withdrawal_id IS NULL));
   CREATE TRIGGER contracts_counted_in AFTER INSERT ON contracts WHEN NEW.created_block_no IS NOT NULL
   BEGIN UPDATE list_counts SET n = n + 1 WHERE list = 'contracts'; END;
   CREATE TRIGGER contracts_counted_out AFTER DELETE ON contracts WHEN OLD.created_block_no IS NOT NULL
   BEGIN UPDATE list_counts SET n = n - 1 WHERE list = 'contracts'; END;
   CREATE TRIGGER contracts_counted_moved AFTER UPDATE OF created_block_no ON contracts
     WHEN (OLD.created_block_no IS NULL) <> (NEW.created_block_no IS NULL)
   BEGIN UPDATE list_counts SET n = n + iif(NEW.created_block_no IS NULL, -1, 1) WHERE list = 'contracts'; END;
   CREATE TRIGGER withdrawals_counted_in AFTER INSERT ON txs WHEN NEW.kind = 'withdraw' AND NEW.status = 'confirmed'
   BEGIN UPDATE list_counts SET n = n + 1 WHERE list = 'withdrawals'; END;
   CREATE TRIGGER withdrawals_counted_out AFTER DELETE ON txs WHEN OLD.kind = 'withdraw' AND OLD.status = 'confirmed'
   BEGIN UPDATE list_counts SET n = n - 1 WHERE list = 'withdrawals'; END;
   CREATE TRIGGER withdrawals_counted_moved AFTER UPDATE OF status ON txs
     WHEN NEW.kind = 'withdraw' AND (OLD.status = 'confirmed') <> (NEW.status = 'confirmed')
   BEGIN UPDATE list_counts SET n = n + iif(NEW.status = 'confirmed', 1, -1) WHERE list = 'withdrawals'; END;
   CREATE TRIGGER payouts_counted_in AFTER INSERT ON payouts
   BEGIN
     UPDATE list_counts SET n = n + 1 WHERE list = 'payouts';
     UPDATE list_counts SET n = n + 1 WHERE list = 'payouts available' AND NEW.withdrawal_id IS NULL;
   END;
   CREATE TRIGGER payouts_counted_out AFTER DELETE ON payouts
   BEGIN
     UPDATE list_counts SET n = n - 1 WHERE list = 'payouts';
     UPDATE list_counts SET n = n - 1 WHERE list = 'payouts available' AND OLD.withdrawal_id IS NULL;
   END;
   CREATE TRIGGER payouts_counted_moved AFTER UPDATE OF withdrawal_id ON payouts
     WHEN (OLD.withdrawal_id IS NULL) <> (NEW.withdrawal_id IS NULL)
   BEGIN
     UPDATE list_counts SET n = n + iif(NEW.withdrawal_id IS NULL, 1, -1) WHERE list = 'payouts available';
   END;
   CREATE INDEX txs_creations ON txs(created_at, tx_id) WHERE kind = 'create';`,
  // 9: role-token burns (runtime-api.md §3.13) are builds like the others, of no contract. SQLite cannot change a
  // CHECK in place, so the table is rebuilt (its rows, indexes and triggers as before); migrations run before
  // foreign keys are enforced, so the rows referring to it keep their references.
  `CREATE TABLE txs_with_burns (
     tx_id TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('create', 'apply', 'withdraw', 'burn')),
     contract_id TEXT,
     era TEXT NOT NULL,
     unsigned_tx BLOB NOT NULL,
     signed_tx BLOB,
     status TEXT NOT NULL CHECK (status IN ('unsigned', 'submitted', 'confirmed')),
     reservation_key TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     submitted_at INTEGER,
     block_slot INTEGER,
     block_no INTEGER,
     block_hash TEXT,
     details TEXT NOT NULL,
     origin TEXT NOT NULL DEFAULT 'built' CHECK (origin IN ('built', 'chain')),
     chain_seq INTEGER,
     tags TEXT,
     metadata TEXT,
     marlowe_input TEXT,
     marlowe_output TEXT,
     superseded_at INTEGER,
     discarded_at INTEGER,
     CHECK ((kind IN ('withdraw', 'burn')) = (contract_id IS NULL)),
     CHECK ((status = 'confirmed') = (block_hash IS NOT NULL))
   ) STRICT;
   INSERT INTO txs_with_burns (tx_id, kind, contract_id, era, unsigned_tx, signed_tx, status, reservation_key, created_at, submitted_at,
       block_slot, block_no, block_hash, details, origin, chain_seq, tags, metadata, marlowe_input, marlowe_output,
       superseded_at, discarded_at)
     SELECT tx_id, kind, contract_id, era, unsigned_tx, signed_tx, status, reservation_key, created_at, submitted_at,
       block_slot, block_no, block_hash, details, origin, chain_seq, tags, metadata, marlowe_input, marlowe_output,
       superseded_at, discarded_at FROM txs;
   DROP TABLE txs;
   ALTER TABLE txs_with_burns RENAME TO txs;
   CREATE INDEX txs_by_status ON txs(status);
   CREATE INDEX txs_by_contract ON txs(contract_id, kind);
   CREATE INDEX txs_by_chain_seq ON txs(chain_seq);
   CREATE INDEX txs_by_block ON txs(block_no) WHERE block_no IS NOT NULL;
   CREATE INDEX txs_applied ON txs(contract_id, block_no, tx_id) WHERE kind = 'apply' AND status = 'confirmed';
   CREATE INDEX txs_by_marlowe_input ON txs(marlowe_input) WHERE kind = 'apply' AND status = 'confirmed';
   CREATE INDEX txs_withdrawals ON txs(kind, block_no, tx_id) WHERE kind = 'withdraw' AND status = 'confirmed';
   CREATE INDEX txs_creations ON txs(created_at, tx_id) WHERE kind = 'create';
   CREATE TRIGGER withdrawals_counted_in AFTER INSERT ON txs WHEN NEW.kind = 'withdraw' AND NEW.status = 'confirmed'
   BEGIN UPDATE list_counts SET n = n + 1 WHERE list = 'withdrawals'; END;
   CREATE TRIGGER withdrawals_counted_out AFTER DELETE ON txs WHEN OLD.kind = 'withdraw' AND OLD.status = 'confirmed'
   BEGIN UPDATE list_counts SET n = n - 1 WHERE list = 'withdrawals'; END;
   CREATE TRIGGER withdrawals_counted_moved AFTER UPDATE OF status ON txs
     WHEN NEW.kind = 'withdraw' AND (OLD.status = 'confirmed') <> (NEW.status = 'confirmed')
   BEGIN UPDATE list_counts SET n = n + iif(NEW.status = 'confirmed', 1, -1) WHERE list = 'withdrawals'; END;`
]
