// CSHA256: the SHA-256 (FIPS 180-4) block function behind CaptionAssistant's
// `SHA256`, in C so that it can use the processor's SHA instructions where
// there are some (x86-64 SHA-NI, chosen at run time; AArch64 when built with
// the crypto extension) and plain C everywhere else.
//
// Only the compression of whole 64-byte blocks is here: padding, lengths and
// the digest's byte order stay in Swift.
#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Compresses `blocks` consecutive 64-byte blocks at `data` into `state`
/// (the eight working words a…h, host order), with the processor's SHA
/// instructions when `ca_sha256_hardware()` says so and in plain C otherwise.
/// `data` need not be aligned; `blocks` may be 0.
void ca_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

/// The same compression in plain C whatever the processor has, so that tests
/// can hold the hardware path against it.
void ca_sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks);

/// 1 when `ca_sha256_blocks` uses SHA instructions on this machine (x86-64
/// SHA-NI found by cpuid, or an AArch64 build with the crypto extension),
/// 0 when it uses the portable C.
int ca_sha256_hardware(void);

#ifdef __cplusplus
}
#endif

#endif
