-- Schema version 4: every table of schema.sql and schema-3.sql (schema 3), unchanged, and this
-- one after them, holding the pictures' renditions. A bundle of schema 4 is a bundle of schema 3
-- with this table added.
--
-- Every picture's ladder (docs/CONTENT-FORMAT.md, "Pictures"): `images` holds, as in schemas 2
-- and 3, one rendition per picture (JPEG or PNG, for its largest use at a screen scale of 3),
-- whose SHA-256 is the picture's id everywhere; this table holds its others, WebP at each use's
-- size at 1x, 2x and 3x, each size once. An app or a site picks among the picture's row in
-- `images` and its rows here (CatalogModel's `CatalogBundle.renditions(of:)`).
CREATE TABLE renditions (
    image TEXT NOT NULL REFERENCES images (sha256),
    media_type TEXT NOT NULL CHECK (media_type IN ('image/webp', 'image/png', 'image/jpeg')),
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    byte_count INTEGER NOT NULL CHECK (byte_count > 0 AND byte_count = length(bytes)),
    bytes BLOB NOT NULL,
    PRIMARY KEY (image, media_type, width)
);
