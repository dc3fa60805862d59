-- Schema version 3: every table of schema.sql (schema 2), unchanged and holding the texts in
-- the catalogue's default language, and these tables after them, holding its other languages.
-- A bundle of schema 3 is a bundle of schema 2 with these tables added: what reads schema 2
-- reads its default language as before.
--
-- The languages: the default (position 1, no fallback), then each other language with the
-- language a text not translated into it is shown in, declared before it (so no chain loops).
CREATE TABLE languages (
    code TEXT PRIMARY KEY NOT NULL CHECK (length(code) BETWEEN 2 AND 6 AND code NOT GLOB '*[^a-zA-Z-]*'),
    position INTEGER NOT NULL UNIQUE CHECK (position > 0),
    fallback TEXT REFERENCES languages (code),
    CHECK ((position = 1) = (fallback IS NULL))
) WITHOUT ROWID;

-- Every translated text: one field of one entity in one language other than the default.
-- `kind` and `entity_id` name the entity (`entity_id` is '' for the home and the company);
-- `field` is `name`, `summary`, `title`, `text`, `hours`, `info`, `body`, `method` (whose
-- `text` is the rich text's JSON, as `*_json` holds it), `image_alt` (the home's or a
-- promotion's picture), `ingredient:N` (the recipe's line at position N) or `picture:N` (the
-- alt text of the picture at position N).
--
-- The CHECK constraints of this file's tables compare with `=` and `OR`, not `IN (…)`: SQLite
-- 3.40 builds an IN list's lookup table again for each row a CHECK is tested on, which made
-- `PRAGMA integrity_check` of 1.3 million translations take 1.8 s instead of 0.3 s.
CREATE TABLE translations (
    kind TEXT NOT NULL CHECK (kind = 'section' OR kind = 'home' OR kind = 'promotion' OR kind = 'company' OR kind = 'product'
        OR kind = 'recipe' OR kind = 'retailer'),
    entity_id TEXT NOT NULL,
    field TEXT NOT NULL CHECK (field = 'name' OR field = 'summary' OR field = 'title' OR field = 'text' OR field = 'hours'
        OR field = 'info' OR field = 'body' OR field = 'method' OR field = 'image_alt'
        OR field GLOB 'ingredient:[1-9]*' OR field GLOB 'picture:[12]'),
    language TEXT NOT NULL REFERENCES languages (code),
    text TEXT NOT NULL CHECK (text <> ''),
    PRIMARY KEY (kind, entity_id, language, field)
) WITHOUT ROWID;

-- The lists in each language but the default, whose order is the entity tables' `position`:
-- the editor's positions first, then the names in that language's alphabetical order (ICU's
-- collation for it), ties by id.
CREATE TABLE list_positions (
    kind TEXT NOT NULL CHECK (kind = 'product' OR kind = 'recipe' OR kind = 'retailer'),
    language TEXT NOT NULL REFERENCES languages (code),
    position INTEGER NOT NULL CHECK (position > 0),
    entity_id TEXT NOT NULL,
    PRIMARY KEY (kind, language, position),
    UNIQUE (kind, language, entity_id)
) WITHOUT ROWID;

-- Search in each language but the default, whose texts the index `search` of schema.sql holds:
-- one row per product, recipe and retailer and language, of the texts a reader of that
-- language sees (a text not translated into it as it falls back), folded as `search` folds
-- them. `search_translated_entries` says which entity and language each row is. With n the
-- rows of `search_entries` (one per entity), the language at position k of `languages` has
-- the rowids (k - 2)·n + 1 … (k - 1)·n, in its list order (products, recipes, retailers), so
-- that a search finds its run without reading the table.
CREATE TABLE search_translated_entries (
    rowid INTEGER PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind = 'product' OR kind = 'recipe' OR kind = 'retailer'),
    entity_id TEXT NOT NULL,
    language TEXT NOT NULL REFERENCES languages (code),
    UNIQUE (language, kind, entity_id)
);

CREATE VIRTUAL TABLE search_translated USING fts5 (
    name,
    summary,
    content,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);

-- The names of products, recipes and retailers in every language, the default's too, with
-- the letters the language has as its own kept: in Finnish and Swedish å, ä and ö are letters
-- of their own, which `search` folds into a, a and o. The text is written folded of every
-- other accent (`cafe` finds `Café`) and the tokenizer keeps what is left, so a query written
-- with ä finds names with ä first, before the folded indexes find the others. Rows as in
-- `search_translated`, for every language: the one at position k has rowids (k - 1)·n + 1 … k·n.
CREATE TABLE search_letters_entries (
    rowid INTEGER PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind = 'product' OR kind = 'recipe' OR kind = 'retailer'),
    entity_id TEXT NOT NULL,
    language TEXT NOT NULL REFERENCES languages (code),
    UNIQUE (language, kind, entity_id)
);

CREATE VIRTUAL TABLE search_letters USING fts5 (
    name,
    content = '',
    tokenize = 'unicode61 remove_diacritics 0',
    prefix = '2 3'
);
