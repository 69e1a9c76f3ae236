//! Step 1, lines: the stored items sorted by kind, each product line with its
//! product; a line whose product is gone, has variants or is sold out is removed.

use crate::cart::model::{CartError, Change, StoredItem};
use crate::catalog::purchasable::Purchasable;

/// The stored items by kind, the product lines with their product.
#[derive(Debug, Default)]
pub struct Sorted {
    pub products: Vec<(StoredItem, Purchasable)>,
    pub promotions: Vec<StoredItem>,
    pub discounts: Vec<StoredItem>,
}

/// What a step reports besides its result: errors to answer, changes to store.
#[derive(Debug, Default, PartialEq)]
pub struct Report {
    pub errors: Vec<CartError>,
    pub changes: Vec<Change>,
}

impl Report {
    /// Removes the line `id` for `error`.
    pub fn remove(&mut self, id: &str, error: Option<CartError>) {
        self.changes.push(Change::Remove(id.to_owned()));
        self.errors.extend(error);
    }
}

/// Why a product line cannot stay, if it cannot.
fn refusal(item: &StoredItem, product: Option<&Purchasable>) -> Option<CartError> {
    let Some(product) = product.filter(|p| p.child_count == 0) else {
        return Some(CartError::new(
            "product-not-found",
            &item.id,
            CartError::ERROR,
            "The product could not be found.".into(),
        ));
    };
    if !product.available() || product.calculated_max_purchase() == 0 {
        let name = product.name.as_deref().unwrap_or_default();
        let message = format!("The product {name} is no longer available.");
        return Some(CartError::new(
            "product-out-of-stock",
            &item.id,
            CartError::ERROR,
            message,
        ));
    }
    None
}

/// Sorts `items`; every item that is neither a promotion nor a discount is a product line.
pub fn sort(items: Vec<StoredItem>, products: &[Purchasable], report: &mut Report) -> Sorted {
    let mut sorted = Sorted::default();
    for item in items {
        match item.kind.as_str() {
            "promotion" => sorted.promotions.push(item),
            "discount" => sorted.discounts.push(item),
            _ => {
                let product = products.iter().find(|p| p.id == item.referenced_id);
                match (refusal(&item, product), product) {
                    (None, Some(product)) => sorted.products.push((item, product.clone())),
                    (error, _) => report.remove(&item.id, error),
                }
            }
        }
    }
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn item(id: &str, kind: &str, quantity: i64) -> StoredItem {
        StoredItem {
            id: id.into(),
            kind: kind.into(),
            referenced_id: id.into(),
            quantity,
        }
    }

    fn product(id: &str) -> Purchasable {
        Purchasable {
            id: id.into(),
            name: Some(id.to_uppercase()),
            min_purchase: 1,
            purchase_steps: 1,
            stock: 3,
            ..Default::default()
        }
    }

    #[test]
    fn lines_are_sorted_by_kind_and_lines_without_a_product_go() {
        let mut parent = product("parent");
        parent.child_count = 2;
        let mut sold_out = product("sold-out");
        sold_out.closeout = true;
        sold_out.stock = 0;
        let products = [product("a"), parent, sold_out];
        let items = vec![
            item("a", "product", 1),
            item("code", "promotion", 1),
            item("gone", "product", 1),
            item("parent", "product", 1),
            item("dsr-discount", "discount", 1),
            item("sold-out", "product", 1),
        ];
        let mut report = Report::default();
        let sorted = sort(items, &products, &mut report);
        assert_eq!(
            sorted
                .products
                .iter()
                .map(|(i, p)| (i.id.as_str(), p.id.as_str()))
                .collect::<Vec<_>>(),
            [("a", "a")]
        );
        assert_eq!(sorted.promotions[0].id, "code");
        assert_eq!(sorted.discounts[0].id, "dsr-discount");
        let removed: Vec<&Change> = report.changes.iter().collect();
        assert_eq!(
            removed,
            [
                &Change::Remove("gone".into()),
                &Change::Remove("parent".into()),
                &Change::Remove("sold-out".into())
            ]
        );
        let keys: Vec<String> = report.errors.iter().map(CartError::key).collect();
        assert_eq!(
            keys,
            [
                "product-not-foundgone",
                "product-not-foundparent",
                "product-out-of-stocksold-out"
            ]
        );
        assert_eq!(
            report.errors[2].message,
            "The product SOLD-OUT is no longer available."
        );
    }
}
