// See picture_codec.h. Written by hand only because libvips' options are variadic C arguments;
// every decision about pixels is libvips'.
#include "picture_codec.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <vips/vips.h>
#include <jpeglib.h>
#include <webp/mux.h>

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

/// Takes the EXIF, XMP and ICC profile chunks out of the WebP file in `*bytes` (libvips 8.14
/// writes an EXIF block of its own making, with the resolution, whatever `strip` says), through
/// libwebp's own container library; `*bytes` is replaced. 0, or -1 with the reason in libvips'
/// error buffer.
static int strip_webp(void **bytes, size_t *length) {
    WebPData input = {(const uint8_t *)*bytes, *length};
    WebPMux *mux = WebPMuxCreate(&input, 0);
    if (!mux) { vips_error("digno", "libwebpmux cannot read the WebP libvips wrote"); return -1; }
    const char *const chunks[] = {"EXIF", "XMP ", "ICCP"};
    for (size_t index = 0; index < sizeof chunks / sizeof chunks[0]; index++) {
        WebPMuxError status = WebPMuxDeleteChunk(mux, chunks[index]);
        if (status != WEBP_MUX_OK && status != WEBP_MUX_NOT_FOUND) {
            WebPMuxDelete(mux);
            vips_error("digno", "libwebpmux cannot remove a %s chunk", chunks[index]);
            return -1;
        }
    }
    WebPData output = {NULL, 0};
    WebPMuxError status = WebPMuxAssemble(mux, &output);
    WebPMuxDelete(mux);
    if (status != WEBP_MUX_OK) { vips_error("digno", "libwebpmux cannot write the WebP"); return -1; }
    // Handed back in glib's memory, as every rendition's bytes are (digno_pictures_free).
    size_t size = output.size;
    void *copy = g_malloc(size);
    memcpy(copy, output.bytes, size);
    WebPDataClear(&output);
    g_free(*bytes);
    *bytes = copy;
    *length = size;
    return 0;
}

/// Encodes `image` as `request` asks; 0, or -1 with the reason in libvips' error buffer.
static int encode(VipsImage *image, digno_rendition_request request, void **output, size_t *output_length) {
    int status = -1;
    switch (request.format) {
    case 1: {
        // JPEG has no alpha: a transparent picture is laid on white.
        VipsImage *flat = NULL;
        if (vips_image_hasalpha(image)) {
            double white[] = {255, 255, 255};
            VipsArrayDouble *background = vips_array_double_new(white, 3);
            status = vips_flatten(image, &flat, "background", background, NULL);
            vips_area_unref(VIPS_AREA(background));
            if (status) break;
        }
        status = vips_jpegsave_buffer(flat ? flat : image, output, output_length, "Q", request.quality, "strip", TRUE,
                                      "optimize_coding", TRUE, "interlace", FALSE, NULL);
        if (flat) g_object_unref(flat);
        break;
    }
    case 2:
        status = vips_pngsave_buffer(image, output, output_length, "compression", 9, "strip", TRUE,
                                     "interlace", FALSE, NULL);
        break;
    case 3:
        status = vips_webpsave_buffer(image, output, output_length, "Q", request.quality, "lossless", request.lossless ? TRUE : FALSE,
                                      "strip", TRUE, "effort", request.effort, NULL);
        if (status == 0 && strip_webp(output, output_length)) {
            g_free(*output);
            *output = NULL;
            status = -1;
        }
        break;
    default:
        vips_error("digno", "unknown rendition format %d", request.format);
        break;
    }
    return status;
}

static void release_outputs(digno_rendition_output *outputs, int count) {
    for (int index = 0; index < count; index++) {
        g_free(outputs[index].bytes);
        outputs[index].bytes = NULL;
        outputs[index].length = 0;
    }
}

int digno_picture_render(const void *bytes, size_t length, const digno_rendition_request *requests, int count,
                         digno_rendition_output *outputs, char *error, size_t error_size) {
    if (digno_pictures_start() != 0) { snprintf(error, error_size, "libvips could not start"); return -1; }
    if (count < 1) { snprintf(error, error_size, "no rendition asked for"); return -1; }
    for (int index = 0; index < count; index++) outputs[index] = (digno_rendition_output){NULL, 0, 0, 0};
    VipsImage *thumbnail = NULL;
    // The one decode, to the first (largest) box: shrunk while decoding where the format allows
    // (JPEG's DCT scaling), turned upright by the orientation, and converted to sRGB from the
    // picture's own profile (a Display P3 photo, say); a picture without a profile is taken as
    // sRGB. The loader is libvips' choice among the four left unblocked.
    if (vips_thumbnail_buffer((void *)bytes, length, &thumbnail, requests[0].width,
                              "height", requests[0].height, "size", VIPS_SIZE_DOWN,
                              "export_profile", "srgb", "intent", VIPS_INTENT_RELATIVE, NULL)) {
        take_error(error, error_size, "the picture cannot be decoded");
        return -1;
    }
    // Its pixels in memory, when more than one rendition is made from them: libvips evaluates
    // lazily, so each encode would otherwise decode the source again.
    VipsImage *decoded = NULL;
    int failed = count > 1 ? (decoded = vips_image_copy_memory(thumbnail)) == NULL : vips_copy(thumbnail, &decoded, NULL);
    g_object_unref(thumbnail);
    if (failed) { take_error(error, error_size, "the picture cannot be decoded"); return -1; }
    // Every metadata field removed before any encode (the savers' `strip` leaves none in the
    // files, but reads them): libvips 8.14's savers rewrite the EXIF block of the image they
    // save, and with it shared by the renditions of one decode, the WebP saver read the block a
    // JPEG save had freed (AddressSanitizer in fuzz-picture, on a seed photo with EXIF).
    gchar **fields = vips_image_get_fields(decoded);
    // The header's own fields (width, bands…) are not metadata: removing them does nothing.
    for (int index = 0; fields[index]; index++) vips_image_remove(decoded, fields[index]);
    g_strfreev(fields);
    int status = 0;
    for (int index = 0; index < count && status == 0; index++) {
        VipsImage *image = decoded;
        // Each smaller box from the decoded pixels, already upright and in sRGB (the
        // profile libvips attached is removed with the rest of the metadata when encoding).
        if (index > 0 && (requests[index].width < vips_image_get_width(decoded) || requests[index].height < vips_image_get_height(decoded))) {
            image = NULL;
            if (vips_thumbnail_image(decoded, &image, requests[index].width, "height", requests[index].height,
                                     "size", VIPS_SIZE_DOWN, NULL)) {
                take_error(error, error_size, "the rendition cannot be resized");
                status = -1;
                break;
            }
        } else {
            g_object_ref(image);
        }
        status = encode(image, requests[index], &outputs[index].bytes, &outputs[index].length);
        if (status == 0) {
            outputs[index].width = vips_image_get_width(image);
            outputs[index].height = vips_image_get_height(image);
        } else {
            take_error(error, error_size, "the rendition cannot be encoded");
        }
        g_object_unref(image);
    }
    g_object_unref(decoded);
    if (status != 0) release_outputs(outputs, count);
    return status;
}

void digno_pictures_free(void *bytes) {
    g_free(bytes);
}
