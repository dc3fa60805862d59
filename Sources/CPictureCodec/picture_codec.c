// See picture_codec.h. Written by hand only because libvips' options are variadic C arguments;
// every decision about pixels is libvips'.
#include "picture_codec.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <vips/vips.h>
#include <jpeglib.h>

static pthread_once_t started_once = PTHREAD_ONCE_INIT;
static int started_status = -1;

static const char *const allowed_loaders[] = {
    "VipsForeignLoadJpegBuffer", "VipsForeignLoadPngBuffer", "VipsForeignLoadHeifBuffer", "VipsForeignLoadWebpBuffer",
};

static void start(void) {
    if (VIPS_INIT("digno")) return;
    // The compiler renders pictures side by side on its own threads; one thread per operation
    // keeps each picture's work, and its memory, on its thread.
    vips_concurrency_set(1);
    // Each picture is rendered once per build: a cache of operations would only hold memory.
    vips_cache_set_max(0);
    // Content pictures are untrusted: no loader but the four formats the content may use, so
    // that bytes that look like one of them can never reach ImageMagick, PDF or SVG code.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    for (size_t index = 0; index < sizeof allowed_loaders / sizeof allowed_loaders[0]; index++)
        vips_operation_block_set(allowed_loaders[index], FALSE);
    started_status = 0;
}

int digno_pictures_start(void) {
    pthread_once(&started_once, start);
    return started_status;
}

// The versions of the libraries libvips has loaded, found by their symbols: libvips links
// libpng, zlib and libwebp, and loads libheif with its HEIF module, so their headers are not
// needed to ask them.

/// A library's version from a function taking no argument, or "?".
static const char *loaded_version(const char *symbol) {
    const char *(*function)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, symbol);
    return function ? function() : "?";
}

/// libpng's version: its function takes a (here unused) png_struct pointer.
static const char *png_version(void) {
    const char *(*function)(const void *) = (const char *(*)(const void *))dlsym(RTLD_DEFAULT, "png_get_libpng_ver");
    return function ? function(NULL) : "?";
}

static void webp_version(char *text, size_t size) {
    int (*function)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "WebPGetEncoderVersion");
    if (!function) { snprintf(text, size, "?"); return; }
    int version = function();
    snprintf(text, size, "%d.%d.%d", (version >> 16) & 0xFF, (version >> 8) & 0xFF, version & 0xFF);
}

void digno_pictures_versions(char *text, size_t size) {
    digno_pictures_start();
    char webp[32];
    webp_version(webp, sizeof webp);
#define DIGNO_STRING(x) #x
#define DIGNO_EXPAND(x) DIGNO_STRING(x)
#ifdef LIBJPEG_TURBO_VERSION
    const char *jpeg = "libjpeg-turbo " DIGNO_EXPAND(LIBJPEG_TURBO_VERSION);
#else
    const char *jpeg = "libjpeg " DIGNO_EXPAND(JPEG_LIB_VERSION);
#endif
    snprintf(text, size, "libvips %s, %s, libpng %s, zlib %s, libwebp %s, libheif %s",
             vips_version_string(), jpeg, png_version(), loaded_version("zlibVersion"),
             webp, loaded_version("heif_get_version"));
}

/// libvips' words for the last failure: the last line of its error buffer, which names the
/// decoder's own reason (the lines before it are the reading's consequences, such as "source:
/// bad seek to 296807"); a diagnostic holds one line.
static void take_error(char *error, size_t error_size, const char *fallback) {
    char *words = vips_error_buffer_copy();
    char *last = NULL;
    // A line with no letter (libheif ends its message with its error codes, " (2.100)", on a
    // line of their own) is not a reason.
    char *rest = NULL;
    for (char *line = words ? strtok_r(words, "\n", &rest) : NULL; line; line = strtok_r(NULL, "\n", &rest)) {
        for (char *at = line; *at; at++)
            if ((*at >= 'A' && *at <= 'Z') || (*at >= 'a' && *at <= 'z')) { last = line; break; }
    }
    snprintf(error, error_size, "%s", last ? last : fallback);
    g_free(words);
}

static VipsImage *load_header(const void *bytes, size_t length, int format) {
    VipsImage *image = NULL;
    void *buffer = (void *)bytes;
    int status = -1;
    switch (format) {
    case 1: status = vips_jpegload_buffer(buffer, length, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL); break;
    case 2: status = vips_pngload_buffer(buffer, length, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL); break;
    case 3: status = vips_heifload_buffer(buffer, length, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL); break;
    case 4: status = vips_webpload_buffer(buffer, length, &image, "access", VIPS_ACCESS_SEQUENTIAL, NULL); break;
    default: vips_error("digno", "unknown format %d", format); break;
    }
    return status == 0 ? image : NULL;
}

int digno_picture_read_header(const void *bytes, size_t length, int format, digno_picture_header *header,
                              char *error, size_t error_size) {
    if (digno_pictures_start() != 0) { snprintf(error, error_size, "libvips could not start"); return -1; }
    VipsImage *image = load_header(bytes, length, format);
    if (!image) { take_error(error, error_size, "the header cannot be read"); return -1; }
    header->width = vips_image_get_width(image);
    header->height = vips_image_get_height(image);
    header->has_alpha = vips_image_hasalpha(image) ? 1 : 0;
    int orientation = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) && vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation) == 0
        && orientation >= 1 && orientation <= 8)
        header->orientation = orientation;
    else
        header->orientation = 1;
    g_object_unref(image);
    return 0;
}

int digno_picture_render(const void *bytes, size_t length, int source_format, digno_rendition_request request,
                         void **output, size_t *output_length, int *width, int *height,
                         char *error, size_t error_size) {
    (void)source_format;  // the loader is libvips' choice among the four left unblocked
    if (digno_pictures_start() != 0) { snprintf(error, error_size, "libvips could not start"); return -1; }
    VipsImage *thumbnail = NULL;
    // Shrunk while decoding where the format allows (JPEG's DCT scaling), turned upright by the
    // orientation, and converted to sRGB from the picture's own profile (a Display P3 photo,
    // say); a picture without a profile is taken as sRGB.
    if (vips_thumbnail_buffer((void *)bytes, length, &thumbnail, request.width,
                              "height", request.height, "size", VIPS_SIZE_DOWN,
                              "export_profile", "srgb", "intent", VIPS_INTENT_RELATIVE, NULL)) {
        take_error(error, error_size, "the picture cannot be decoded");
        return -1;
    }
    int status = -1;
    switch (request.format) {
    case 1: {
        // JPEG has no alpha: a transparent picture is laid on white.
        VipsImage *flat = NULL;
        if (vips_image_hasalpha(thumbnail)) {
            double white[] = {255, 255, 255};
            VipsArrayDouble *background = vips_array_double_new(white, 3);
            status = vips_flatten(thumbnail, &flat, "background", background, NULL);
            vips_area_unref(VIPS_AREA(background));
            if (status) break;
        }
        status = vips_jpegsave_buffer(flat ? flat : thumbnail, output, output_length, "Q", request.quality, "strip", TRUE,
                                      "optimize_coding", TRUE, "interlace", FALSE, NULL);
        if (flat) g_object_unref(flat);
        break;
    }
    case 2:
        status = vips_pngsave_buffer(thumbnail, output, output_length, "compression", 9, "strip", TRUE,
                                     "interlace", FALSE, NULL);
        break;
    case 3:
        status = vips_webpsave_buffer(thumbnail, output, output_length, "Q", request.quality, "strip", TRUE,
                                      "effort", 4, NULL);
        break;
    default:
        vips_error("digno", "unknown rendition format %d", request.format);
        break;
    }
    if (status == 0) {
        *width = vips_image_get_width(thumbnail);
        *height = vips_image_get_height(thumbnail);
    } else {
        take_error(error, error_size, "the rendition cannot be encoded");
    }
    g_object_unref(thumbnail);
    return status;
}

void digno_pictures_free(void *bytes) {
    g_free(bytes);
}
