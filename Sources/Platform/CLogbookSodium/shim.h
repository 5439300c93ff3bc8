// SPDX-License-Identifier: MIT
// libsodium for the journal's hash chain (SHA-256) and checkpoint signatures (Ed25519):
// a small C library already on every Raspberry Pi OS, instead of swift-crypto, whose
// BoringSSL and FoundationEssentials would otherwise be part of logbookd's image
// (docs/memory.md). Only LogbookSodium imports this module.
#ifndef CLOGBOOK_SODIUM_SHIM_H
#define CLOGBOOK_SODIUM_SHIM_H

#include <sodium/core.h>
#include <sodium/crypto_hash_sha256.h>
#include <sodium/crypto_sign_ed25519.h>
#include <sodium/randombytes.h>
#include <sodium/utils.h>

#endif
