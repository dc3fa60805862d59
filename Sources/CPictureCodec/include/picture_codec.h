#ifndef DIGNO_PICTURE_CODEC_H
#define DIGNO_PICTURE_CODEC_H

#include <stddef.h>

// The compiler's calls into libvips, which Swift cannot make itself: libvips' operations take
// their options as variadic arguments (name, value, …, NULL). Each call here is one fixed
// sequence of them. JPEG and PNG sources are decoded by libjpeg-turbo and libpng themselves, so
// that each decoder warning is judged and a JPEG's scans are limited. Used by BundleCompiler's
// Pictures/ only.

/// Starts libvips once per process (later calls return the first one's result): one thread per
/// operation (the compiler runs pictures side by side itself), no operation cache, and every
/// loader blocked but the four the content may use (JPEG, PNG, HEIF, WebP). 0, or -1.
int digno_pictures_start(void);

/// The versions of the libraries a rendition's bytes depend on, as "libvips 8.14.1, libjpeg-turbo
/// 2.1.5, …", written into `text` (NUL-terminated, cut to `size`).
void digno_pictures_versions(char *text, size_t size);

/// A picture's header, read without decoding its pixels.
typedef struct {
    /// As stored, before any orientation.
    int width;
    int height;
    /// The EXIF orientation, 1 to 8; 1 where there is none (or the decoder applies it itself).
    int orientation;
    /// Whether it has an alpha channel.
    int has_alpha;
} digno_picture_header;

/// Reads the header of the picture in `bytes`, with the loader of `format` (1 JPEG, 2 PNG, 3
/// HEIF, 4 WebP) only. 0, or -1 with libvips' words in `error` (cut to `error_size`).
int digno_picture_read_header(const void *bytes, size_t length, int format, digno_picture_header *header,
                              char *error, size_t error_size);

/// The metadata of the picture in `bytes` (read as `format`, its header only) that renditions
/// leave out, as lines of a name, a tab and a value into `text` (NUL-terminated, cut to `size`
/// at a line's end): each EXIF field libvips reads (`exif-ifd0-Make`, `exif-ifd3-GPSLatitude`…,
/// the value as libvips writes it, `60/1 10/1 291/25 (60, 10, 11.64, Rational, …)`), and
/// `xmp-data`, `iptc-data` where the file has them. 0, or -1 with libvips' words in `text`.
int digno_picture_metadata(const void *bytes, size_t length, int format, char *text, size_t size);

/// A rendition to make: fitted inside `width` × `height` pixels, never enlarged, turned upright
/// by its EXIF orientation, converted to sRGB, all metadata removed, encoded as `format` (1 JPEG,
/// 2 PNG, 3 WebP) at `quality` (JPEG and lossy WebP; PNG is lossless), WebP `lossless` if not 0
/// and with libwebp's `effort` (0 fastest to 6).
typedef struct {
    int width;
    int height;
    int format;
    int quality;
    int lossless;
    int effort;
} digno_rendition_request;

/// A rendition made: `length` bytes at `bytes` (released with `digno_pictures_free`), and its
/// size.
typedef struct {
    void *bytes;
    size_t length;
    int width;
    int height;
} digno_rendition_output;

/// The source of a rendition: what the compiler read of it before any pixel is decoded.
typedef struct {
    /// 1 JPEG, 2 PNG, 3 HEIF, 4 WebP.
    int format;
    /// The EXIF orientation, 1 to 8 (a HEIF file's is applied by its decoder: 1).
    int orientation;
    /// A HEIF file's `nclx` colour, as ITU-T H.273 numbers it: its colour primaries and transfer
    /// characteristics; 0 where it has none.
    int colour_primaries;
    int transfer_characteristics;
    /// A JPEG's most scans: its decode stops at the next (0: no limit).
    int max_scans;
    /// A HEIF file's embedded thumbnail instead of its primary image, when not 0: the preview's
    /// stand-in while the renditions are made. Only asked of a file whose boxes name one (libvips
    /// takes the primary image where there is none).
    int thumbnail;
} digno_picture_source;

/// Why `digno_picture_render` made nothing.
enum {
    /// libvips or the decoder failed (its words in `error`).
    DIGNO_PICTURE_FAILED = -1,
    /// The decoder found the pixel data damaged: it would have made up pixels the file does not
    /// give (its words in `error`).
    DIGNO_PICTURE_DAMAGED = -2,
    /// A JPEG's scans went past `max_scans`.
    DIGNO_PICTURE_TOO_MANY_SCANS = -3,
};

/// Makes `count` renditions of the picture in `bytes`, decoding it once: to the first request's
/// box, which holds every other, and each other rendition resized from those pixels. On success
/// (0) `outputs[i]` is `requests[i]`'s rendition; otherwise one of the values above, with the
/// words in `error` and no output to release.
int digno_picture_render(const void *bytes, size_t length, const digno_picture_source *source,
                         const digno_rendition_request *requests, int count,
                         digno_rendition_output *outputs, char *error, size_t error_size);

/// Releases a rendition's bytes.
void digno_pictures_free(void *bytes);

#endif
