-- Shopware's system configuration (the Admin API's `_action/system-config`): the shop's
-- settings that belong to no entity, one JSON value per key, shop-wide (an empty sales
-- channel id) or for one sales channel. Nothing is seeded: the shop's name and e-mail
-- address fall back to the sales channel's name and the built-in sender (`mail::sender`).
CREATE TABLE system_config (
    configuration_key TEXT NOT NULL,
    sales_channel_id TEXT NOT NULL DEFAULT '',
    configuration_value TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (configuration_key, sales_channel_id)
) WITHOUT ROWID;
