//! A time budget for the database reads of a request (issue #29, item 8): a request
//! runs under [`scope`] (the Store API does, `store_api::budget`), and every
//! [`Db::read`](super::Db::read) it makes gets at most that long. SQLite's progress
//! handler looks at the clock every [`CHECK_EVERY_OPS`] virtual machine steps and
//! interrupts the running statement once the budget is spent; the read fails with
//! `SQLITE_INTERRUPT`, which the error shape answers as `503`
//! [`QUERY_TOO_EXPENSIVE`] (`error.rs`). Reads outside a scope (the Admin API,
//! background work) and writes ([`Db::call`](super::Db::call)) are never interrupted.

use std::future::Future;
use std::time::{Duration, Instant};

use rusqlite::Connection;

/// The error code of a read stopped at its budget.
pub const QUERY_TOO_EXPENSIVE: &str = "SALESROOM__QUERY_TOO_EXPENSIVE";

/// SQLite virtual machine steps between two looks at the clock (a few microseconds).
pub const CHECK_EVERY_OPS: i32 = 1_000;

tokio::task_local! {
    static BUDGET: Duration;
}

/// Runs `future` with every database read it makes limited to `budget` (none: no limit).
pub async fn scope<F: Future>(budget: Option<Duration>, future: F) -> F::Output {
    match budget {
        Some(budget) => BUDGET.scope(budget, future).await,
        None => future.await,
    }
}

/// The budget of the current request's reads, if it has one.
pub fn current() -> Option<Duration> {
    BUDGET.try_with(|budget| *budget).ok()
}

/// Interrupts `conn`'s statements once `budget` has passed from now, until [`disarm`].
pub fn arm(conn: &Connection, budget: Duration) {
    let deadline = Instant::now() + budget;
    conn.progress_handler(CHECK_EVERY_OPS, Some(move || Instant::now() >= deadline));
}

/// Removes what [`arm`] installed.
pub fn disarm(conn: &Connection) {
    conn.progress_handler(0, None::<fn() -> bool>);
}

/// Whether `error` is a statement interrupted at its budget.
pub fn is_interrupted(error: &rusqlite::Error) -> bool {
    error.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted)
}

/// Whether `error` (or what caused it) is a statement interrupted at its budget.
pub fn was_interrupted(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.downcast_ref::<rusqlite::Error>().is_some_and(is_interrupted))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A statement that would run for long is stopped at the budget; the connection
    /// works again once disarmed.
    #[test]
    fn a_statement_over_the_budget_is_interrupted() {
        let conn = Connection::open_in_memory().unwrap();
        arm(&conn, Duration::from_millis(20));
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n";
        let error = conn.query_row(endless, [], |r| r.get::<_, i64>(0)).unwrap_err();
        assert!(is_interrupted(&error), "{error}");
        assert!(was_interrupted(&anyhow::Error::from(error).context("reading")));
        disarm(&conn);
        assert_eq!(conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0)).unwrap(), 1);
    }
}
