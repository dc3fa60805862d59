// See picture_codec.h. Written by hand because libvips' options are variadic C arguments, and
// because JPEG and PNG are decoded by libjpeg and libpng directly, with an error manager per
// decode that judges each warning (libvips' loaders only print them); resizing, colour and
// encoding are libvips'.
#include "picture_codec.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <vips/vips.h>
#include <setjmp.h>
#include <stdlib.h>

#include <jpeglib.h>
#include <jerror.h>
#include <lcms2.h>
#include <png.h>
#include <webp/mux.h>

static pthread_once_t started_once = PTHREAD_ONCE_INIT;
static int started_status = -1;

static const char *const allowed_loaders[] = {
    "VipsForeignLoadJpegBuffer", "VipsForeignLoadPngBuffer", "VipsForeignLoadHeifBuffer", "VipsForeignLoadWebpBuffer",
};

/// libvips' and its loaders' warnings (a libheif note, a profile it cannot use), which it writes
/// on the terminal: the compiler judges every picture itself and says what matters in a
/// diagnostic, so no decoder line reaches the terminal.
static void drop_warning(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

static void start(void) {
    if (VIPS_INIT("digno")) return;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, drop_warning, NULL);
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
    int lcms = cmsGetEncodedCMMversion();
    snprintf(text, size, "libvips %s, %s, libpng %s, zlib %s, libwebp %s, libheif %s, lcms2 %d.%d",
             vips_version_string(), jpeg, png_version(), loaded_version("zlibVersion"),
             webp, loaded_version("heif_get_version"), lcms / 1000, lcms % 1000 / 10);
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

typedef struct {
    char *text;
    size_t size;
    size_t used;
} metadata_lines;

static void *add_metadata(VipsImage *image, const char *name, GValue *value, void *data) {
    (void)value;
    metadata_lines *lines = data;
    if (strncmp(name, "exif-ifd", 8) != 0 && strcmp(name, "xmp-data") != 0 && strcmp(name, "iptc-data") != 0) return NULL;
    char *words = NULL;
    if (vips_image_get_as_string(image, name, &words) != 0 || !words) return NULL;
    // A value's tabs and line ends would break the lines: spaces.
    for (char *at = words; *at; at++)
        if (*at == '\t' || *at == '\n' || *at == '\r') *at = ' ';
    size_t length = strlen(name) + 1 + strlen(words) + 1;
    if (lines->used + length < lines->size) {
        lines->used += (size_t)snprintf(lines->text + lines->used, lines->size - lines->used, "%s\t%s\n", name, words);
    }
    g_free(words);
    return NULL;
}

int digno_picture_metadata(const void *bytes, size_t length, int format, char *text, size_t size) {
    if (size == 0) return -1;
    text[0] = 0;
    if (digno_pictures_start() != 0) { snprintf(text, size, "libvips could not start"); return -1; }
    VipsImage *image = load_header(bytes, length, format);
    if (!image) { take_error(text, size, "the header cannot be read"); return -1; }
    metadata_lines lines = { text, size, 0 };
    vips_image_map(image, add_metadata, &lines);
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

/// How one picture's decode went, kept by its own decoder: each decode has its own (libvips'
/// error buffer is shared by every thread, and libpng's and libjpeg's warnings reach it only as
/// terminal lines).
typedef struct {
    /// DIGNO_PICTURE_DAMAGED or DIGNO_PICTURE_TOO_MANY_SCANS when the decode stopped for that
    /// reason; 0 otherwise.
    int outcome;
    /// The decoder's own words for it.
    char words[256];
} decode_report;

static void report(decode_report *report, int outcome, const char *words) {
    if (report->outcome) return;  // the first reason stands
    report->outcome = outcome;
    snprintf(report->words, sizeof report->words, "%s", words);
}

/// Frees a decoder's pixel buffer when the image made on it closes.
static void free_pixels(VipsImage *image, void *pixels) {
    (void)image;
    g_free(pixels);
}

/// An image made on `pixels` (`bands` bytes a pixel, freed with it), with its picture's
/// orientation and, where it is sound and fits the pixels, its ICC profile.
static VipsImage *wrap_pixels(void *pixels, int width, int height, int bands, VipsInterpretation interpretation,
                              int orientation, const void *profile, size_t profile_length) {
    VipsImage *image = vips_image_new_from_memory(pixels, (size_t)width * height * bands, width, height, bands, VIPS_FORMAT_UCHAR);
    if (!image) { g_free(pixels); return NULL; }
    g_signal_connect(image, "postclose", G_CALLBACK(free_pixels), pixels);
    image->Type = interpretation;
    if (orientation > 1 && orientation <= 8) vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
    if (profile && profile_length && vips_icc_is_compatible_profile(image, profile, profile_length))
        vips_image_set_blob_copy(image, VIPS_META_ICC_NAME, profile, profile_length);
    return image;
}

/// The shrink that fits a `width` × `height` picture (turned a quarter by `orientation` 5 to 8)
/// into `box`: 1 when it fits already.
static double fitting_shrink(int width, int height, int orientation, int box_width, int box_height) {
    int turned = orientation >= 5;
    double horizontal = (double)width / (turned ? box_height : box_width);
    double vertical = (double)height / (turned ? box_width : box_height);
    double shrink = horizontal > vertical ? horizontal : vertical;
    return shrink < 1 ? 1 : shrink;
}

// JPEG, decoded by libjpeg itself rather than through libvips: libvips' loader sends libjpeg's
// warnings to the terminal and goes on with grey pixels in place of the missing ones, and it has
// no limit on a progressive file's scans. Here every warning is judged by its code, and the
// progress monitor stops a decode at the scan limit.

typedef struct {
    struct jpeg_error_mgr manager;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    decode_report *report;
    int max_scans;
} jpeg_decode;

static void jpeg_fail(j_common_ptr info) {
    jpeg_decode *decode = (jpeg_decode *)info->err;
    char words[JMSG_LENGTH_MAX];
    info->err->format_message(info, words);
    int code = info->err->msg_code;
    // Running out of memory is not damage in the file; any other error is (the compiler's own
    // reading refused what libjpeg does not take before it was called).
    report(decode->report, code == JERR_OUT_OF_MEMORY ? DIGNO_PICTURE_FAILED : DIGNO_PICTURE_DAMAGED, words);
    longjmp(decode->jump, 1);
}

/// A warning about what surrounds the pixels (an ICC profile's chunks, the JFIF version, an
/// unknown Adobe colour code, stray bytes between markers) is passed over; any other means
/// the decoder made up pixels the file did not give, and stops the decode.
static void jpeg_message(j_common_ptr info, int level) {
    if (level >= 0) return;  // a trace, not a warning
    switch (info->err->msg_code) {
    case JWRN_ADOBE_XFORM:
    case JWRN_BOGUS_ICC:
    case JWRN_JFIF_MAJOR:
    case JWRN_EXTRANEOUS_DATA:
        return;
    default:
        jpeg_fail(info);
    }
}

static void jpeg_progress(j_common_ptr info) {
    jpeg_decode *decode = (jpeg_decode *)info->err;
    j_decompress_ptr decompress = (j_decompress_ptr)info;
    if (decode->max_scans > 0 && decompress->input_scan_number > decode->max_scans) {
        char words[128];
        snprintf(words, sizeof words, "scan %d of at most %d", decompress->input_scan_number, decode->max_scans);
        report(decode->report, DIGNO_PICTURE_TOO_MANY_SCANS, words);
        longjmp(decode->jump, 1);
    }
}

static VipsImage *decode_jpeg(const void *bytes, size_t length, const digno_picture_source *source,
                              int box_width, int box_height, decode_report *outcome) {
    struct jpeg_decompress_struct info;
    jpeg_decode decode;
    memset(&decode, 0, sizeof decode);
    decode.report = outcome;
    decode.max_scans = source->max_scans;
    info.err = jpeg_std_error(&decode.manager);
    decode.manager.error_exit = jpeg_fail;
    decode.manager.emit_message = jpeg_message;
    // Volatile: changed between setjmp and a longjmp back to it.
    unsigned char *volatile pixels = NULL;
    JOCTET *volatile profile = NULL;
    if (setjmp(decode.jump)) {
        g_free(pixels);
        free(profile);
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    jpeg_create_decompress(&info);
    decode.progress.progress_monitor = jpeg_progress;
    info.progress = &decode.progress;
    jpeg_mem_src(&info, (const unsigned char *)bytes, (unsigned long)length);
    jpeg_save_markers(&info, JPEG_APP0 + 2, 0xFFFF);  // the ICC profile's
    jpeg_read_header(&info, TRUE);
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    if (jpeg_read_icc_profile(&info, &icc, &icc_length)) profile = icc;
    // Shrunk while decoding (DCT scaling) as libvips' thumbnail does: to a power of two that
    // leaves at least twice the box, for the resize to finish.
    double shrink = fitting_shrink((int)info.image_width, (int)info.image_height, source->orientation, box_width, box_height);
    info.scale_num = 1;
    info.scale_denom = shrink >= 16 ? 8 : shrink >= 8 ? 4 : shrink >= 4 ? 2 : 1;
    info.dct_method = JDCT_ISLOW;
    VipsInterpretation interpretation = VIPS_INTERPRETATION_sRGB;
    int invert = 0;
    switch (info.jpeg_color_space) {
    case JCS_GRAYSCALE:
        info.out_color_space = JCS_GRAYSCALE;
        interpretation = VIPS_INTERPRETATION_B_W;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        info.out_color_space = JCS_CMYK;
        interpretation = VIPS_INTERPRETATION_CMYK;
        // Adobe's CMYK JPEGs store their inks inverted, as libvips reads them too.
        invert = info.saw_Adobe_marker;
        break;
    default:
        info.out_color_space = JCS_RGB;
        break;
    }
    jpeg_start_decompress(&info);
    int width = (int)info.output_width, height = (int)info.output_height, bands = info.output_components;
    size_t row = (size_t)width * bands;
    pixels = g_try_malloc(row * height);
    if (!pixels) {
        report(outcome, DIGNO_PICTURE_FAILED, "not enough memory for the decoded picture");
        longjmp(decode.jump, 1);
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW line = pixels + row * info.output_scanline;
        jpeg_read_scanlines(&info, &line, 1);
    }
    if (invert)
        for (size_t index = 0; index < row * height; index++) pixels[index] = 255 - pixels[index];
    jpeg_destroy_decompress(&info);
    VipsImage *image = wrap_pixels(pixels, width, height, bands, interpretation, source->orientation, profile, profile ? icc_length : 0);
    free(profile);
    return image;
}

// PNG, decoded by libpng itself for the same reasons: libvips' loader writes libpng's errors
// on the terminal and keeps the rows it could not read. 16-bit samples are scaled to 8 bits by
// libpng's rounding (png_set_scale_16), not cut.

typedef struct {
    const unsigned char *bytes;
    size_t length;
    size_t offset;
    decode_report *report;
} png_decode;

static void png_fail(png_structp png, png_const_charp words) {
    png_decode *decode = png_get_error_ptr(png);
    report(decode->report, strstr(words, "memory") ? DIGNO_PICTURE_FAILED : DIGNO_PICTURE_DAMAGED, words);
    png_longjmp(png, 1);
}

/// The chunks whose warnings are about metadata, not pixels: libpng names the chunk first.
static const char *const metadata_chunks[] = {
    "iCCP", "sRGB", "gAMA", "cHRM", "cICP", "eXIf", "tEXt", "zTXt", "iTXt", "pHYs", "tIME", "bKGD", "hIST",
    "sPLT", "sBIT", "oFFs", "pCAL", "sCAL", "sTER", "acTL", "fcTL", "fdAT",
};

static void png_warn(png_structp png, png_const_charp words) {
    for (size_t index = 0; index < sizeof metadata_chunks / sizeof metadata_chunks[0]; index++)
        if (strncmp(words, metadata_chunks[index], 4) == 0) return;
    if (strstr(words, "profile")) return;
    png_fail(png, words);
}

static void png_read_bytes(png_structp png, png_bytep into, size_t count) {
    png_decode *decode = png_get_io_ptr(png);
    if (count > decode->length - decode->offset) png_error(png, "Read Error: the file ends too soon");
    memcpy(into, decode->bytes + decode->offset, count);
    decode->offset += count;
}

static VipsImage *decode_png(const void *bytes, size_t length, const digno_picture_source *source, decode_report *outcome) {
    png_decode decode = {(const unsigned char *)bytes, length, 0, outcome};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decode, png_fail, png_warn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        report(outcome, DIGNO_PICTURE_FAILED, "libpng could not start");
        return NULL;
    }
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        g_free(pixels);
        g_free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return NULL;
    }
    png_set_read_fn(png, &decode, png_read_bytes);
    png_set_user_limits(png, 0x7FFFFFFF, 0x7FFFFFFF);  // the compiler's own limits came first
    png_read_info(png, info);
    int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
    if (depth == 16) png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int width = (int)png_get_image_width(png, info), height = (int)png_get_image_height(png, info);
    int bands = png_get_channels(png, info);
    size_t row = png_get_rowbytes(png, info);
    pixels = g_try_malloc(row * height);
    rows = g_try_malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) png_error(png, "not enough memory for the decoded picture");
    for (int y = 0; y < height; y++) rows[y] = pixels + row * y;
    png_read_image(png, rows);
    // Up to IEND: image data left over is damage too.
    png_read_end(png, NULL);
    png_charp name = NULL;
    int compression = 0;
    png_bytep icc = NULL;
    png_uint_32 icc_length = 0;
    void *profile = NULL;
    if (png_get_iCCP(png, info, &name, &compression, &icc, &icc_length) && icc_length) profile = g_memdup2(icc, icc_length);
    g_free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    VipsImage *image = wrap_pixels(pixels, width, height, bands, bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB,
                                   source->orientation, profile, profile ? icc_length : 0);
    g_free(profile);
    return image;
}

// HEIF through libvips' loader, from the primary image alone (never its embedded thumbnail,
// which libvips' thumbnail takes whenever it covers the box: an edit on the phone leaves the
// old one), except for the preview's stand-in, which asks for the thumbnail. The compiler has
// read the file's boxes first and bounded what libheif will decode.

static VipsImage *decode_heif(const void *bytes, size_t length, int thumbnail, decode_report *outcome) {
    VipsImage *image = NULL;
    if (vips_heifload_buffer((void *)bytes, length, &image, "thumbnail", thumbnail ? TRUE : FALSE, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) {
        char words[256];
        take_error(words, sizeof words, "the picture cannot be decoded");
        report(outcome, DIGNO_PICTURE_DAMAGED, words);
        return NULL;
    }
    // libheif has turned it by the file's own transformations already.
    vips_image_remove(image, VIPS_META_ORIENTATION);
    return image;
}

static VipsImage *decode_webp(const void *bytes, size_t length, const digno_picture_source *source,
                              int box_width, int box_height, decode_report *outcome) {
    VipsImage *header = load_header(bytes, length, 4);
    if (!header) {
        char words[256];
        take_error(words, sizeof words, "the picture cannot be read");
        report(outcome, DIGNO_PICTURE_DAMAGED, words);
        return NULL;
    }
    double shrink = fitting_shrink(vips_image_get_width(header), vips_image_get_height(header), source->orientation, box_width, box_height);
    g_object_unref(header);
    VipsImage *image = NULL;
    if (vips_webpload_buffer((void *)bytes, length, &image, "scale", 1.0 / shrink, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) {
        char words[256];
        take_error(words, sizeof words, "the picture cannot be decoded");
        report(outcome, DIGNO_PICTURE_DAMAGED, words);
        return NULL;
    }
    return image;
}

/// An ICC profile for a HEIF file's `nclx` colour (ITU-T H.273's code points): its primaries and
/// white point, and its transfer curve; NULL where the colour is sRGB's or not known. Written
/// with lcms2 (libvips' own colour engine) because libvips 8.14 ignores `nclx`.
static void *nclx_profile(int primaries, int transfer, size_t *length) {
    // x, y of red, green, blue and white.
    static const struct { int code; double xy[8]; } known[] = {
        {1, {0.640, 0.330, 0.300, 0.600, 0.150, 0.060, 0.3127, 0.3290}},    // BT.709, sRGB
        {4, {0.67, 0.33, 0.21, 0.71, 0.14, 0.08, 0.310, 0.316}},            // BT.470 M
        {5, {0.64, 0.33, 0.29, 0.60, 0.15, 0.06, 0.3127, 0.3290}},          // BT.601 625
        {6, {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}},    // BT.601 525
        {7, {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}},    // SMPTE 240M
        {9, {0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290}},    // BT.2020
        {11, {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351}},     // DCI-P3
        {12, {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290}},   // Display P3
    };
    // Unspecified (2) is taken as sRGB's, and sRGB itself needs no profile: it passes through.
    if (primaries == 2) primaries = 1;
    if (transfer == 2) transfer = 13;
    if (primaries == 1 && transfer == 13) return NULL;
    const double *xy = NULL;
    for (size_t index = 0; index < sizeof known / sizeof known[0]; index++)
        if (known[index].code == primaries) xy = known[index].xy;
    if (!xy) return NULL;  // primaries not known here: taken as sRGB's
    cmsToneCurve *curve = NULL;
    switch (transfer) {
    case 1: case 6: case 14: case 15: {
        // BT.709's curve: (1.099 L^0.45 - 0.099) for L >= 0.018, 4.5 L below; inverted for
        // decoding as lcms2's parametric type 4.
        double parameters[] = {1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081};
        curve = cmsBuildParametricToneCurve(NULL, 4, parameters);
        break;
    }
    case 4: curve = cmsBuildGamma(NULL, 2.2); break;
    case 5: curve = cmsBuildGamma(NULL, 2.8); break;
    case 8: curve = cmsBuildGamma(NULL, 1.0); break;
    default: {
        // sRGB's (13), and what is unspecified or not a still picture's (PQ, HLG: shown as sRGB).
        double parameters[] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
        curve = cmsBuildParametricToneCurve(NULL, 4, parameters);
        break;
    }
    }
    if (!curve) return NULL;
    cmsCIExyY white = {xy[6], xy[7], 1.0};
    cmsCIExyYTRIPLE rgb = {{xy[0], xy[1], 1.0}, {xy[2], xy[3], 1.0}, {xy[4], xy[5], 1.0}};
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &rgb, curves);
    cmsFreeToneCurve(curve);
    if (!profile) return NULL;
    cmsUInt32Number size = 0;
    void *bytes = NULL;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size && (bytes = g_malloc(size)) && !cmsSaveProfileToMem(profile, bytes, &size)) {
        g_free(bytes);
        bytes = NULL;
    }
    cmsCloseProfile(profile);
    *length = size;
    return bytes;
}

/// The source decoded (shrunk while decoding where the format allows), with its ICC profile where
/// it has a sound one and nothing else: NULL with `outcome` or libvips' error set.
static VipsImage *decode(const void *bytes, size_t length, const digno_picture_source *source,
                         int box_width, int box_height, decode_report *outcome) {
    switch (source->format) {
    case 1: return decode_jpeg(bytes, length, source, box_width, box_height, outcome);
    case 2: return decode_png(bytes, length, source, outcome);
    case 3: {
        VipsImage *image = decode_heif(bytes, length, source->thumbnail, outcome);
        if (!image) return NULL;
        if (vips_image_get_typeof(image, VIPS_META_ICC_NAME)) {
            const void *profile = NULL;
            size_t profile_length = 0;
            if (vips_image_get_blob(image, VIPS_META_ICC_NAME, &profile, &profile_length)
                || !vips_icc_is_compatible_profile(image, profile, profile_length))
                vips_image_remove(image, VIPS_META_ICC_NAME);
        } else if (source->colour_primaries) {
            size_t profile_length = 0;
            void *profile = nclx_profile(source->colour_primaries, source->transfer_characteristics, &profile_length);
            if (profile) vips_image_set_blob(image, VIPS_META_ICC_NAME, (VipsCallbackFn)g_free, profile, profile_length);
        }
        return image;
    }
    case 4: return decode_webp(bytes, length, source, box_width, box_height, outcome);
    default:
        report(outcome, DIGNO_PICTURE_FAILED, "unknown format");
        return NULL;
    }
}

int digno_picture_render(const void *bytes, size_t length, const digno_picture_source *source,
                         const digno_rendition_request *requests, int count,
                         digno_rendition_output *outputs, char *error, size_t error_size) {
    if (digno_pictures_start() != 0) { snprintf(error, error_size, "libvips could not start"); return DIGNO_PICTURE_FAILED; }
    if (count < 1) { snprintf(error, error_size, "no rendition asked for"); return DIGNO_PICTURE_FAILED; }
    for (int index = 0; index < count; index++) outputs[index] = (digno_rendition_output){NULL, 0, 0, 0};
    decode_report outcome = {0, ""};
    VipsImage *source_image = decode(bytes, length, source, requests[0].width, requests[0].height, &outcome);
    if (!source_image) {
        snprintf(error, error_size, "%s", outcome.words[0] ? outcome.words : "the picture cannot be decoded");
        return outcome.outcome ? outcome.outcome : DIGNO_PICTURE_FAILED;
    }
    int has_profile = vips_image_get_typeof(source_image, VIPS_META_ICC_NAME) != 0;
    // 16-bit samples with no profile to convert them: rounded to 8 bits (libvips would cut).
    if (!has_profile && vips_image_get_format(source_image) == VIPS_FORMAT_USHORT) {
        VipsImage *rounded = NULL;
        if (vips_linear1(source_image, &rounded, 1.0 / 257.0, 0.5, "uchar", TRUE, NULL)) {
            g_object_unref(source_image);
            take_error(error, error_size, "the picture cannot be decoded");
            return DIGNO_PICTURE_FAILED;
        }
        rounded->Type = source_image->Bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
        g_object_unref(source_image);
        source_image = rounded;
    }
    VipsImage *thumbnail = NULL;
    // The one resize to the first (largest) box, turned upright by the orientation. A picture
    // with a profile (its own, or its `nclx` colour's) is converted to sRGB from it; one without
    // is sRGB already and passes through as it is: libvips' export to sRGB would move its
    // colours by a few levels.
    int failed = has_profile
        ? vips_thumbnail_image(source_image, &thumbnail, requests[0].width, "height", requests[0].height, "size", VIPS_SIZE_DOWN,
                               "export_profile", "srgb", "intent", VIPS_INTENT_RELATIVE, NULL)
        : vips_thumbnail_image(source_image, &thumbnail, requests[0].width, "height", requests[0].height, "size", VIPS_SIZE_DOWN, NULL);
    g_object_unref(source_image);
    if (failed) {
        take_error(error, error_size, "the picture cannot be decoded");
        return DIGNO_PICTURE_FAILED;
    }
    // Its pixels in memory, when more than one rendition is made from them: libvips evaluates
    // lazily, so each encode would otherwise decode the source again.
    VipsImage *decoded = NULL;
    failed = count > 1 ? (decoded = vips_image_copy_memory(thumbnail)) == NULL : vips_copy(thumbnail, &decoded, NULL);
    g_object_unref(thumbnail);
    if (failed) { take_error(error, error_size, "the picture cannot be decoded"); return DIGNO_PICTURE_FAILED; }
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
