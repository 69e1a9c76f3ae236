//! Which products a criteria selects: the product fields clients may filter and sort
//! by, and the one SQL query that answers a page of ids and the total.

use rusqlite::Connection;

use super::criteria::{Criteria, Expr, Field, Kind, Sql, TotalCountMode};
use crate::storage::json_ids;
use crate::storage::translation::LanguageChain;

/// The translated product name in SQL (needs the `tc`/`tf` joins).
pub const NAME_EXPR: &str = "COALESCE(tc.name, tf.name)";

/// The filterable and sortable fields of `product`.
pub fn product_field(name: &str) -> Option<Field> {
    use Kind::*;
    let column = |expr, kind| {
        Some(Field {
            expr: Expr::Column(expr),
            kind,
            translated: false,
        })
    };
    let member = |table, column| {
        Some(Field {
            expr: Expr::Membership {
                table,
                key: "product_id",
                owner: "p.id",
                column,
            },
            kind: Id,
            translated: false,
        })
    };
    match name {
        "id" => column("p.id", Id),
        "parentId" => column("p.parent_id", Id),
        "productNumber" => column("p.product_number", Text),
        "manufacturerId" | "manufacturer.id" => column("p.manufacturer_id", Id),
        "taxId" | "tax.id" => column("p.tax_id", Id),
        "deliveryTimeId" | "deliveryTime.id" => column("p.delivery_time_id", Id),
        "unitId" => column("p.unit_id", Id),
        "type" => column("p.type", Text),
        "ean" => column("p.ean", Text),
        "manufacturerNumber" => column("p.manufacturer_number", Text),
        "active" => column("p.active", Bool),
        "available" => column(
            "(p.is_closeout = 0 OR p.available_stock >= p.min_purchase)",
            Bool,
        ),
        "isCloseout" => column("p.is_closeout", Bool),
        "shippingFree" => column("p.shipping_free", Bool),
        "markAsTopseller" => column("p.mark_as_topseller", Bool),
        "stock" => column("p.stock", Number),
        "availableStock" => column("p.available_stock", Number),
        "restockTime" => column("p.restock_time", Number),
        "minPurchase" => column("p.min_purchase", Number),
        "maxPurchase" => column("p.max_purchase", Number),
        "purchaseSteps" => column("p.purchase_steps", Number),
        "weight" => column("p.weight", Number),
        "width" => column("p.width", Number),
        "height" => column("p.height", Number),
        "length" => column("p.length", Number),
        "sales" => column("p.sales", Number),
        "ratingAverage" => column("p.rating_average", Number),
        "childCount" => column("p.child_count", Number),
        "price"
        | "cheapestPrice"
        | "calculatedPrice"
        | "calculatedCheapestPrice"
        | "listingPrices" => column("p.listing_price", Number),
        "releaseDate" => column("p.release_date", Date),
        "createdAt" => column("p.created_at", Date),
        "updatedAt" => column("p.updated_at", Date),
        "name" | "translated.name" => Some(Field {
            expr: Expr::Column(NAME_EXPR),
            kind: Text,
            translated: true,
        }),
        "categoryIds" | "categories.id" => member("product_category", "category_id"),
        "categoryTree" | "categoriesRo.id" => member("product_category_tree", "category_id"),
        "propertyIds" | "properties.id" => member("product_property", "option_id"),
        "optionIds" | "options.id" => member("product_option", "option_id"),
        _ => None,
    }
}

/// An FTS5 query from a user's search term: every word must match as a prefix.
/// `None` when the term has no words.
pub fn match_expression(term: &str) -> Option<String> {
    let words: Vec<String> = term
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(10)
        .map(|w| format!("\"{}\"*", w.to_lowercase()))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// Whether SQL refers to the `product` alias `p` (as `p.column`).
fn mentions_product(sql: &str) -> bool {
    let bytes = sql.as_bytes();
    sql.match_indices("p.")
        .any(|(at, _)| at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_'))
}

/// The table alias listing filters and sortings use: the listing index in a
/// category, the product table otherwise. Both have the same column names.
pub fn listing_alias(selection_has_category: bool) -> &'static str {
    if selection_has_category {
        "pct"
    } else {
        "p"
    }
}

/// The joins `NAME_EXPR` needs, for the product id `id` (binds `:lang`, `:fallback`).
/// With one language in the chain the join is inner (and `NAME_EXPR` is `tc.name`),
/// so a name sorting can walk the name index in order.
pub fn name_joins(chain: &LanguageChain, id: &str) -> String {
    if chain.current == chain.fallback {
        format!(" JOIN product_translation tc ON tc.product_id = {id} AND tc.language_id = :lang")
    } else {
        format!(
            " LEFT JOIN product_translation tc ON tc.product_id = {id} AND tc.language_id = :lang
              LEFT JOIN product_translation tf ON tf.product_id = {id} AND tf.language_id = :fallback"
        )
    }
}

/// The name expression for the chain: `tc.name` with one language (see `name_joins`).
pub fn name_expr(chain: &LanguageChain, sql: &str) -> String {
    if chain.current == chain.fallback {
        sql.replace(NAME_EXPR, "tc.name")
    } else {
        sql.to_owned()
    }
}

/// What, besides the criteria, restricts and orders a product search.
#[derive(Debug, Default)]
pub struct Selection {
    /// Products of this category or its descendants.
    pub category_id: Option<String>,
    /// A search term (FTS5 expression); results can be ordered by its score.
    pub search: Option<String>,
    /// Listing filters (price, properties, …), `AND`ed.
    pub filters: Sql,
    /// `ORDER BY` of a listing sorting; the criteria's `sort` otherwise.
    pub order: Option<Sql>,
    /// Only main products (no variants) unless the criteria name ids.
    pub main_only: bool,
}

/// The page of product ids the criteria select, in order, and the total of the
/// criteria's total-count mode.
pub fn select(
    conn: &Connection,
    chain: &LanguageChain,
    selection: &Selection,
    criteria: &Criteria,
    exact_total: bool,
) -> rusqlite::Result<(Vec<String>, usize)> {
    let order = selection
        .order
        .clone()
        .unwrap_or_else(|| criteria.order.clone());
    // A category listing reads the listing index (`pct`) and joins `product` only when
    // generic criteria or the order need its other columns.
    let category_mode = selection.category_id.is_some();
    let needs_product = !category_mode
        || mentions_product(&criteria.condition.text)
        || mentions_product(&order.text);
    let id = if category_mode {
        "pct.product_id"
    } else {
        "p.id"
    };
    let tables = tables(selection, needs_product, id);
    // Names are joined where filters need them (then for the count too), or only for
    // the page when just the order needs them. With one language in the chain the
    // join is inner, so a name sorting can walk the name index in order.
    let name_joins = name_joins(chain, id);
    let filter_names = criteria.condition.uses_translation || selection.filters.uses_translation;
    let conditions = conditions(selection, criteria, id);

    let mut from = tables.clone();
    if filter_names {
        from.push(&name_joins);
    }
    from.append(&conditions);
    let mut query = Sql::default();
    query.push(&format!("SELECT {id} "));
    if order.uses_translation && !filter_names {
        let mut page_from = tables;
        page_from.push(&name_joins);
        page_from.append(&conditions);
        query.append(&page_from);
    } else {
        query.append(&from);
    }
    query.push(" ORDER BY ");
    if !order.text.is_empty() {
        query.append(&order);
        query.push(", ");
    }
    query.push(if needs_product {
        "p.product_number"
    } else {
        "pct.product_id"
    });
    if let Some(limit) = criteria.limit {
        query
            .push(" LIMIT ")
            .bind(limit)
            .push(" OFFSET ")
            .bind(criteria.offset());
    }
    bind_fixed(&mut query, chain, selection);
    let ids = query.query_map(conn, |r| r.get::<_, String>(0))?;
    let mode = if exact_total {
        TotalCountMode::Exact
    } else {
        criteria.total_count_mode
    };
    let total = match (mode, criteria.limit) {
        (TotalCountMode::None, _) | (_, None) => ids.len() + criteria.offset() as usize,
        (mode, Some(limit)) => count(conn, chain, selection, criteria, from, mode, limit)?,
    };
    Ok((ids, total))
}

/// The tables a selection reads, `id` naming the product's id in them.
fn tables(selection: &Selection, needs_product: bool, id: &str) -> Sql {
    let mut from = Sql::default();
    if selection.category_id.is_some() {
        from.push("FROM product_category_tree pct");
        if needs_product {
            from.push(" JOIN product p ON p.id = pct.product_id");
        }
    } else {
        from.push("FROM product p");
    }
    if selection.search.is_some() {
        from.push(&format!(
            " JOIN (SELECT product_id, MIN(rank) AS score FROM product_search
               WHERE product_search MATCH :match AND language_id IN (:lang, :fallback) GROUP BY product_id) s ON s.product_id = {id}"
        ));
    }
    from
}

/// The `WHERE` of a selection: the category or active products, the criteria's ids,
/// term and filters, the listing filters.
fn conditions(selection: &Selection, criteria: &Criteria, id: &str) -> Sql {
    let mut from = Sql::default();
    if selection.category_id.is_some() {
        from.push(" WHERE pct.category_id = :category AND pct.main = 1");
        if let Some(ids) = &criteria.ids {
            from.push(" AND pct.product_id IN (SELECT value FROM json_each(")
                .bind(json_ids(ids))
                .push("))");
        }
    } else {
        from.push(" WHERE p.active = 1");
        if let Some(ids) = &criteria.ids {
            from.push(" AND p.id IN (SELECT value FROM json_each(")
                .bind(json_ids(ids))
                .push("))");
        } else if selection.main_only {
            from.push(" AND p.parent_id IS NULL");
        }
    }
    if let Some(term) = criteria.term.as_deref() {
        match match_expression(term) {
            Some(expression) => {
                from.push(&format!(" AND {id} IN (SELECT product_id FROM product_search WHERE product_search MATCH "))
                    .bind(expression)
                    .push(" AND language_id IN (:lang, :fallback))");
            }
            None => {
                from.push(" AND 0");
            }
        }
    }
    for condition in [&criteria.condition, &selection.filters] {
        if !condition.text.is_empty() {
            from.push(" AND (");
            from.append(condition);
            from.push(")");
        }
    }
    from
}

/// The names and values every query of a selection binds.
fn bind_fixed(sql: &mut Sql, chain: &LanguageChain, selection: &Selection) {
    sql.text = name_expr(chain, &sql.text);
    sql.set(":lang", chain.current.clone());
    sql.set(":fallback", chain.fallback.clone());
    if let Some(category) = &selection.category_id {
        sql.set(":category", category.clone());
    }
    if let Some(search) = &selection.search {
        sql.set(":match", search.clone());
    }
}

/// The total of a paged selection `from`: exact, or up to five pages past this one
/// (`next-pages`).
fn count(
    conn: &Connection,
    chain: &LanguageChain,
    selection: &Selection,
    criteria: &Criteria,
    from: Sql,
    mode: TotalCountMode,
    limit: i64,
) -> rusqlite::Result<usize> {
    let mut count = Sql::default();
    if mode == TotalCountMode::NextPages {
        count.push("SELECT COUNT(*) FROM (SELECT 1 ");
        count.append(&from);
        count
            .push(" LIMIT ")
            .bind(limit * 5 + 1)
            .push(" OFFSET ")
            .bind(criteria.offset())
            .push(")");
    } else {
        count.push("SELECT COUNT(*) ");
        count.append(&from);
    }
    bind_fixed(&mut count, chain, selection);
    let counted = count
        .query_map(conn, |r| r.get::<_, i64>(0))?
        .first()
        .copied()
        .unwrap_or(0) as usize;
    Ok(if mode == TotalCountMode::NextPages {
        criteria.offset() as usize + counted
    } else {
        counted
    })
}
