/*
 * parlor.h: a Parlor app in C, as one WebAssembly file (docs/APPS-WASM.md). One header, no libc:
 * include it in the app's one .c file, write `parlor_app`, and build with the Swift toolchain's
 * own clang:
 *
 *     clang --target=wasm32 -nostdlib -O2 -Wl,--no-entry -Wl,--max-memory=4194304 -o app.wasm app.c
 *
 * Parlor calls `parlor_call` with a call (docs/APPS-PROTOCOL.md §3, as JSON); the app writes its
 * answer, a `result` or `refuse` frame, with the writer below. Each call runs in a new instance,
 * so nothing is kept between calls: the app's state comes in the call and goes back in the answer.
 */
#ifndef PARLOR_H
#define PARLOR_H

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;

/* MARK: What the host gives (module "parlor"); nothing else may be imported. */

#define PARLOR_IMPORT(name) __attribute__((import_module("parlor"), import_name(name)))
PARLOR_IMPORT("log") void parlor_log_bytes(const char *text, int length);
PARLOR_IMPORT("now_ms") i64 parlor_now_ms(void);
PARLOR_IMPORT("random_bytes") void parlor_random_bytes(void *place, int length);
PARLOR_IMPORT("container_get") int parlor_container_get(const char *key, int key_length, char *out, int capacity);
/* An HTTP request described as JSON, and an image to store for the person: each answers JSON in `out`
 * and returns its whole length (more than `capacity`: ask again with room). docs/APPS-WASM.md §2. */
PARLOR_IMPORT("fetch") int parlor_fetch(const char *request, int length, char *out, int capacity);
PARLOR_IMPORT("upload") int parlor_upload(const void *image, int length, char *out, int capacity);

/* MARK: What the compiler may call without a libc (it turns some loops into these). */

void *memcpy(void *to, const void *from, unsigned long count) {
    u8 *t = to;
    const u8 *f = from;
    while (count--) *t++ = *f++;
    return to;
}

void *memmove(void *to, const void *from, unsigned long count) {
    u8 *t = to;
    const u8 *f = from;
    if (t < f) {
        while (count--) *t++ = *f++;
    } else {
        while (count--) t[count] = f[count];
    }
    return to;
}

void *memset(void *place, int value, unsigned long count) {
    u8 *p = place;
    while (count--) *p++ = (u8)value;
    return place;
}

int memcmp(const void *a, const void *b, unsigned long count) {
    const u8 *x = a, *y = b;
    for (; count; count--, x++, y++) {
        if (*x != *y) return *x - *y;
    }
    return 0;
}

unsigned long strlen(const char *text) {
    unsigned long n = 0;
    while (text[n]) n++;
    return n;
}

static inline int parlor_strlen(const char *text) { return (int)strlen(text); }

/* A line in the operator's log (at most 16 a call, 1 KiB each). */
static inline void parlor_log(const char *text) { parlor_log_bytes(text, parlor_strlen(text)); }

/* MARK: Memory: a bump allocator (each call starts with a new instance). */

#define PARLOR_HEAP_BYTES (1024 * 1024)
static u8 parlor_heap[PARLOR_HEAP_BYTES];
static u32 parlor_heap_used;

__attribute__((export_name("parlor_alloc"))) void *parlor_alloc(int size) {
    u32 rounded = ((u32)size + 15u) & ~15u;
    if (size < 0 || rounded > PARLOR_HEAP_BYTES - parlor_heap_used) return 0;
    void *place = parlor_heap + parlor_heap_used;
    parlor_heap_used += rounded;
    return place;
}

/* MARK: Reading JSON: a value is the span of its text; lookups skip what they do not need. */

typedef struct {
    const char *text;
    int length; /* 0: absent */
} pj;

static const pj pj_absent = {0, 0};

static const char *pj_space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    return p;
}

/* The end of the value at p, or 0 when it is not JSON (nesting deeper than 64 included). */
static const char *pj_skip(const char *p, const char *end, int depth) {
    p = pj_space(p, end);
    if (p >= end || depth > 64) return 0;
    if (*p == '"') {
        for (p++; p < end; p++) {
            if (*p == '\\') p++;
            else if (*p == '"') return p + 1;
        }
        return 0;
    }
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = pj_space(p + 1, end);
        if (p < end && *p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                p = pj_skip(p, end, depth + 1); /* the key */
                if (!p) return 0;
                p = pj_space(p, end);
                if (p >= end || *p != ':') return 0;
                p++;
            }
            p = pj_skip(p, end, depth + 1);
            if (!p) return 0;
            p = pj_space(p, end);
            if (p < end && *p == ',') { p++; continue; }
            if (p < end && *p == close) return p + 1;
            return 0;
        }
    }
    const char *start = p;
    while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') p++;
    return p > start ? p : 0;
}

static pj pj_of(const char *text, int length) {
    const char *start = pj_space(text, text + length);
    const char *end = pj_skip(start, text + length, 0);
    return end ? (pj){start, (int)(end - start)} : pj_absent;
}

static int pj_kind(pj value) { return value.length ? value.text[0] : 0; }

/* The member `key` of an object (keys compared as written, without escapes), or absent. */
static pj pj_get(pj object, const char *key) {
    if (pj_kind(object) != '{') return pj_absent;
    const char *p = object.text + 1, *end = object.text + object.length;
    int key_length = parlor_strlen(key);
    for (;;) {
        p = pj_space(p, end);
        if (p >= end || *p != '"') return pj_absent;
        const char *key_end = pj_skip(p, end, 1);
        if (!key_end) return pj_absent;
        int matches = key_end - p - 2 == key_length && memcmp(p + 1, key, key_length) == 0;
        p = pj_space(key_end, end);
        if (p >= end || *p != ':') return pj_absent;
        const char *value_start = pj_space(p + 1, end);
        const char *value_end = pj_skip(value_start, end, 1);
        if (!value_end) return pj_absent;
        if (matches) return (pj){value_start, (int)(value_end - value_start)};
        p = pj_space(value_end, end);
        if (p < end && *p == ',') { p++; continue; }
        return pj_absent;
    }
}

static int pj_hex(char h) {
    return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
}

/* Four hex digits at p, or -1. */
static int pj_hex4(const char *p, const char *end) {
    if (end - p < 4) return -1;
    int value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = pj_hex(p[i]);
        if (digit < 0) return -1;
        value = value * 16 + digit;
    }
    return value;
}

/* A string's text, unescaped into out (at most capacity bytes); its length, or -1 when the value
 * is not a string or does not fit. \u escapes become UTF-8 (surrogate pairs joined). */
static int pj_string(pj value, char *out, int capacity) {
    if (pj_kind(value) != '"') return -1;
    const char *p = value.text + 1, *end = value.text + value.length - 1;
    int n = 0;
    while (p < end) {
        u32 c = (u8)*p++;
        if (c == '\\' && p < end) {
            char e = *p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                int unit = pj_hex4(p, end);
                if (unit < 0) return -1;
                c = (u32)unit;
                p += 4;
                if (c >= 0xD800 && c < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                    int low = pj_hex4(p + 2, end);
                    if (low >= 0xDC00 && low < 0xE000) {
                        c = 0x10000 + ((c - 0xD800) << 10) + ((u32)low - 0xDC00);
                        p += 6;
                    }
                }
                /* UTF-8 */
                if (c < 0x80) break;
                int bytes = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
                if (n + bytes > capacity) return -1;
                if (bytes == 2) { out[n++] = (char)(0xC0 | (c >> 6)); }
                else if (bytes == 3) { out[n++] = (char)(0xE0 | (c >> 12)); out[n++] = (char)(0x80 | ((c >> 6) & 0x3F)); }
                else { out[n++] = (char)(0xF0 | (c >> 18)); out[n++] = (char)(0x80 | ((c >> 12) & 0x3F)); out[n++] = (char)(0x80 | ((c >> 6) & 0x3F)); }
                out[n++] = (char)(0x80 | (c & 0x3F));
                continue;
            }
            default: c = (u8)e; break; /* \" \\ \/ */
            }
        }
        if (n >= capacity) return -1;
        out[n++] = (char)c;
    }
    return n;
}

/* Whether value is the string `text` (compared unescaped, up to 512 bytes). */
static int pj_equals(pj value, const char *text) {
    char buffer[512];
    int n = pj_string(value, buffer, sizeof buffer);
    return n >= 0 && n == parlor_strlen(text) && memcmp(buffer, text, n) == 0;
}

/* A non-negative integer of at most 18 digits, or -1. */
static i64 pj_count(pj value) {
    if (value.length < 1 || value.length > 18) return -1;
    i64 n = 0;
    for (int i = 0; i < value.length; i++) {
        if (value.text[i] < '0' || value.text[i] > '9') return -1;
        n = n * 10 + (value.text[i] - '0');
    }
    return n;
}

/* MARK: Writing the answer. */

#define PARLOR_ANSWER_BYTES (256 * 1024)
static char parlor_answer[PARLOR_ANSWER_BYTES];

typedef struct {
    int length;
    int overflowed;
} pw;

static void pw_bytes(pw *w, const char *bytes, int count) {
    if (w->overflowed || count > PARLOR_ANSWER_BYTES - w->length) { w->overflowed = 1; return; }
    memcpy(parlor_answer + w->length, bytes, count);
    w->length += count;
}

static void pw_raw(pw *w, const char *text) { pw_bytes(w, text, parlor_strlen(text)); }
static void pw_json(pw *w, pj value) { pw_bytes(w, value.text, value.length); }

/* `count` bytes of UTF-8 as a JSON string. */
static void pw_string_bytes(pw *w, const char *text, int count) {
    static const char hex[] = "0123456789abcdef";
    pw_raw(w, "\"");
    for (int i = 0; i < count; i++) {
        u8 c = (u8)text[i];
        if (c == '"' || c == '\\') { char e[2] = {'\\', (char)c}; pw_bytes(w, e, 2); }
        else if (c < 0x20) { char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]}; pw_bytes(w, e, 6); }
        else pw_bytes(w, (const char *)&text[i], 1);
    }
    pw_raw(w, "\"");
}

static void pw_string(pw *w, const char *text) { pw_string_bytes(w, text, parlor_strlen(text)); }

static void pw_int(pw *w, i64 value) {
    char digits[24];
    int n = 0;
    u64 v = value < 0 ? 0 - (u64)value : (u64)value;
    do { digits[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    if (value < 0) pw_raw(w, "-");
    while (n) pw_bytes(w, &digits[--n], 1);
}

/* `{"type":"result","result":{"id":<the call's id>` — then the app writes `,"state":…` and so
 * on, and `parlor_end`. */
/* The call's id as JSON (null when the call has none: Parlor then refuses the answer). */
static void pw_call_id(pw *w, pj call) {
    pj id = pj_get(call, "id");
    if (id.length) pw_json(w, id);
    else pw_raw(w, "null");
}

static void parlor_begin_result(pw *w, pj call) {
    pw_raw(w, "{\"type\":\"result\",\"result\":{\"id\":");
    pw_call_id(w, call);
}

static void parlor_end(pw *w) { pw_raw(w, "}}"); }

/* A refusal: `code` is a Messages error code, `message` the sentence the person sees. */
static void parlor_refuse(pw *w, pj call, const char *code, const char *message) {
    pw_raw(w, "{\"type\":\"refuse\",\"refusal\":{\"id\":");
    pw_call_id(w, call);
    pw_raw(w, ",\"code\":");
    pw_string(w, code);
    pw_raw(w, ",\"message\":");
    pw_string(w, message);
    parlor_end(w);
}

/* MARK: The entry point. */

/* The app: answers `call` (a call object, docs/APPS-PROTOCOL.md §3) by writing one frame. */
static void parlor_app(pj call, pw *answer);

__attribute__((export_name("parlor_call"))) i64 parlor_call(const char *input, int length) {
    pw answer = {0, 0};
    pj call = pj_of(input, length);
    parlor_app(call, &answer);
    if (answer.overflowed) {
        answer = (pw){0, 0};
        parlor_refuse(&answer, call, "unknown", "The answer was too large.");
    }
    return ((i64)(u32)(unsigned long)parlor_answer << 32) | (u32)answer.length;
}

#endif
