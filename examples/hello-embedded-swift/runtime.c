/* What Embedded Swift calls without a libc: memory functions and an allocator. Each call of a
 * Parlor app starts as in a new instance, so the allocator never needs to give memory back. */
typedef unsigned long size_t;

static unsigned char heap[2 * 1024 * 1024];
static size_t used;

void *memcpy(void *to, const void *from, size_t n) {
    unsigned char *t = to;
    const unsigned char *f = from;
    while (n--) *t++ = *f++;
    return to;
}

void *memmove(void *to, const void *from, size_t n) {
    unsigned char *t = to;
    const unsigned char *f = from;
    if (t < f) {
        while (n--) *t++ = *f++;
    } else {
        while (n--) t[n] = f[n];
    }
    return to;
}

void *memset(void *place, int value, size_t n) {
    unsigned char *p = place;
    while (n--) *p++ = (unsigned char)value;
    return place;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++) {
        if (*x != *y) return *x - *y;
    }
    return 0;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < 16) alignment = 16;
    size_t start = (used + alignment - 1) & ~(alignment - 1);
    if (start > sizeof heap || size > sizeof heap - start) return 12; /* ENOMEM */
    *out = heap + start;
    used = start + size;
    return 0;
}

void *malloc(size_t size) {
    void *place = 0;
    return posix_memalign(&place, 16, size) ? 0 : place;
}

void free(void *place) { (void)place; }
