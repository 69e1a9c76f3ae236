//! The SQLite file under `DATA_DIR`: opening, migrations, and running queries off the
//! async runtime.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use rusqlite::Connection;
use rusqlite_migration::{Migrations, M};

pub mod budget;
pub mod translation;

/// Versioned migrations; append, never edit one that has shipped.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("storage/0001_foundation.sql")),
        M::up(include_str!("storage/0002_catalog.sql")),
        M::up(include_str!("storage/0003_account.sql")),
        M::up(include_str!("storage/0004_cart.sql")),
        M::up(include_str!("storage/0005_listing_tuning.sql")),
        M::up(include_str!("storage/0006_payment_shipping.sql")),
        M::up(include_str!("storage/dsr_0001_interactions.sql")),
        M::up(include_str!("storage/0007_orders.sql")),
        M::up(include_str!("storage/0008_account_extras.sql")),
        M::up(include_str!("storage/dsr_0002_live.sql")),
        M::up(include_str!("storage/0009_catalog_speed.sql")),
        M::up(include_str!("storage/0010_cross_selling.sql")),
        M::up(include_str!(
            "storage/0011_catalog_version_ignores_stock.sql"
        )),
        M::up(include_str!("storage/0012_aggregation_entities.sql")),
        M::up(include_str!("storage/0013_admin_api.sql")),
        M::up(include_str!("storage/0014_sorting_labels_as_spec.sql")),
        M::up(include_str!("storage/0015_footer_navigation.sql")),
        M::up(include_str!("storage/0021_appointment_translation.sql")),
        M::up(include_str!("storage/0025_dsr_saved_products.sql")),
        M::up(include_str!("storage/dsr_0003_forwarded_attendees.sql")),
        M::up(include_str!("storage/0030_dsr_interaction_templates.sql")),
        M::up(include_str!("storage/0031_saved_product_note.sql")),
        M::up(include_str!("storage/0032_slide_title_translation.sql")),
        M::up(include_str!("storage/0033_cms_section_translation.sql")),
        M::up(include_str!("storage/0040_appointment_broadcast_mode.sql")),
        M::up(include_str!("storage/0050_dsr_appointment_requests.sql")),
        M::up(include_str!("storage/0060_dsr_discounts.sql")),
        M::up(include_str!("storage/0070_dsr_video_rooms.sql")),
        M::up(include_str!("storage/0071_dsr_login_tokens.sql")),
        M::up(include_str!("storage/0072_shopping_lists.sql")),
        M::up_with_hook(
            include_str!("storage/0080_admin_token_hashes.sql"),
            hash_admin_tokens,
        ),
        M::up_with_hook(
            include_str!("storage/0090_context_token_hashes.sql"),
            hash_context_tokens,
        ),
        M::up(include_str!("storage/0091_dsr_context_delegation.sql")),
        M::up(include_str!("storage/0100_product_name_index.sql")),
        M::up(include_str!("storage/0101_drop_product_name_index.sql")),
        M::up_with_hook(
            include_str!("storage/0110_forwarded_token_hashes.sql"),
            hash_forwarded_tokens,
        ),
        M::up(include_str!("storage/0120_admin_orders.sql")),
        M::up(include_str!("storage/0140_system_config.sql")),
        M::up(include_str!("storage/0150_store_context_successor.sql")),
        M::up(include_str!("storage/0160_appointment_time_zone.sql")),
    ])
}

/// Migration 0090: every stored context token becomes its SHA-256
/// (`store_api::session::token_key`), in the sessions and in every row naming one.
fn hash_context_tokens(tx: &rusqlite::Transaction) -> rusqlite_migration::HookResult {
    let tokens: Vec<String> = tx
        .prepare("SELECT token FROM store_context")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for token in tokens {
        let key = sha256_hex(&token);
        tx.execute(
            "UPDATE store_context SET token = ?2 WHERE token = ?1",
            [&token, &key],
        )?;
        tx.execute(
            "UPDATE cart SET token = ?2 WHERE token = ?1",
            [&token, &key],
        )?;
        tx.execute(
            "UPDATE cart_line_item SET token = ?2 WHERE token = ?1",
            [&token, &key],
        )?;
        tx.execute(
            "UPDATE attendee SET context_token = ?2 WHERE context_token = ?1",
            [&token, &key],
        )?;
    }
    Ok(())
}

/// Migration 0110: upstream mode's attendees keep their upstream session's SHA-256
/// only, as embedded attendees do.
fn hash_forwarded_tokens(tx: &rusqlite::Transaction) -> rusqlite_migration::HookResult {
    let tokens: Vec<String> = tx
        .prepare("SELECT DISTINCT context_token FROM forwarded_attendee")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for token in tokens {
        tx.execute(
            "UPDATE forwarded_attendee SET context_token = ?2 WHERE context_token = ?1",
            [&token, &sha256_hex(&token)],
        )?;
    }
    Ok(())
}

/// Migration 0080: every stored Admin API token becomes its SHA-256
/// (`security::token_hash`).
fn hash_admin_tokens(tx: &rusqlite::Transaction) -> rusqlite_migration::HookResult {
    let tokens: Vec<String> = tx
        .prepare("SELECT token_hash FROM admin_token")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for token in tokens {
        tx.execute(
            "UPDATE admin_token SET token_hash = ?2 WHERE token_hash = ?1",
            [&token, &crate::security::token_hash(&token)],
        )?;
    }
    Ok(())
}

/// Read-only connections kept for pure reads.
const READERS: usize = 4;

/// A handle on the database. Cheap to clone.
#[derive(Clone)]
pub struct Db {
    // One writer connection; a std Mutex because it is only taken inside
    // spawn_blocking, never across an `.await`.
    conn: Arc<Mutex<Connection>>,
    readers: Arc<Readers>,
}

/// A small pool of read-only connections (`PRAGMA query_only`): in WAL mode readers
/// run beside each other and beside the writer. A permit is taken before a connection,
/// so there is always one idle (or room to open one) once the permit is held.
struct Readers {
    path: PathBuf,
    permits: Arc<tokio::sync::Semaphore>,
    idle: Mutex<Vec<Connection>>,
}

impl Readers {
    fn open(&self) -> anyhow::Result<Connection> {
        let conn = Connection::open(&self.path)
            .with_context(|| format!("opening {}", self.path.display()))?;
        conn.pragma_update(None, "query_only", "ON")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.set_prepared_statement_cache_capacity(64);
        Ok(conn)
    }
}

impl Db {
    pub fn open(path: &Path) -> anyhow::Result<Db> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let mut conn =
            Connection::open(path).with_context(|| format!("opening {}", path.display()))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrations()
            .to_latest(&mut conn)
            .context("migrating the database")?;
        let readers = Readers {
            path: path.to_owned(),
            permits: Arc::new(tokio::sync::Semaphore::new(READERS)),
            idle: Mutex::new(Vec::new()),
        };
        Ok(Db {
            conn: Arc::new(Mutex::new(conn)),
            readers: Arc::new(readers),
        })
    }

    /// Runs `f`, which only reads, on one of the read-only connections, inside one read
    /// transaction (one snapshot for all its queries). Writes in `f` fail
    /// (`attempt to write a readonly database`); use [`Db::call`] for them.
    pub async fn read<R, F>(&self, f: F) -> anyhow::Result<R>
    where
        F: FnOnce(&Connection) -> anyhow::Result<R> + Send + 'static,
        R: Send + 'static,
    {
        let readers = self.readers.clone();
        // The request's time budget (`budget::scope`), counted from when a reader is free.
        let budget = budget::current();
        // The permit lives as long as the blocking task, even if this future is dropped.
        let permit = readers
            .permits
            .clone()
            .acquire_owned()
            .await
            .context("read pool closed")?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let idle = readers
                .idle
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .pop();
            let mut conn = match idle {
                Some(conn) => conn,
                None => readers.open()?,
            };
            if let Some(budget) = &budget {
                budget::arm(&conn, budget);
            }
            let result = (|| {
                let tx = conn.transaction()?;
                let result = f(&tx)?;
                tx.commit()?;
                Ok(result)
            })();
            if budget.is_some() {
                budget::disarm(&conn);
            }
            readers
                .idle
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(conn);
            result
        })
        .await
        .context("database task")?
    }

    /// Runs `f` with the connection on the blocking pool.
    pub async fn call<R, F>(&self, f: F) -> anyhow::Result<R>
    where
        F: FnOnce(&mut Connection) -> anyhow::Result<R> + Send + 'static,
        R: Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            f(&mut conn)
        })
        .await
        .context("database task")?
    }
}

/// A new id: 32 lowercase hex characters, as in Shopware.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// The same id for the same `name`, every time: for rows that exist only in answers
/// (domains, snippet sets, shipping prices) but need an id in Shopware's shape.
pub fn stable_id(name: &str) -> String {
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes())
        .simple()
        .to_string()
}

/// Whether `id` looks like a Shopware id (32 lowercase hex characters).
pub use protocol::state::is_id;

/// A list of ids as a JSON array, bound as one parameter and read in SQL with
/// `IN (SELECT value FROM json_each(?))`.
pub fn json_ids<S: AsRef<str>>(ids: &[S]) -> String {
    serde_json::Value::Array(
        ids.iter()
            .map(|id| serde_json::Value::from(id.as_ref()))
            .collect(),
    )
    .to_string()
}

/// SHA-256 of `text`, lowercase hex: what is stored of a token.
pub fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    format!("{:x}", Sha256::digest(text.as_bytes()))
}

pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn migrations_are_valid() {
        super::migrations().validate().unwrap();
    }

    /// A database's version is its count of migrations run, so the list only ever grows
    /// at its end, in the order of the files' numbers (one written in a branch goes after
    /// every one that has landed, renumbered if need be).
    #[test]
    fn migrations_run_in_the_order_of_their_numbers() {
        let source = include_str!("storage.rs");
        let numbers: Vec<u32> = source
            .split("include_str!(\"storage/")
            .skip(1)
            .filter_map(|rest| rest.get(..4)?.parse().ok())
            .collect();
        assert!(numbers.len() > 30, "{numbers:?}");
        assert!(
            numbers.windows(2).all(|pair| pair[0] < pair[1]),
            "out of order: {numbers:?}"
        );
    }

    /// Migration 0090 rewrites stored context tokens into their SHA-256, everywhere.
    #[test]
    fn stored_context_tokens_become_their_hashes() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let migrations = super::migrations();
        // Up to 0072_shopping_lists, the last one before the hashes.
        migrations.to_version(&mut conn, 30).unwrap();
        conn.execute_batch(
            "INSERT INTO language (id, code, name) VALUES ('en', 'en-GB', 'English');
             INSERT INTO sales_channel (id, name, access_key, language_id) VALUES ('sc', 'Shop', 'KEY', 'en');
             INSERT INTO store_context (token, sales_channel_id, created_at, updated_at) VALUES ('raw-token', 'sc', 'now', 'now');
             INSERT INTO cart (token, created_at, updated_at) VALUES ('raw-token', 'now', 'now');
             INSERT INTO cart_line_item (token, id, type, referenced_id, quantity, position) VALUES ('raw-token', 'l', 'product', 'p', 1, 0);",
        )
        .unwrap();
        migrations.to_latest(&mut conn).unwrap();
        let key = super::sha256_hex("raw-token");
        for table in ["store_context", "cart", "cart_line_item"] {
            let (raw, hashed): (i64, i64) = conn
                .query_row(
                    &format!("SELECT SUM(token = 'raw-token'), SUM(token = ?1) FROM {table}"),
                    [&key],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert_eq!((raw, hashed), (0, 1), "{table}");
        }
    }
}
