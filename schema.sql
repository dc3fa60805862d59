-- The Café Digno bundle: one read-only SQLite file per release.
--
-- This file is the one source of the bundle's tables. The compiler embeds it and runs it as
-- is; a test fails if a built bundle's schema differs from it.
--
-- Schema version 2 (PRAGMA user_version = 2) is this file; schema version 3 is this file and
-- then schema-3.sql, which adds the catalogue's languages (its other languages' texts, in
-- tables of their own; the texts here are the default language's). PRAGMA application_id =
-- 0x43444247 ('CDBG') marks a Café Digno bundle. Both are set by the compiler.
--
-- Conventions:
-- - Entity tables carry the stable slug from the content file name as `id`.
-- - `position` is the list order decided by the compiler (the editor's order, then names in
--   Finnish alphabetical order); clients just ORDER BY position.
-- - Images are stored once, by the SHA-256 of their bytes; entities point at them.
-- - Rich text is stored twice: `*_json`, the typed blocks (see README.md, "Rich text in the
--   bundle"), and `*_text`, plain text for search and simple clients.
-- - Length limits count characters as a reader sees them, which SQL cannot; the compiler
--   enforces them exactly. The CHECKs here bound values as a second line of defence.
-- - The 1..* rules (every product in a recipe, every recipe with a product, every retailer
--   selling one) cannot be a constraint; the compiler checks them with SQL after loading.

CREATE TABLE bundle_info (
    key TEXT PRIMARY KEY NOT NULL
        CHECK (key IN ('schema_version', 'release_version', 'release_date', 'content_digest', 'generator', 'brand')),
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE images (
    sha256 TEXT PRIMARY KEY NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    media_type TEXT NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg')),
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    byte_count INTEGER NOT NULL CHECK (byte_count = length(bytes)),
    bytes BLOB NOT NULL
);

CREATE TABLE sections (
    id TEXT PRIMARY KEY NOT NULL CHECK (id IN ('home', 'products', 'recipes', 'retailers', 'company')),
    position INTEGER NOT NULL UNIQUE CHECK (position BETWEEN 1 AND 5),
    title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    icon TEXT NOT NULL REFERENCES images (sha256)
) WITHOUT ROWID;

CREATE TABLE products (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 64 AND id NOT GLOB '*[^a-z0-9-]*'),
    position INTEGER NOT NULL UNIQUE CHECK (position > 0),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    summary TEXT NOT NULL CHECK (length(summary) BETWEEN 1 AND 400),
    icon TEXT NOT NULL REFERENCES images (sha256),
    body_json TEXT NOT NULL CHECK (json_valid(body_json)),
    body_text TEXT NOT NULL CHECK (body_text <> '')
);

CREATE TABLE product_images (
    product_id TEXT NOT NULL REFERENCES products (id),
    position INTEGER NOT NULL CHECK (position IN (1, 2)),
    image TEXT NOT NULL REFERENCES images (sha256),
    alt TEXT NOT NULL CHECK (alt <> ''),
    PRIMARY KEY (product_id, position)
) WITHOUT ROWID;

CREATE TABLE recipes (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 64 AND id NOT GLOB '*[^a-z0-9-]*'),
    position INTEGER NOT NULL UNIQUE CHECK (position > 0),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    summary TEXT NOT NULL CHECK (length(summary) BETWEEN 1 AND 400),
    icon TEXT NOT NULL REFERENCES images (sha256),
    method_json TEXT NOT NULL CHECK (json_valid(method_json)),
    method_text TEXT NOT NULL CHECK (method_text <> '')
);

CREATE TABLE recipe_images (
    recipe_id TEXT NOT NULL REFERENCES recipes (id),
    position INTEGER NOT NULL CHECK (position IN (1, 2)),
    image TEXT NOT NULL REFERENCES images (sha256),
    alt TEXT NOT NULL CHECK (alt <> ''),
    PRIMARY KEY (recipe_id, position)
) WITHOUT ROWID;

-- A recipe's ingredient lines in order; `product_id` where the line is a Café Digno product.
CREATE TABLE recipe_ingredients (
    recipe_id TEXT NOT NULL REFERENCES recipes (id),
    position INTEGER NOT NULL CHECK (position > 0),
    text TEXT NOT NULL CHECK (text <> ''),
    product_id TEXT REFERENCES products (id),
    PRIMARY KEY (recipe_id, position)
) WITHOUT ROWID;

-- Which products each recipe uses, from its ingredients, each pair once.
CREATE TABLE recipe_products (
    recipe_id TEXT NOT NULL REFERENCES recipes (id),
    product_id TEXT NOT NULL REFERENCES products (id),
    PRIMARY KEY (recipe_id, product_id)
) WITHOUT ROWID;
CREATE INDEX recipe_products_by_product ON recipe_products (product_id, recipe_id);

CREATE TABLE retailers (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 64 AND id NOT GLOB '*[^a-z0-9-]*'),
    position INTEGER NOT NULL UNIQUE CHECK (position > 0),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    logo TEXT NOT NULL REFERENCES images (sha256),
    address TEXT NOT NULL CHECK (length(address) BETWEEN 1 AND 1000),
    phone TEXT NOT NULL CHECK (length(phone) BETWEEN 1 AND 200),
    opening_hours TEXT NOT NULL CHECK (length(opening_hours) BETWEEN 1 AND 1000),
    other_info TEXT CHECK (other_info <> ''),
    web_address TEXT CHECK (web_address GLOB 'http://?*' OR web_address GLOB 'https://?*'),
    latitude REAL CHECK (latitude BETWEEN -90 AND 90),
    longitude REAL CHECK (longitude BETWEEN -180 AND 180),
    CHECK ((latitude IS NULL) = (longitude IS NULL))
);

-- What each retailer sells, in the editor's order.
CREATE TABLE retailer_products (
    retailer_id TEXT NOT NULL REFERENCES retailers (id),
    product_id TEXT NOT NULL REFERENCES products (id),
    position INTEGER NOT NULL CHECK (position > 0),
    PRIMARY KEY (retailer_id, product_id),
    UNIQUE (retailer_id, position)
) WITHOUT ROWID;
CREATE INDEX retailer_products_by_product ON retailer_products (product_id, retailer_id);

-- The Etusivu screen: exactly one row.
CREATE TABLE home (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    logo TEXT NOT NULL REFERENCES images (sha256),
    image TEXT NOT NULL REFERENCES images (sha256),
    image_alt TEXT NOT NULL CHECK (image_alt <> ''),
    body_json TEXT NOT NULL CHECK (json_valid(body_json)),
    body_text TEXT NOT NULL CHECK (body_text <> '')
);

-- Home-page news, each shown from its first to its last day inclusive (YYYY-MM-DD).
CREATE TABLE promotions (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 64 AND id NOT GLOB '*[^a-z0-9-]*'),
    position INTEGER NOT NULL UNIQUE CHECK (position > 0),
    title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 1000),
    image TEXT NOT NULL REFERENCES images (sha256),
    image_alt TEXT NOT NULL CHECK (image_alt <> ''),
    first_day TEXT NOT NULL CHECK (first_day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    last_day TEXT NOT NULL CHECK (last_day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    link_product TEXT REFERENCES products (id),
    link_recipe TEXT REFERENCES recipes (id),
    CHECK (first_day <= last_day),
    CHECK (link_product IS NULL OR link_recipe IS NULL)
) WITHOUT ROWID;

-- The Deling Group screen: exactly one row, and its one or two pictures.
CREATE TABLE company (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    logo TEXT NOT NULL REFERENCES images (sha256),
    body_json TEXT NOT NULL CHECK (json_valid(body_json)),
    body_text TEXT NOT NULL CHECK (body_text <> ''),
    web_address TEXT NOT NULL CHECK (web_address GLOB 'http://?*' OR web_address GLOB 'https://?*')
);

CREATE TABLE company_images (
    position INTEGER PRIMARY KEY NOT NULL CHECK (position IN (1, 2)),
    image TEXT NOT NULL REFERENCES images (sha256),
    alt TEXT NOT NULL CHECK (alt <> '')
);

-- Full-text search over products, recipes and retailers. `unicode61 remove_diacritics 2`
-- folds case and accents, so "cafe" finds "Café" and "aiti" finds "äiti". The prefix indexes
-- serve as-you-type search ("ca", "cap" …): without them a short prefix merges the lists of
-- every word it begins, 14.5 ms at the 99th percentile for 100,000 entities instead of about
-- 4 ms. The index is contentless (content=''): the texts are already in the entity tables,
-- and a copy would add a third to the bundle. `search_entries` says which entity each row
-- of the index is; rowids follow list order (products, recipes, retailers, each by position).
CREATE TABLE search_entries (
    rowid INTEGER PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('product', 'recipe', 'retailer')),
    entity_id TEXT NOT NULL,
    UNIQUE (kind, entity_id)
);

CREATE VIRTUAL TABLE search USING fts5 (
    name,
    summary,
    content,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);
