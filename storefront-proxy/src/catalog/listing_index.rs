//! The fast path of listings and searches: the active main products of the catalogue
//! in memory, as a search engine keeps them. A category, a search term and a property
//! option are each a bitset over the products; a sorting is the list of all products
//! in that order. A filtered, sorted page is then the intersection of a few bitsets,
//! a check of the price, rating and shipping filters per candidate, and a walk along
//! the sorting until the page is full, instead of SQL that materialises the category
//! and the ids of every filter for the page and again for the count.
//!
//! Everything is read from the database through SQL with the same expressions as the
//! general path (`query::select`), so orders, collations and NULLs agree, and is kept
//! per database file while `catalog_version` (moved by triggers on every change to
//! products, category membership, properties, variant options and product texts)
//! stays put. Bitsets and sortings are built on first use. For 100,000 products:
//! ~10 MB of product data, 12.5 kB per bitset, 400 kB per sorting.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, LazyLock, Mutex};

use rusqlite::Connection;

use super::criteria::Sql;
use super::query::{name_expr, name_joins};
use crate::storage::translation::LanguageChain;

/// A set of product positions.
#[derive(Debug, Clone)]
pub struct Bits(Vec<u64>);

impl Bits {
    fn empty(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    fn insert(&mut self, at: usize) {
        self.0[at / 64] |= 1 << (at % 64);
    }

    fn contains(&self, at: usize) -> bool {
        self.0[at / 64] & (1 << (at % 64)) != 0
    }

    fn intersect(&mut self, other: &Bits) {
        for (word, other) in self.0.iter_mut().zip(&other.0) {
            *word &= other;
        }
    }

    fn unite(&mut self, other: &Bits) {
        for (word, other) in self.0.iter_mut().zip(&other.0) {
            *word |= other;
        }
    }

    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Keeps the members for which `keep` holds.
    fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        for (index, word) in self.0.iter_mut().enumerate() {
            let mut rest = *word;
            while rest != 0 {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if !keep(index * 64 + bit) {
                    *word &= !(1 << bit);
                }
            }
        }
    }
}

/// The listing filters of a request, as the fast path applies them (the enabled ones
/// only; see `listing::filters`, which this mirrors).
#[derive(Debug, Default)]
pub struct Filters<'a> {
    pub manufacturers: &'a [String],
    /// Property options grouped by property group: options of a group are
    /// alternatives, groups must all match.
    pub option_groups: BTreeMap<String, Vec<String>>,
    pub min_price: Option<f64>,
    pub max_price: Option<f64>,
    pub rating: Option<i64>,
    pub shipping_free: bool,
}

/// A search term's matches (main products), ranked by score, then product number.
struct Matches {
    members: Bits,
    ranked: Arc<Vec<u32>>,
}

/// Kept sortings and searches, each at most this many (searches: as many as users type).
const KEPT: usize = 64;

pub struct Index {
    version: i64,
    ids: Vec<String>,
    position: HashMap<String, u32>,
    price: Vec<Option<f64>>,
    rating: Vec<Option<f64>>,
    shipping_free: Vec<bool>,
    manufacturer: Vec<Option<String>>,
    categories: Mutex<HashMap<String, Arc<Bits>>>,
    options: Mutex<HashMap<String, Arc<Bits>>>,
    manufacturers: Mutex<HashMap<String, Arc<Bits>>>,
    sortings: Mutex<HashMap<String, Arc<Vec<u32>>>>,
    searches: Mutex<HashMap<String, Arc<Matches>>>,
}

/// The index of each database file.
static INDEXES: LazyLock<Mutex<HashMap<String, Arc<Index>>>> = LazyLock::new(Mutex::default);

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A value kept in `cache` under `key`, or made by `make` and kept.
fn kept<T>(
    cache: &Mutex<HashMap<String, Arc<T>>>,
    key: &str,
    make: impl FnOnce() -> rusqlite::Result<T>,
) -> rusqlite::Result<Arc<T>> {
    if let Some(found) = lock(cache).get(key) {
        return Ok(found.clone());
    }
    let made = Arc::new(make()?);
    let mut cache = lock(cache);
    if cache.len() >= KEPT {
        cache.clear();
    }
    cache.insert(key.to_owned(), made.clone());
    Ok(made)
}

/// Held while an index is read, so that requests arriving together after a catalogue
/// change read it once instead of each on its own.
static READING: Mutex<()> = Mutex::new(());

/// The index of the connection's database at the catalogue version of its snapshot.
pub fn of(conn: &Connection) -> rusqlite::Result<Arc<Index>> {
    let version: i64 = conn.query_row("SELECT n FROM catalog_version WHERE id = 1", [], |r| {
        r.get(0)
    })?;
    let path = conn.path().unwrap_or_default().to_owned();
    let current = || {
        lock(&INDEXES)
            .get(&path)
            .filter(|index| index.version == version)
            .cloned()
    };
    if let Some(index) = current() {
        return Ok(index);
    }
    let _reading = lock(&READING);
    if let Some(index) = current() {
        return Ok(index);
    }
    let index = Arc::new(Index::read(conn, version)?);
    let mut indexes = lock(&INDEXES);
    // A reader of an older snapshot does not replace a newer index (versions only grow).
    if indexes.get(&path).is_none_or(|kept| kept.version < version) {
        indexes.insert(path, index.clone());
    }
    Ok(index)
}

impl Index {
    fn read(conn: &Connection, version: i64) -> rusqlite::Result<Index> {
        let mut statement = conn.prepare(
            "SELECT id, listing_price, rating_average, shipping_free, manufacturer_id FROM product
             WHERE active = 1 AND parent_id IS NULL",
        )?;
        let mut index = Index {
            version,
            ids: Vec::new(),
            position: HashMap::new(),
            price: Vec::new(),
            rating: Vec::new(),
            shipping_free: Vec::new(),
            manufacturer: Vec::new(),
            categories: Mutex::default(),
            options: Mutex::default(),
            manufacturers: Mutex::default(),
            sortings: Mutex::default(),
            searches: Mutex::default(),
        };
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            let id: String = row.get(0)?;
            index.position.insert(id.clone(), index.ids.len() as u32);
            index.ids.push(id);
            index.price.push(row.get(1)?);
            index.rating.push(row.get(2)?);
            index
                .shipping_free
                .push(row.get::<_, Option<i64>>(3)? == Some(1));
            index.manufacturer.push(row.get(4)?);
        }
        Ok(index)
    }

    /// The positions of the ids an SQL query answers (ids of other products are left out).
    fn bits_of(&self, conn: &Connection, sql: &Sql) -> rusqlite::Result<Bits> {
        let mut bits = Bits::empty(self.ids.len());
        for id in sql.query_map(conn, |r| r.get::<_, String>(0))? {
            if let Some(at) = self.position.get(&id) {
                bits.insert(*at as usize);
            }
        }
        Ok(bits)
    }

    fn positions_of(&self, conn: &Connection, sql: &Sql) -> rusqlite::Result<Vec<u32>> {
        Ok(sql
            .query_map(conn, |r| r.get::<_, String>(0))?
            .iter()
            .filter_map(|id| self.position.get(id).copied())
            .collect())
    }

    /// The main products of a category or its descendants.
    fn category(&self, conn: &Connection, category_id: &str) -> rusqlite::Result<Arc<Bits>> {
        kept(&self.categories, category_id, || {
            let mut sql = Sql::default();
            sql.push("SELECT product_id FROM product_category_tree WHERE category_id = ")
                .bind(category_id.to_owned())
                .push(" AND main = 1");
            self.bits_of(conn, &sql)
        })
    }

    /// The main products of a manufacturer.
    fn manufacturer(&self, manufacturer_id: &str) -> rusqlite::Result<Arc<Bits>> {
        kept(&self.manufacturers, manufacturer_id, || {
            let mut bits = Bits::empty(self.ids.len());
            for (at, manufacturer) in self.manufacturer.iter().enumerate() {
                if manufacturer.as_deref() == Some(manufacturer_id) {
                    bits.insert(at);
                }
            }
            Ok(bits)
        })
    }

    /// The main products with the option as a property, or with active variants that have it.
    fn option(&self, conn: &Connection, option_id: &str) -> rusqlite::Result<Arc<Bits>> {
        kept(&self.options, option_id, || {
            let mut sql = Sql::default();
            sql.push("SELECT x.product_id FROM product_property x WHERE x.option_id = ")
                .bind(option_id.to_owned())
                .push(" UNION ALL SELECT v.parent_id FROM product_option x JOIN product v ON v.id = x.product_id WHERE v.active = 1 AND x.option_id = ")
                .bind(option_id.to_owned());
            self.bits_of(conn, &sql)
        })
    }

    /// The main products matching an FTS5 expression in the chain's languages, by score.
    fn search(
        &self,
        conn: &Connection,
        expression: &str,
        chain: &LanguageChain,
    ) -> rusqlite::Result<Arc<Matches>> {
        let key = format!("{expression}\n{}\n{}", chain.current, chain.fallback);
        kept(&self.searches, &key, || {
            let mut sql = Sql::default();
            sql.push(
                "SELECT p.id FROM product p JOIN (SELECT product_id, MIN(rank) AS score FROM product_search
                   WHERE product_search MATCH :match AND language_id IN (:lang, :fallback) GROUP BY product_id) s ON s.product_id = p.id
                 WHERE p.active = 1 AND p.parent_id IS NULL ORDER BY s.score ASC, p.product_number",
            );
            sql.set(":match", expression.to_owned());
            sql.set(":lang", chain.current.clone());
            sql.set(":fallback", chain.fallback.clone());
            let ranked = self.positions_of(conn, &sql)?;
            let mut members = Bits::empty(self.ids.len());
            for at in &ranked {
                members.insert(*at as usize);
            }
            Ok(Matches {
                members,
                ranked: Arc::new(ranked),
            })
        })
    }

    /// All main products in the order of `order_by` (SQL over the alias `p`, see
    /// `listing::SORTINGS`), ties broken as the general path breaks them: by id in a
    /// category listing, by product number in a search.
    fn sorting(
        &self,
        conn: &Connection,
        order_by: &str,
        uses_names: bool,
        in_category: bool,
        chain: &LanguageChain,
    ) -> rusqlite::Result<Arc<Vec<u32>>> {
        let tie = if in_category {
            "p.id"
        } else {
            "p.product_number"
        };
        let key = format!("{order_by}\n{tie}\n{}\n{}", chain.current, chain.fallback);
        kept(&self.sortings, &key, || {
            let mut sql = Sql::default();
            sql.push("SELECT p.id FROM product p");
            if uses_names {
                sql.push(&name_joins(chain, "p.id"));
            }
            sql.push(&format!(
                " WHERE p.active = 1 AND p.parent_id IS NULL ORDER BY {}, {tie}",
                name_expr(chain, order_by)
            ));
            sql.set(":lang", chain.current.clone());
            sql.set(":fallback", chain.fallback.clone());
            self.positions_of(conn, &sql)
        })
    }
}

/// What a listing page needs: its base, filters, sorting and page.
pub struct Page<'a> {
    pub category_id: Option<&'a str>,
    /// The FTS5 expression of a search.
    pub search: Option<&'a str>,
    pub filters: Filters<'a>,
    /// `ORDER BY` over the alias `p`; `None`: by search score.
    pub order_by: Option<(&'a str, bool)>,
    pub offset: usize,
    pub limit: usize,
}

/// The page of product ids and the exact total, as `query::select` answers them for
/// a listing without criteria filters.
pub fn select(
    conn: &Connection,
    chain: &LanguageChain,
    page: &Page,
) -> rusqlite::Result<(Vec<String>, usize)> {
    let index = of(conn)?;
    let matches = match page.search {
        Some(expression) => Some(index.search(conn, expression, chain)?),
        None => None,
    };
    let mut members = match (page.category_id, &matches) {
        (Some(category), _) => {
            let mut members = (*index.category(conn, category)?).clone();
            if let Some(matches) = &matches {
                members.intersect(&matches.members);
            }
            members
        }
        (None, Some(matches)) => matches.members.clone(),
        (None, None) => {
            let mut all = Bits::empty(index.ids.len());
            (0..index.ids.len()).for_each(|at| all.insert(at));
            all
        }
    };
    for options in page.filters.option_groups.values() {
        let mut any = Bits::empty(index.ids.len());
        for option in options {
            any.unite(&*index.option(conn, option)?);
        }
        members.intersect(&any);
    }
    let filters = &page.filters;
    if !filters.manufacturers.is_empty() {
        let mut any = Bits::empty(index.ids.len());
        for manufacturer in filters.manufacturers {
            any.unite(&*index.manufacturer(manufacturer)?);
        }
        members.intersect(&any);
    }
    if filters.min_price.is_some()
        || filters.max_price.is_some()
        || filters.rating.is_some()
        || filters.shipping_free
    {
        let at_least = |value: Option<f64>, bound: Option<f64>| {
            bound.is_none_or(|bound| value.is_some_and(|v| v >= bound))
        };
        members.retain(|at| {
            at_least(index.price[at], filters.min_price)
                && filters
                    .max_price
                    .is_none_or(|max| index.price[at].is_some_and(|p| p <= max))
                && at_least(index.rating[at], filters.rating.map(|r| r as f64))
                && (!filters.shipping_free || index.shipping_free[at])
        });
    }
    let total = members.len();
    let order = match (page.order_by, &matches) {
        (Some((order_by, uses_names)), _) => index.sorting(
            conn,
            order_by,
            uses_names,
            page.category_id.is_some(),
            chain,
        )?,
        (None, Some(matches)) => matches.ranked.clone(),
        (None, None) => return Ok((Vec::new(), total)),
    };
    let ids = order
        .iter()
        .filter(|at| members.contains(**at as usize))
        .skip(page.offset)
        .take(page.limit)
        .map(|at| index.ids[*at as usize].clone())
        .collect();
    Ok((ids, total))
}
