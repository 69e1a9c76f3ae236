//! Number ranges of the order domain (`number_range`): order and invoice numbers.

use rusqlite::Transaction;

/// The next number of the range `name` (`order`, `invoice`).
pub fn next_number(tx: &Transaction, name: &str) -> rusqlite::Result<String> {
    let number: i64 =
        tx.query_row("UPDATE number_range SET next_number = next_number + 1 WHERE name = ?1 RETURNING next_number - 1", [name], |r| {
            r.get(0)
        })?;
    Ok(number.to_string())
}
