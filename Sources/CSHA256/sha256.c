// SHA-256 block compression (FIPS 180-4, section 6.2.2): portable C, x86-64
// SHA-NI and AArch64 crypto-extension versions of the same function. See
// include/csha256.h.
#include "csha256.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CA_SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#elif defined(__aarch64__) && defined(__ARM_FEATURE_SHA2)
#define CA_SHA256_ARM 1
#include <arm_neon.h>
#endif

// The round constants: the first 32 bits of the fractional parts of the cube
// roots of the first 64 primes (FIPS 180-4, 4.2.2).
static const uint32_t K[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// MARK: - Portable C

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

// One round t, with the working variables named where they stand in it: the
// eight rounds of CA_ROUND8 rename them instead of moving seven words each round.
#define CA_ROUND(a, b, c, d, e, f, g, h, t) do { \
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]; \
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c)); \
        d += t1; h = t1 + t2; \
    } while (0)

#define CA_ROUND8(t) do { \
        CA_ROUND(a, b, c, d, e, f, g, h, (t) + 0); CA_ROUND(h, a, b, c, d, e, f, g, (t) + 1); \
        CA_ROUND(g, h, a, b, c, d, e, f, (t) + 2); CA_ROUND(f, g, h, a, b, c, d, e, (t) + 3); \
        CA_ROUND(e, f, g, h, a, b, c, d, (t) + 4); CA_ROUND(d, e, f, g, h, a, b, c, (t) + 5); \
        CA_ROUND(c, d, e, f, g, h, a, b, (t) + 6); CA_ROUND(b, c, d, e, f, g, h, a, (t) + 7); \
    } while (0)

void ca_sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32_t w[64];
    for (; blocks > 0; blocks--, data += 64) {
        for (int i = 0; i < 16; i++) w[i] = load_be32(data + 4 * i);
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t += 8) CA_ROUND8(t);
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

#undef CA_ROUND
#undef CA_ROUND8

// MARK: - x86-64 SHA-NI

#if CA_SHA256_X86

// SHA256RNDS2 works on the state split as ABEF and CDGH (a and c in the top
// lanes) and does two rounds with the two low lanes of its third operand
// (message word + constant). Two calls make four rounds and leave the halves
// where they started. SHA256MSG1/MSG2 with a PALIGNR in between compute the
// next four schedule words from the previous sixteen.
#define CA_TARGET_SHANI __attribute__((target("sha,sse4.1,ssse3")))

// Four rounds with the schedule words `m` (t = 4g … 4g+3).
#define CA_ROUNDS4(m, g) do { \
        __m128i kw = _mm_add_epi32((m), _mm_load_si128((const __m128i *)&K[4 * (g)])); \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, kw); \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(kw, 0x0E)); \
    } while (0)

// W[t..t+3] from m0 = W[t-16..t-13], m1 = W[t-12..], m2 = W[t-8..], m3 = W[t-4..t-1], into m0.
#define CA_SCHEDULE(m0, m1, m2, m3) \
    (m0) = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32((m0), (m1)), _mm_alignr_epi8((m3), (m2), 4)), (m3))

CA_TARGET_SHANI
static void blocks_shani(uint32_t state[8], const uint8_t *data, size_t blocks) {
    // Big-endian words: reverse the bytes within each 32-bit lane.
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);  // lanes a b c d
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);  // lanes e f g h
    __m128i badc = _mm_shuffle_epi32(dcba, 0xB1);                // lanes b a d c
    hgfe = _mm_shuffle_epi32(hgfe, 0x1B);                        // lanes h g f e
    __m128i abef = _mm_alignr_epi8(badc, hgfe, 8);               // lanes f e b a
    __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xF0);            // lanes h g d c

    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abef_in = abef, cdgh_in = cdgh;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), swap);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), swap);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), swap);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), swap);
        CA_ROUNDS4(m0, 0);
        CA_ROUNDS4(m1, 1);
        CA_ROUNDS4(m2, 2);
        CA_ROUNDS4(m3, 3);
        for (int g = 4; g < 16; g += 4) {
            CA_SCHEDULE(m0, m1, m2, m3); CA_ROUNDS4(m0, g);
            CA_SCHEDULE(m1, m2, m3, m0); CA_ROUNDS4(m1, g + 1);
            CA_SCHEDULE(m2, m3, m0, m1); CA_ROUNDS4(m2, g + 2);
            CA_SCHEDULE(m3, m0, m1, m2); CA_ROUNDS4(m3, g + 3);
        }
        abef = _mm_add_epi32(abef, abef_in);
        cdgh = _mm_add_epi32(cdgh, cdgh_in);
    }

    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);                // lanes a b e f
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);                // lanes g h c d
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));  // lanes a b c d
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));     // lanes e f g h
}

#undef CA_ROUNDS4
#undef CA_SCHEDULE

// cpuid: SHA is leaf 7 (subleaf 0) EBX bit 29; SSSE3 and SSE4.1 are leaf 1
// ECX bits 9 and 19 (every processor with SHA has them, but ask anyway).
static int detect_hardware(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & (1u << 9)) || !(c & (1u << 19))) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 29)) ? 1 : 0;
}

// -1 until the first call asks cpuid; then 0 or 1. Threads that race on the
// first call store the same value.
static int hardware_found = -1;

int ca_sha256_hardware(void) {
    int found = __atomic_load_n(&hardware_found, __ATOMIC_RELAXED);
    if (found < 0) {
        found = detect_hardware();
        __atomic_store_n(&hardware_found, found, __ATOMIC_RELAXED);
    }
    return found;
}

void ca_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    if (blocks == 0) return;
    if (ca_sha256_hardware()) blocks_shani(state, data, blocks);
    else ca_sha256_blocks_portable(state, data, blocks);
}

// MARK: - AArch64 crypto extension

#elif CA_SHA256_ARM

// SHA256H/SHA256H2 do four rounds on the halves abcd and efgh (a and e in
// lane 0); SHA256SU0/SU1 compute the next four schedule words.

// Four rounds with the schedule words `m` (t = 4g … 4g+3).
#define CA_ROUNDS4(m, g) do { \
        const uint32x4_t kw = vaddq_u32((m), vld1q_u32(&K[4 * (g)])); \
        const uint32x4_t abcd_before = abcd; \
        abcd = vsha256hq_u32(abcd, efgh, kw); \
        efgh = vsha256h2q_u32(efgh, abcd_before, kw); \
    } while (0)

// W[t..t+3] from m0 = W[t-16..t-13], m1 = W[t-12..], m2 = W[t-8..], m3 = W[t-4..t-1], into m0.
#define CA_SCHEDULE(m0, m1, m2, m3) (m0) = vsha256su1q_u32(vsha256su0q_u32((m0), (m1)), (m2), (m3))

static void blocks_arm(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32x4_t abcd = vld1q_u32(&state[0]);
    uint32x4_t efgh = vld1q_u32(&state[4]);
    for (; blocks > 0; blocks--, data += 64) {
        const uint32x4_t abcd_in = abcd, efgh_in = efgh;
        // Big-endian words: reverse the bytes within each 32-bit lane.
        uint32x4_t m0 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 0)));
        uint32x4_t m1 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16)));
        uint32x4_t m2 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 32)));
        uint32x4_t m3 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 48)));
        CA_ROUNDS4(m0, 0);
        CA_ROUNDS4(m1, 1);
        CA_ROUNDS4(m2, 2);
        CA_ROUNDS4(m3, 3);
        for (int g = 4; g < 16; g += 4) {
            CA_SCHEDULE(m0, m1, m2, m3); CA_ROUNDS4(m0, g);
            CA_SCHEDULE(m1, m2, m3, m0); CA_ROUNDS4(m1, g + 1);
            CA_SCHEDULE(m2, m3, m0, m1); CA_ROUNDS4(m2, g + 2);
            CA_SCHEDULE(m3, m0, m1, m2); CA_ROUNDS4(m3, g + 3);
        }
        abcd = vaddq_u32(abcd, abcd_in);
        efgh = vaddq_u32(efgh, efgh_in);
    }
    vst1q_u32(&state[0], abcd);
    vst1q_u32(&state[4], efgh);
}

#undef CA_ROUNDS4
#undef CA_SCHEDULE

int ca_sha256_hardware(void) { return 1; }

void ca_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    blocks_arm(state, data, blocks);
}

// MARK: - Everything else

#else

int ca_sha256_hardware(void) { return 0; }

void ca_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    ca_sha256_blocks_portable(state, data, blocks);
}

#endif
