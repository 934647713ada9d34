/* What Embedded Swift calls without a libc, for a Parlor app (docs/APPS-WASM.md §6): the memory
 * functions, and an allocator that takes memory from the end of the module's data and grows the
 * memory as it needs, up to the maximum the module declares. Each call of a Parlor app starts as in a
 * new instance (its memory put back as it was), so nothing is given back. Built by the Swift toolchain's clang (--target=wasm32). */
typedef unsigned long size_t;

/* Parlor's host functions (docs/APPS-WASM.md §2), called by Host.swift through these C functions;
 * a module imports only those its code reaches. */
__attribute__((import_module("parlor"), import_name("random_bytes"))) void host_random_bytes(void *place, int length);
__attribute__((import_module("parlor"), import_name("log"))) void host_log(const void *line, int length);
__attribute__((import_module("parlor"), import_name("now_ms"))) long long host_now_ms(void);
__attribute__((import_module("parlor"), import_name("fetch"))) int host_fetch(const void *request, int length, void *out, int capacity);
__attribute__((import_module("parlor"), import_name("upload"))) int host_upload(const void *image, int length, void *out, int capacity);

void parlor_random_bytes(void *place, int length) { host_random_bytes(place, length); }
void parlor_log(const void *line, int length) { host_log(line, length); }
long long parlor_now_ms(void) { return host_now_ms(); }
int parlor_fetch(const void *request, int length, void *out, int capacity) { return host_fetch(request, length, out, capacity); }
int parlor_upload(const void *image, int length, void *out, int capacity) { return host_upload(image, length, out, capacity); }

extern unsigned char __heap_base;
static size_t next;

/* The memory functions are WebAssembly's own bulk-memory instructions (memory.copy, memory.fill),
 * which the engine runs natively: written as byte loops, every copy Swift makes (a string, an
 * array growing) cost the interpreter several operators per byte. Built with -mbulk-memory: without
 * it, a compiler would make each of these call itself. */
void *memcpy(void *to, const void *from, size_t n) {
    __builtin_memcpy(to, from, n);
    return to;
}

void *memmove(void *to, const void *from, size_t n) {
    __builtin_memmove(to, from, n);
    return to;
}

void *memset(void *place, int value, size_t n) {
    __builtin_memset(place, value, n);
    return place;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++) {
        if (*x != *y) return *x - *y;
    }
    return 0;
}

size_t strlen(const char *text) {
    size_t n = 0;
    while (text[n]) n++;
    return n;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (!next) next = (size_t)&__heap_base;
    if (alignment < 16) alignment = 16;
    size_t start = (next + alignment - 1) & ~(alignment - 1);
    if (start < next || size > (size_t)-1 - start) return 12; /* ENOMEM */
    size_t end = start + size;
    size_t have = __builtin_wasm_memory_size(0) * 65536;
    if (end > have) {
        size_t pages = (end - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 12;
    }
    *out = (void *)start;
    next = end;
    return 0;
}

void *malloc(size_t size) {
    void *place = 0;
    return posix_memalign(&place, 16, size) ? 0 : place;
}

void *calloc(size_t count, size_t size) {
    if (size && count > (size_t)-1 / size) return 0;
    void *place = malloc(count * size);
    return place ? memset(place, 0, count * size) : 0;
}

void free(void *place) { (void)place; }

/* Dictionary and Set seed their hashing with random bytes: the same seed every call, so that a
 * module's answers replay exactly. */
void arc4random_buf(void *place, size_t n) { memset(place, 0x5A, n); }
