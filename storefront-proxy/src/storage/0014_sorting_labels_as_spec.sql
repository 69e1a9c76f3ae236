-- The demo's sort labels as the spec words them ("Lowest price", "Top seller", …), also in
-- shops seeded before: only the demo's old texts are replaced, a merchant's own stay.
UPDATE product_sorting_translation SET label = CASE label
    WHEN 'Price ascending' THEN 'Lowest price'
    WHEN 'Price descending' THEN 'Highest price'
    WHEN 'Topseller' THEN 'Top seller'
    WHEN 'Preis aufsteigend' THEN 'Niedrigster Preis'
    WHEN 'Preis absteigend' THEN 'Höchster Preis'
    ELSE label END
WHERE label IN ('Price ascending', 'Price descending', 'Preis aufsteigend', 'Preis absteigend')
   OR (label = 'Topseller' AND language_id IN (SELECT id FROM language WHERE code LIKE 'en-%'));
