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
CREATE TABLE translations (
    kind TEXT NOT NULL CHECK (kind IN ('section', 'home', 'promotion', 'company', 'product', 'recipe', 'retailer')),
    entity_id TEXT NOT NULL,
    field TEXT NOT NULL CHECK (field IN ('name', 'summary', 'title', 'text', 'hours', 'info', 'body', 'method', 'image_alt')
        OR field GLOB 'ingredient:[1-9]*' OR field GLOB 'picture:[12]'),
    language TEXT NOT NULL REFERENCES languages (code),
    text TEXT NOT NULL CHECK (text <> ''),
    PRIMARY KEY (kind, entity_id, language, field)
) WITHOUT ROWID;

-- The lists in each language but the default, whose order is the entity tables' `position`:
-- the editor's positions first, then the names in that language's alphabetical order (ICU's
-- collation for it), ties by id.
CREATE TABLE list_positions (
    kind TEXT NOT NULL CHECK (kind IN ('product', 'recipe', 'retailer')),
    language TEXT NOT NULL REFERENCES languages (code),
    position INTEGER NOT NULL CHECK (position > 0),
    entity_id TEXT NOT NULL,
    PRIMARY KEY (kind, language, position),
    UNIQUE (kind, language, entity_id)
) WITHOUT ROWID;
