//! A time budget for the database reads of a request (issue #29, item 8): a request
//! runs under [`scope`] (the Store API does, `store_api::budget`), and every
//! [`Db::read`](super::Db::read) it makes gets at most that long. SQLite's progress
//! handler looks at the clock every [`CHECK_EVERY_OPS`] virtual machine steps and
//! interrupts the running statement once the budget is spent; the read fails with
//! `SQLITE_INTERRUPT`, which the error shape answers as `503`
//! [`QUERY_TOO_EXPENSIVE`](crate::error::QUERY_TOO_EXPENSIVE). Reads outside a scope (the Admin API,
//! background work) and writes ([`Db::call`](super::Db::call)) are never interrupted.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rusqlite::Connection;

/// SQLite virtual machine steps between two looks at the clock (a few microseconds).
pub const CHECK_EVERY_OPS: i32 = 1_000;

/// A request's budget: each read's limit, and whether one was stopped.
#[derive(Clone)]
pub struct Budget {
    pub limit: Duration,
    stopped: Arc<AtomicBool>,
}

tokio::task_local! {
    static BUDGET: Budget;
}

/// Runs `future` with every database read it makes limited to `budget` (none: no
/// limit); answers its output and whether a read was stopped at the budget.
pub async fn scope<F: Future>(budget: Option<Duration>, future: F) -> (F::Output, bool) {
    match budget {
        Some(limit) => {
            let budget = Budget {
                limit,
                stopped: Arc::new(AtomicBool::new(false)),
            };
            let stopped = budget.stopped.clone();
            let output = BUDGET.scope(budget, future).await;
            (output, stopped.load(Ordering::Relaxed))
        }
        None => (future.await, false),
    }
}

/// The budget of the current request's reads, if it has one.
pub fn current() -> Option<Budget> {
    BUDGET.try_with(Budget::clone).ok()
}

std::thread_local! {
    /// The armed read's deadline on this (blocking) thread, for [`outside_budget`].
    static ARMED: std::cell::RefCell<Option<(Instant, Arc<AtomicBool>)>> = const { std::cell::RefCell::new(None) };
}

/// Interrupts `conn`'s statements once `budget` has passed from now, until [`disarm`].
pub fn arm(conn: &Connection, budget: &Budget) {
    arm_until(conn, Instant::now() + budget.limit, budget.stopped.clone());
}

fn arm_until(conn: &Connection, deadline: Instant, stopped: Arc<AtomicBool>) {
    ARMED.with(|armed| *armed.borrow_mut() = Some((deadline, stopped.clone())));
    conn.progress_handler(
        CHECK_EVERY_OPS,
        Some(move || {
            let over = Instant::now() >= deadline;
            if over {
                stopped.store(true, Ordering::Relaxed);
            }
            over
        }),
    );
}

/// Removes what [`arm`] installed.
pub fn disarm(conn: &Connection) {
    ARMED.with(|armed| armed.borrow_mut().take());
    conn.progress_handler(0, None::<fn() -> bool>);
}

/// Runs `work` on the armed read's connection without the budget, which then goes on
/// with the time `work` took added: for work done once for every shopper and kept (a
/// category's listing facts after a catalogue change), which no client can make happen
/// again at will.
pub fn outside_budget<T>(conn: &Connection, work: impl FnOnce() -> T) -> T {
    let Some((deadline, stopped)) = ARMED.with(|armed| armed.borrow().clone()) else {
        return work();
    };
    disarm(conn);
    let started = Instant::now();
    let result = work();
    arm_until(conn, deadline + started.elapsed(), stopped);
    result
}

/// Whether `error` is a statement interrupted at its budget.
pub fn is_interrupted(error: &rusqlite::Error) -> bool {
    error.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A statement that would run for long is stopped at the budget; the connection
    /// works again once disarmed.
    #[test]
    fn a_statement_over_the_budget_is_interrupted() {
        let conn = Connection::open_in_memory().unwrap();
        let budget = Budget {
            limit: Duration::from_millis(20),
            stopped: Arc::new(AtomicBool::new(false)),
        };
        arm(&conn, &budget);
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n";
        let error = conn
            .query_row(endless, [], |r| r.get::<_, i64>(0))
            .unwrap_err();
        assert!(is_interrupted(&error), "{error}");
        assert!(budget.stopped.load(Ordering::Relaxed));
        assert!(crate::error::stopped_at_budget(
            &anyhow::Error::from(error).context("reading")
        ));
        disarm(&conn);
        assert_eq!(
            conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))
                .unwrap(),
            1
        );
    }

    /// Work outside the budget runs to its end; the budget holds again after it.
    #[test]
    fn work_outside_the_budget_is_not_interrupted() {
        let conn = Connection::open_in_memory().unwrap();
        let budget = Budget {
            limit: Duration::from_millis(20),
            stopped: Arc::new(AtomicBool::new(false)),
        };
        arm(&conn, &budget);
        let counted = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT COUNT(*) FROM n";
        let started = Instant::now();
        let total = outside_budget(&conn, || {
            conn.query_row(counted, [], |r| r.get::<_, i64>(0)).unwrap()
        });
        assert_eq!(total, 3_000_000);
        assert!(!budget.stopped.load(Ordering::Relaxed));
        // Only when it was slow enough to say anything: the budget holds again.
        if started.elapsed() > Duration::from_millis(20) {
            let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n";
            assert!(is_interrupted(
                &conn
                    .query_row(endless, [], |r| r.get::<_, i64>(0))
                    .unwrap_err()
            ));
        }
        disarm(&conn);
    }
}
